import { useTranslation } from '../i18n/translation.tsx';
import { useSession } from '../features/accounts/use-session.ts';
import { Avatar } from '../ui/avatar.tsx';
import { cn } from '../ui/cn.ts';
import { deferred } from '../ui/deferred.tsx';
import { focusRing } from '../ui/focus.ts';
import { useMenuState } from './use-menu-state.ts';
import { useDisplayName } from './user-summary.tsx';

const UserMenuPanel = deferred(async () => (await import('./user-menu-panel.tsx')).default);

/** Desktop avatar menu, a popover (spec section 2); its code loads when the visitor reaches for it (decision 066). */
export function UserMenuPopover() {
  const { t } = useTranslation('shell');
  const session = useSession();
  const name = useDisplayName();
  const [open, setOpen] = useMenuState();
  return (
    <UserMenuPanel
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button
          type="button"
          // The name shown beside the avatar (wide screens) leads the accessible name (WCAG 2.5.3).
          aria-label={t('userMenu.openNamed', { name })}
          aria-haspopup="dialog"
          aria-expanded={open}
          data-testid="user-menu-trigger"
          className={cn(
            'ml-1 flex cursor-pointer items-center gap-2 rounded-full p-0.5 transition-shadow hover:ring-2 hover:ring-zinc-200 lg:pr-3 dark:hover:ring-zinc-700',
            focusRing,
          )}
        >
          <Avatar src={session.userInfo?.avatar} />
          {/* Who is signed in, filled in once the page runs (decision 066): a fixed width, so a name moves nothing. Wide screens only.
              A longer name ends in an ellipsis; the whole of it is in the tooltip and the button's name. */}
          <span className="hidden w-32 truncate text-left text-sm font-medium lg:inline-block" title={name} data-testid="header-user-name">
            {name}
          </span>
        </button>
      }
    />
  );
}
