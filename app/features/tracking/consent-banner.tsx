import { useSyncExternalStore } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import { Link } from 'react-router';
import { localePath } from '#common/locales.ts';
import { useLocale } from '../../i18n/use-locale.ts';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { type Consent, consent } from './consent.ts';
import { fromMetaCampaign } from './pixel.ts';

/** The visitor's consent choice, read in the browser only (pages are cached without it). */
export function useConsent(): Consent | null | undefined {
  return useSyncExternalStore(
    (listener) => consent.subscribe(listener),
    () => consent.get(),
    () => undefined,
  );
}

/**
 * The first visit's consent choice (decision 065): a small panel at the bottom, over the page
 * (no layout shift) and, on phones, above the bottom navigation, with accept and decline of equal weight and the cookie policy linked. Asked
 * where the answer matters: a pixel is configured and the visit came from a facebook or meta
 * campaign (nobody else is ever measured). Shown until the visitor chooses; the choice lasts 365
 * days and can be changed in Settings.
 */
export function ConsentBanner() {
  const { t } = useTranslation('shell');
  const locale = useLocale();
  const choice = useConsent();
  const concerned = useSyncExternalStore(
    (listener) => consent.subscribe(listener),
    () => fromMetaCampaign(document.cookie),
    () => false,
  );
  if (choice !== null || !concerned) return null;
  return (
    <section
      aria-labelledby="consent-title"
      className="fixed inset-x-2 bottom-[calc(4.5rem+1px+env(safe-area-inset-bottom))] z-40 mx-auto max-h-[calc(100dvh-9rem)] max-w-xl overflow-y-auto rounded-2xl border border-zinc-200 bg-white p-4 text-sm shadow-lg sm:inset-x-4 md:bottom-4 dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="consent-banner"
    >
      <h2 id="consent-title" className="font-semibold">
        {t('consent.title')}
      </h2>
      <p className="mt-1 text-zinc-600 dark:text-zinc-400">
        {t('consent.body')}{' '}
        <Link to={localePath(locale, '/cookie-policy')} className={cn('underline underline-offset-2', focusRing)}>
          {t('consent.policy')}
        </Link>
      </p>
      <div className="mt-3 flex gap-2">
        <Button size="sm" variant="secondary" className="grow basis-0" onClick={() => consent.set('declined')} data-testid="consent-decline">
          {t('consent.decline')}
        </Button>
        <Button size="sm" variant="secondary" className="grow basis-0" onClick={() => consent.set('accepted')} data-testid="consent-accept">
          {t('consent.accept')}
        </Button>
      </div>
    </section>
  );
}
