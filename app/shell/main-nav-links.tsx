import { useTranslation } from '../i18n/translation.tsx';
import { NavLink } from 'react-router';
import { localePath } from '#common/locales.ts';
import { useLocale } from '../i18n/use-locale.ts';
import { MAIN_NAV } from './menu-items.ts';
import { usePrefetch } from './use-prefetch.ts';

/**
 * The four main links (home, categories, news, my area) as list items, for the header on wide
 * screens and the bottom bar on narrow ones; each styles them its own way.
 */
export function MainNavLinks({ linkClass, withIcons = false }: { linkClass: (isActive: boolean) => string; withIcons?: boolean }) {
  const { t } = useTranslation('shell');
  const locale = useLocale();
  const prefetch = usePrefetch();
  return (
    <>
      {MAIN_NAV.map((item) => (
        <li key={item.id}>
          <NavLink to={localePath(locale, item.to)} end={item.end ?? false} prefetch={prefetch} className={({ isActive }) => linkClass(isActive)}>
            {withIcons ? (
              <>
                <item.icon className="size-5" aria-hidden />
                <span>{t(item.labelKey)}</span>
              </>
            ) : (
              t(item.labelKey)
            )}
          </NavLink>
        </li>
      ))}
    </>
  );
}
