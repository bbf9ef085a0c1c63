import { useTranslation } from '../i18n/translation.tsx';
import { useSession } from '../features/accounts/use-session.ts';
import { useWorkspaces } from '../features/accounts/use-workspaces.ts';
import type { DeferredWidgetProps } from '../ui/deferred.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../ui/popover.tsx';
import { userMenuItems } from './menu-items.ts';
import { MenuList } from './menu-list.tsx';
import { workspaceItems } from './workspace-items.ts';
import { UserSummary } from './user-summary.tsx';

/** The desktop avatar menu's popover, loaded when wanted (user-menu.tsx). */
export default function UserMenuPanel({ open, onOpenChange, trigger }: DeferredWidgetProps) {
  const { t } = useTranslation('shell');
  const session = useSession();
  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverTrigger asChild>{trigger}</PopoverTrigger>
      <PopoverContent aria-label={t('userMenu.title')} data-testid="user-menu">
        <UserSummary />
        <div className="my-1 h-px bg-zinc-200 dark:bg-zinc-800" />
        <nav aria-label={t('userMenu.title')}>
          <MenuList items={userMenuItems(session, workspaceItems(useWorkspaces()))} testId="user-menu-items" onNavigate={() => onOpenChange(false)} />
        </nav>
      </PopoverContent>
    </Popover>
  );
}
