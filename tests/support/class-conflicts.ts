import { twMerge } from 'tailwind-merge';

/**
 * The class lists on a page whose Tailwind utilities contradict each other (`px-3 px-2`,
 * `size-8 size-16`), with the classes that would lose. The browser code joins class names without
 * resolving conflicts (decision 078: tailwind-merge's start-up cost on a phone), so components
 * offer variants instead of overrides, and tailwind-merge, here only, finds any list that
 * relies on an override.
 */
export function conflictingClassLists(classLists: Iterable<string>): string[] {
  const conflicts: string[] = [];
  for (const list of new Set(classLists)) {
    const classes = list.split(/\s+/).filter(Boolean);
    const kept = new Set(twMerge(classes.join(' ')).split(' '));
    const losing = classes.filter((name) => !kept.has(name));
    if (losing.length > 0) conflicts.push(`${losing.join(' ')} (in "${classes.join(' ')}")`);
  }
  return conflicts;
}
