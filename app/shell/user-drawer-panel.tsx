import { useTranslation } from '../i18n/translation.tsx';
import { Link } from 'react-router';
import { isLocale, localePath, LOCALES } from '#common/locales.ts';
import { useSession } from '../features/accounts/use-session.ts';
import { useWorkspaces } from '../features/accounts/use-workspaces.ts';
import { InstallDrawerOffer } from '../features/install/install-button.tsx';
import type { DeferredWidgetProps } from '../ui/deferred.tsx';
import { Drawer, DrawerContent, DrawerDescription, DrawerTitle, DrawerTrigger } from '../ui/drawer.tsx';
import { Segmented, SegmentedItem } from '../ui/segmented.tsx';
import { type ColorMode, COLOR_MODES, useColorMode } from './color-mode.ts';
import { COLOR_MODE_ICONS } from './color-mode-icons.ts';
import { useLanguageChoice } from './language-selector.tsx';
import { DEVELOPERS_PAGE, userMenuItems } from './menu-items.ts';
import { cn } from '../ui/cn.ts';
import { focusRing } from '../ui/focus.ts';
import { MenuList } from './menu-list.tsx';
import { workspaceItems } from './workspace-items.ts';
import { UserSummary } from './user-summary.tsx';

/** Spec section 9: the drawer animates for 0.5 s (vaul's own duration) and closes when dragged past 25 %. */
const DRAWER_CLOSE_THRESHOLD = 0.25;
const DRAWER_SCROLL_LOCK_MS = 100;

/** The mobile user menu's sheet, loaded when wanted (user-drawer.tsx): it slides up, with the language and colour mode at hand. */
export default function UserDrawerPanel({ open, onOpenChange: setOpen, trigger }: DeferredWidgetProps) {
  const { t } = useTranslation('shell');
  const session = useSession();
  const { mode, setMode } = useColorMode();
  const { locale, choose, pending } = useLanguageChoice();
  return (
    <Drawer open={open} onOpenChange={setOpen} closeThreshold={DRAWER_CLOSE_THRESHOLD} scrollLockTimeout={DRAWER_SCROLL_LOCK_MS}>
      <DrawerTrigger asChild>{trigger}</DrawerTrigger>
      <DrawerContent data-testid="user-drawer">
        <div className="overflow-y-auto px-4 pt-2 pb-6">
          <DrawerTitle className="sr-only">{t('userMenu.title')}</DrawerTitle>
          <DrawerDescription className="sr-only">{t('userMenu.description')}</DrawerDescription>
          <UserSummary />
          <nav aria-label={t('userMenu.title')} className="mt-2">
            <MenuList items={userMenuItems(session, workspaceItems(useWorkspaces()))} testId="user-menu-items" onNavigate={() => setOpen(false)} />
          </nav>
          <InstallDrawerOffer onInstall={() => setOpen(false)} />
          <section aria-labelledby="drawer-preferences" className="mt-4 border-t border-zinc-200 pt-4 dark:border-zinc-800">
            <h2 id="drawer-preferences" className="px-2 text-xs font-medium tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
              {t('userMenu.preferences')}
            </h2>
            <p id="drawer-language" className="mt-3 px-2 text-sm font-medium">
              {t('language.label')}
            </p>
            <Segmented
              aria-labelledby="drawer-language"
              className="mt-2"
              value={locale}
              onValueChange={(value) => isLocale(value) && void choose(value)}
              disabled={pending !== null}
            >
              {LOCALES.map((l) => (
                <SegmentedItem key={l.code} value={l.code} lang={l.language}>
                  {l.name}
                </SegmentedItem>
              ))}
            </Segmented>
            <p id="drawer-appearance" className="mt-4 px-2 text-sm font-medium">
              {t('colorMode.label')}
            </p>
            <Segmented aria-labelledby="drawer-appearance" className="mt-2" value={mode ?? ''} onValueChange={(value) => setMode(value as ColorMode)}>
              {COLOR_MODES.map((m) => {
                const Icon = COLOR_MODE_ICONS[m];
                return (
                  <SegmentedItem key={m} value={m} icon={<Icon className="max-[359px]:hidden" aria-hidden />}>
                    {t(`colorMode.${m}`)}
                  </SegmentedItem>
                );
              })}
            </Segmented>
          </section>
          {/* The phone has no footer: the developers' page is reached from here (decision 120). */}
          <p className="mt-4 border-t border-zinc-200 px-2 pt-4 text-sm dark:border-zinc-800">
            <Link
              to={localePath(locale, DEVELOPERS_PAGE)}
              onClick={() => setOpen(false)}
              className={cn('rounded text-zinc-600 hover:text-zinc-900 hover:underline dark:text-zinc-400 dark:hover:text-zinc-100', focusRing)}
            >
              {t('footer.developers')}
            </Link>
          </p>
        </div>
      </DrawerContent>
    </Drawer>
  );
}
