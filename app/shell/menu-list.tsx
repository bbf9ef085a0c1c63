import { useTranslation } from '../i18n/translation.tsx';
import { NavLink } from 'react-router';
import { localePath } from '#common/locales.ts';
import { cn } from '../ui/cn.ts';
import { focusRing } from '../ui/focus.ts';
import { useLocale } from '../i18n/use-locale.ts';
import type { MenuItem } from './menu-items.ts';
import { usePrefetch } from './use-prefetch.ts';

/** A vertical list of menu links; the current page is marked. */
export function MenuList({
  items,
  testId,
  onNavigate,
  itemClassName,
}: {
  items: readonly MenuItem[];
  testId?: string;
  onNavigate?: () => void;
  /** Classes of an entry's list item (the side menu's reserved profile group shows its passkey entry by the account hint). */
  itemClassName?: (item: MenuItem) => string | undefined;
}) {
  const { t } = useTranslation('shell');
  const locale = useLocale();
  const prefetch = usePrefetch();
  return (
    <ul className="flex flex-col gap-0.5" data-testid={testId}>
      {items.map((item) => (
        <li key={item.id} className={itemClassName?.(item)}>
          <NavLink
            to={localePath(locale, item.to)}
            end={item.end ?? true}
            prefetch={prefetch}
            onClick={onNavigate}
            data-menu-item={item.id}
            className={({ isActive }) =>
              cn(
                'flex items-center gap-3 rounded-lg px-2 py-2 text-sm transition-colors',
                isActive
                  ? 'bg-green-50 font-medium text-green-800 dark:bg-green-950/50 dark:text-green-300'
                  : 'text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-zinc-50',
                focusRing,
              )
            }
          >
            <item.icon className="size-4 shrink-0" aria-hidden />
            <span className="truncate">{t(item.labelKey)}</span>
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
