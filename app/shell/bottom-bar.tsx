import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { localePath } from '#common/locales.ts';
import { cn } from '../ui/cn.ts';
import { useLocale } from '../i18n/use-locale.ts';
import { MAIN_NAV } from './menu-items.ts';
import { usePrefetch } from './use-prefetch.ts';

/** Mobile navigation below 768 px: home, categories, news, my area. */
export function BottomBar() {
  const { t } = useTranslation('shell');
  const locale = useLocale();
  const prefetch = usePrefetch();
  return (
    <nav
      aria-label={t('nav.main')}
      data-testid="bottom-bar"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-zinc-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden dark:border-zinc-800 dark:bg-zinc-950/95"
    >
      <ul className="mx-auto grid max-w-lg grid-cols-4">
        {MAIN_NAV.map((item) => (
          <li key={item.id}>
            <NavLink
              to={localePath(locale, item.to)}
              end={item.end ?? false}
              prefetch={prefetch}
              className={({ isActive }) =>
                cn(
                  'flex h-16 flex-col items-center justify-center gap-1 text-xs outline-none focus-visible:bg-zinc-100 focus-visible:underline dark:focus-visible:bg-zinc-800',
                  isActive ? 'font-medium text-green-700 dark:text-green-400' : 'text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
                )
              }
            >
              <item.icon className="size-5" aria-hidden />
              <span>{t(item.labelKey)}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
