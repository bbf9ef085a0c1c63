import { useCallback, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { COOKIE_MAX_AGE_DAYS } from '#common/constants.ts';
import { type Locale, LOCALE_COOKIE, localeOfPath, localePath, stripLocale } from '#common/locales.ts';
import { writeBrowserCookie } from '../lib/cookies.ts';
import { loadLocaleMessages } from './i18n.ts';

/** The locale of the current page, read from its path (the one source of truth). */
export function useLocale(): Locale {
  return localeOfPath(useLocation().pathname);
}

/** Remembers the visitor's choice for the first-visit language redirect (spec section 9: 365 days). */
function rememberLocale(locale: Locale): void {
  writeBrowserCookie(LOCALE_COOKIE, locale, { maxAgeDays: COOKIE_MAX_AGE_DAYS, sameSite: 'Lax' });
}

/**
 * Switching locale (spec section 4): load the messages first, then remember the choice and go
 * to the same page in the other locale. When loading fails the current locale stays.
 */
export function useSwitchLocale(): { switchLocale: (next: Locale) => Promise<boolean>; pending: Locale | null } {
  const location = useLocation();
  const navigate = useNavigate();
  const [pending, setPending] = useState<Locale | null>(null);
  const switchLocale = useCallback(
    async (next: Locale) => {
      if (next === localeOfPath(location.pathname)) return true;
      setPending(next);
      try {
        if (!(await loadLocaleMessages(next))) return false;
        rememberLocale(next);
        await navigate(localePath(next, stripLocale(location.pathname)) + location.search + location.hash, { preventScrollReset: true });
        return true;
      } finally {
        setPending(null);
      }
    },
    [location.pathname, location.search, location.hash, navigate],
  );
  return { switchLocale, pending };
}
