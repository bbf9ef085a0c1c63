import { useTranslation } from '../i18n/translation.tsx';
import { cn } from '../ui/cn.ts';
import { MainNavLinks } from './main-nav-links.tsx';

/** Mobile navigation below 768 px: home, categories, news, my area. */
export function BottomBar() {
  const { t } = useTranslation('shell');
  return (
    <nav
      aria-label={t('nav.main')}
      data-testid="bottom-bar"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-zinc-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden dark:border-zinc-800 dark:bg-zinc-950/95"
    >
      <ul className="mx-auto grid max-w-lg grid-cols-4">
        <MainNavLinks
          withIcons
          linkClass={(isActive) =>
            cn(
              'flex h-16 flex-col items-center justify-center gap-1 text-xs outline-none focus-visible:bg-zinc-100 focus-visible:underline dark:focus-visible:bg-zinc-800',
              isActive ? 'font-medium text-green-700 dark:text-green-400' : 'text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
            )
          }
        />
      </ul>
    </nav>
  );
}
