import { useTranslation } from '../i18n/translation.tsx';
import { HeaderAccount } from '../features/accounts/header-account.tsx';
import { HeaderSearch } from '../features/catalogue/header-search.tsx';
import { cn } from '../ui/cn.ts';
import { focusRing } from '../ui/focus.ts';
import { ColorModeButton } from './color-mode-button.tsx';
import { InstallButtonSlot } from './install-button-slot.tsx';
import { LanguageSelector } from './language-selector.tsx';
import { Logo } from './logo.tsx';
import { MainNavLinks } from './main-nav-links.tsx';
import { UserDrawer } from './user-drawer.tsx';
import { UserMenuPopover } from './user-menu.tsx';

/** The top bar. From 768 px: links, language, colour mode and the avatar popover; below: the drawer trigger. */
export function SiteHeader({ productName }: { productName: string }) {
  const { t } = useTranslation('shell');
  return (
    <header
      data-testid="site-header"
      className="sticky top-0 z-40 border-b border-zinc-200 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75 dark:border-zinc-800 dark:bg-zinc-950/90 dark:supports-[backdrop-filter]:bg-zinc-950/75"
    >
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-2 px-4 md:gap-6">
        <Logo productName={productName} />
        <nav aria-label={t('nav.main')} className="hidden md:block" data-testid="header-nav">
          <ul className="flex items-center gap-1">
            <MainNavLinks
              linkClass={(isActive) =>
                cn(
                  'rounded-lg px-3 py-2 text-sm transition-colors',
                  isActive
                    ? 'font-medium text-green-700 dark:text-green-400'
                    : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-zinc-50',
                  focusRing,
                )
              }
            />
          </ul>
        </nav>
        <div className="flex min-w-0 flex-1 items-center justify-end gap-1">
          <HeaderSearch />
          <HeaderAccount />
          <div className="hidden items-center gap-1 md:flex">
            <InstallButtonSlot />
            <LanguageSelector />
            <ColorModeButton />
            <UserMenuPopover />
          </div>
          <div className="flex items-center md:hidden">
            <UserDrawer />
          </div>
        </div>
      </div>
    </header>
  );
}
