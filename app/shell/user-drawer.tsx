import { useTranslation } from '../i18n/translation.tsx';
import { useSession } from '../features/accounts/use-session.ts';
import { Avatar } from '../ui/avatar.tsx';
import { cn } from '../ui/cn.ts';
import { deferred } from '../ui/deferred.tsx';
import { focusRing } from '../ui/focus.ts';
import { useMenuState } from './use-menu-state.ts';

const UserDrawerPanel = deferred(async () => (await import('./user-drawer-panel.tsx')).default);

/** Mobile user menu: a sheet that slides up; its code loads when the visitor reaches for it (decision 066). */
export function UserDrawer() {
  const { t } = useTranslation('shell');
  const session = useSession();
  const [open, setOpen] = useMenuState();
  return (
    <UserDrawerPanel
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button
          type="button"
          aria-label={t('userMenu.open')}
          aria-haspopup="dialog"
          aria-expanded={open}
          data-testid="user-drawer-trigger"
          className={cn('flex cursor-pointer items-center rounded-full p-0.5', focusRing)}
        >
          <Avatar src={session.userInfo?.avatar} />
        </button>
      }
    />
  );
}
