import { useTranslation } from '../../i18n/translation.tsx';
import { Link, useLocation } from 'react-router';
import type { AppSort } from '#common/api/catalogue.schema.ts';
import { focusRing } from '../../ui/focus.ts';
import { cn } from '../../ui/cn.ts';

const SORTS: AppSort[] = ['popular', 'newest', 'name'];

/** The list's order as a row of links (they work without scripts); changing it starts again at the first page. */
export function SortTabs({ current }: { current: AppSort }) {
  const { t } = useTranslation('catalogue');
  const location = useLocation();
  const hrefFor = (sort: AppSort) => {
    const params = new URLSearchParams(location.search);
    params.delete('cursor');
    if (sort === 'popular') params.delete('sort');
    else params.set('sort', sort);
    const query = params.toString();
    return `${location.pathname}${query ? `?${query}` : ''}`;
  };
  return (
    <nav aria-label={t('list.sortLabel')} className="inline-flex rounded-lg bg-zinc-100 p-1 dark:bg-zinc-900" data-testid="sort-tabs">
      {SORTS.map((sort) => (
        <Link
          key={sort}
          to={hrefFor(sort)}
          preventScrollReset
          replace
          aria-current={sort === current ? 'true' : undefined}
          className={cn(
            'rounded-md px-3 py-1.5 text-sm font-medium text-zinc-600 transition-colors hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
            'aria-[current=true]:bg-white aria-[current=true]:text-zinc-900 aria-[current=true]:shadow-sm dark:aria-[current=true]:bg-zinc-700 dark:aria-[current=true]:text-white',
            focusRing,
          )}
        >
          {t(`list.sort.${sort}`)}
        </Link>
      ))}
    </nav>
  );
}
