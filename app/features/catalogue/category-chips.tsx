import { useTranslation } from '../../i18n/translation.tsx';
import { NavLink } from 'react-router';
import type { Category } from '#common/api/catalogue.schema.ts';
import { type Locale, localePath } from '#common/locales.ts';
import { focusRing } from '../../ui/focus.ts';
import { cn } from '../../ui/cn.ts';
import { CategoryIcon } from './category-icon.tsx';

const chip = cn(
  'inline-flex h-9 shrink-0 items-center gap-1.5 rounded-full border px-3.5 text-sm font-medium whitespace-nowrap transition-colors',
  'border-zinc-200 bg-white text-zinc-700 hover:border-green-600 hover:text-green-800',
  'dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200 dark:hover:border-green-500 dark:hover:text-green-300',
  'aria-[current=page]:border-green-700 aria-[current=page]:bg-green-700 aria-[current=page]:text-white',
  'dark:aria-[current=page]:border-green-500 dark:aria-[current=page]:bg-green-500 dark:aria-[current=page]:text-zinc-950',
  focusRing,
);

/** Category links as chips in one line that scrolls sideways; "All" leads to /categories. Empty categories are left out. */
export function CategoryChips({ categories, locale, withAll = true }: { categories: Category[]; locale: Locale; withAll?: boolean }) {
  const { t } = useTranslation('catalogue');
  return (
    <nav aria-label={t('categories.heading')} className="min-w-0" data-testid="category-chips">
      {/* Edge to edge on phones, so that a cut chip shows there are more. */}
      <ul className="-mx-4 -my-1 flex gap-2 overflow-x-auto px-4 py-1 [scrollbar-width:none] md:mx-0 md:flex-wrap md:overflow-visible md:px-0">
        {withAll && (
          <li>
            <NavLink to={localePath(locale, '/categories')} end className={chip}>
              {t('categories.all')}
            </NavLink>
          </li>
        )}
        {categories
          .filter((c) => c.count > 0)
          .map((category) => (
            <li key={category.slug}>
              <NavLink to={localePath(locale, `/categories/${category.slug}`)} className={chip}>
                <CategoryIcon icon={category.icon} slug={category.slug} className="size-4" />
                {category.title}
              </NavLink>
            </li>
          ))}
      </ul>
    </nav>
  );
}
