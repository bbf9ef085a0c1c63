import { type KeyboardEvent, useRef } from 'react';
import { Link } from 'react-router';
import { cn } from './cn.ts';
import { focusRing } from './focus.ts';

const SELECTED = 'bg-white font-medium text-zinc-900 shadow-sm dark:bg-zinc-950 dark:text-zinc-50';

type Choice<T extends string | number> = {
  options: readonly T[];
  selected: T;
  optionLabel: (value: T) => string;
  /** Smaller segments on a tinted card (a leaderboard's periods). */
  compact?: boolean;
};

/**
 * A choice of one among a few, as a row of segments, in one of two kinds: `links`, a navigation
 * where each option is an address of its own (the Studio statistics' range; `aria-current` marks
 * the chosen one, and it works before scripts run); `tabs`, WAI-ARIA tabs that switch a panel
 * in place (a leaderboard's periods; arrow keys, Home and End move between them).
 */
export function SegmentChoice<T extends string | number>(
  props: Choice<T> &
    (
      | { kind: 'links'; label: string; href: (value: T) => string }
      | {
          kind: 'tabs';
          /** The id of what names the tabs. */
          labelledBy: string;
          /** Tab ids are `{idBase}-tab-{value}`; they control `{idBase}-panel`. */
          idBase: string;
          onSelect: (value: T) => void;
        }
    ),
) {
  const { options, selected, optionLabel, compact = false } = props;
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  const segment = (value: T) =>
    cn(
      compact ? 'rounded-md px-2.5 py-1 text-sm' : 'flex min-h-9 items-center rounded-lg px-3 text-sm whitespace-nowrap',
      // The chosen segment's colours replace the others' (no two text colours on one element, decision 078).
      value === selected
        ? SELECTED
        : compact
          ? 'text-zinc-700 dark:text-zinc-300'
          : 'text-zinc-600 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-zinc-50',
      focusRing,
    );
  const frame = compact ? 'flex gap-1 rounded-lg bg-zinc-200/60 p-1 dark:bg-zinc-800' : 'inline-flex gap-1 rounded-xl bg-zinc-100 p-1 dark:bg-zinc-800';

  if (props.kind === 'links')
    return (
      <nav aria-label={props.label}>
        <ul className={frame}>
          {options.map((value) => (
            <li key={value}>
              <Link to={props.href(value)} preventScrollReset aria-current={value === selected ? 'page' : undefined} className={segment(value)}>
                {optionLabel(value)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    );

  const { idBase, onSelect } = props;
  const onKeyDown = (event: KeyboardEvent) => {
    const i = options.indexOf(selected);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: options.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const index = (next + options.length) % options.length;
    onSelect(options[index]!);
    tabs.current[index]?.focus();
  };
  return (
    <div role="tablist" aria-labelledby={props.labelledBy} className={frame}>
      {options.map((value, i) => (
        <button
          key={value}
          ref={(el) => {
            tabs.current[i] = el;
          }}
          type="button"
          role="tab"
          id={`${idBase}-tab-${value}`}
          aria-selected={value === selected}
          aria-controls={`${idBase}-panel`}
          tabIndex={value === selected ? 0 : -1}
          onClick={() => onSelect(value)}
          onKeyDown={onKeyDown}
          className={segment(value)}
        >
          {optionLabel(value)}
        </button>
      ))}
    </div>
  );
}
