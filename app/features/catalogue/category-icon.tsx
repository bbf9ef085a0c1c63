import { CATEGORY_ICONS, FALLBACK_CATEGORY_ICON } from './category-icon-names.ts';
import spriteUrl from './category-icons.svg?url';

/**
 * The icon of a category, by its icon name or else its slug; a neutral grid when neither is known.
 * Drawn from one cached sprite, so the chips on every page carry no icon code (decision 079).
 */
export function CategoryIcon({ icon, slug, className }: { icon: string | null; slug: string; className?: string }) {
  const name = CATEGORY_ICONS[icon ?? ''] ?? CATEGORY_ICONS[slug] ?? FALLBACK_CATEGORY_ICON;
  return (
    <svg aria-hidden="true" width="24" height="24" className={className} data-icon={name}>
      <use href={`${spriteUrl}#${name}`} />
    </svg>
  );
}
