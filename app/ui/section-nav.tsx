import { NavLink } from 'react-router';
import { cn } from './cn.ts';
import { focusRing } from './focus.ts';

export interface SectionNavItem {
  to: string;
  label: string;
  /** Match the path exactly (an index page), not also the pages below it. */
  end?: boolean;
}

/**
 * A row of links between the pages of one area (the Studio, the Console, a game in the Studio). It
 * scrolls sideways on a narrow phone rather than wrapping; the current page is marked for screen
 * readers too (`aria-current`, set by NavLink).
 */
export function SectionNav({ label, items }: { label: string; items: SectionNavItem[] }) {
  return (
    <nav aria-label={label} className="-mx-4 overflow-x-auto px-4">
      <ul className="flex min-w-max gap-1 border-b border-zinc-200 dark:border-zinc-800">
        {items.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.end}
              className={({ isActive }) =>
                cn(
                  '-mb-px inline-flex items-center border-b-2 px-3 py-2 text-sm font-medium',
                  isActive
                    ? 'border-green-600 text-zinc-900 dark:border-green-500 dark:text-zinc-50'
                    : 'border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
                  focusRing,
                )
              }
            >
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
