import { useTranslation } from 'react-i18next';
import { useSession } from '../features/accounts/use-session.ts';
import { Avatar } from '../ui/avatar.tsx';
import { cn } from '../ui/cn.ts';
import { focusRing } from '../ui/focus.ts';
import { Popover, PopoverContent, PopoverTrigger } from '../ui/popover.tsx';
import { userMenuItems } from './menu-items.ts';
import { MenuList } from './menu-list.tsx';
import { useMenuState } from './use-menu-state.ts';
import { UserSummary, useDisplayName } from './user-summary.tsx';

/** Desktop avatar menu, a popover (spec section 2). */
export function UserMenuPopover() {
  const { t } = useTranslation('shell');
  const session = useSession();
  const name = useDisplayName();
  const [open, setOpen] = useMenuState();
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger
        aria-label={t('userMenu.open')}
        data-testid="user-menu-trigger"
        className={cn('ml-1 flex cursor-pointer items-center gap-2 rounded-full p-0.5 transition-shadow hover:ring-2 hover:ring-zinc-200 lg:pr-3 dark:hover:ring-zinc-700', focusRing)}
      >
        <Avatar src={session.userInfo?.avatar} />
        {/* Who is signed in, filled in once the page runs (decision 066): a fixed width, so a name moves nothing. Wide screens only. */}
        <span className="hidden w-28 truncate text-left text-sm font-medium lg:inline-block" data-testid="header-user-name">
          {name}
        </span>
      </PopoverTrigger>
      <PopoverContent aria-label={t('userMenu.title')} data-testid="user-menu">
        <UserSummary />
        <div className="my-1 h-px bg-zinc-200 dark:bg-zinc-800" />
        <nav aria-label={t('userMenu.title')}>
          <MenuList items={userMenuItems(session)} testId="user-menu-items" onNavigate={() => setOpen(false)} />
        </nav>
      </PopoverContent>
    </Popover>
  );
}
