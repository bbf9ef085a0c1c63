import { useEffect, useRef, useState } from 'react';
import { NavLink } from 'react-router';
import { cn } from './cn.ts';
import { focusRing } from './focus.ts';

export interface SectionNavItem {
  to: string;
  label: string;
  /** Match the path exactly (an index page), not also the pages below it. */
  end?: boolean;
}

/** How the row fades out at an edge where more links are hidden: the sign that it scrolls. */
const FADES = {
  none: '',
  end: '[mask-image:linear-gradient(to_right,black_calc(100%-2.5rem),transparent)]',
  start: '[mask-image:linear-gradient(to_left,black_calc(100%-2.5rem),transparent)]',
  both: '[mask-image:linear-gradient(to_right,transparent,black_2.5rem,black_calc(100%-2.5rem),transparent)]',
} as const;

/**
 * A row of links between the pages of one area (the Studio, the Console, a game in the Studio). It
 * scrolls sideways on a narrow phone rather than wrapping: the current page is scrolled into view,
 * and an edge with more links beyond it fades out (decision 126). The current page is marked for
 * screen readers too (`aria-current`, set by NavLink).
 */
export function SectionNav({ label, items }: { label: string; items: SectionNavItem[] }) {
  const ref = useRef<HTMLElement>(null);
  const [hidden, setHidden] = useState<keyof typeof FADES>('none');
  useEffect(() => {
    const row = ref.current;
    if (!row) return;
    row.querySelector<HTMLElement>('[aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const update = () => {
      const start = row.scrollLeft > 1;
      const end = row.scrollLeft + row.clientWidth < row.scrollWidth - 1;
      setHidden(start && end ? 'both' : start ? 'start' : end ? 'end' : 'none');
    };
    // The observer answers once at once, then on every resize.
    const resized = new ResizeObserver(update);
    resized.observe(row);
    row.addEventListener('scroll', update, { passive: true });
    return () => {
      resized.disconnect();
      row.removeEventListener('scroll', update);
    };
  }, []);
  return (
    <nav ref={ref} aria-label={label} className={cn('-mx-4 overflow-x-auto px-4', FADES[hidden])} data-more={hidden}>
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
