import { useState } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import { Link, useFetcher, useLocation } from 'react-router';
import type { AppSummary } from '#common/api/catalogue.schema.ts';
import type { Locale } from '#common/locales.ts';
import { buttonVariants } from '../../ui/button.tsx';
import { AppGrid } from './app-grid.tsx';

/** One page of a list as a loader returns it: the cursor it started at, its items, the next cursor. */
export interface AppPage {
  cursor: string | null;
  items: AppSummary[];
  nextCursor: string | null;
}

/**
 * A grid whose first page is server-rendered and which grows by "Load more". Without scripts
 * the button is a plain link to the next page; with them it loads the next page through the
 * route's own loader and appends it.
 */
/** `first` must be the loader's own object (its identity changing means a new list); the loader returns it as `page`. */
export function PagedAppGrid({ first, locale, label }: { first: AppPage; locale: Locale; label?: string }) {
  const { t } = useTranslation('catalogue');
  const location = useLocation();
  const fetcher = useFetcher<{ page: AppPage }>();
  // Pages appended to this first page. A new first page (another category, order or search) starts again.
  const [appended, setAppended] = useState<{ first: AppPage; pages: AppPage[] }>({ first, pages: [] });
  const more = appended.first === first ? appended.pages : [];
  const last = more.at(-1) ?? first;
  // A page the fetcher brought is added during render (no effect round trip), once, and only
  // when it continues this list: its cursor is the next cursor of the last page shown.
  const arrived = fetcher.state === 'idle' ? fetcher.data?.page : undefined;
  if (arrived && arrived.cursor !== null && arrived.cursor === last.nextCursor) {
    setAppended({ first, pages: [...more, arrived] });
  }
  const announcement = more.length > 0 ? t('list.loaded', { count: more.at(-1)!.items.length }) : '';

  const pages = [first, ...more];
  const seen = new Set<number>();
  // Popularity can change between two pages; never show a tile twice.
  const items = pages.flatMap((p) => p.items).filter((app) => !seen.has(app.id) && seen.add(app.id));
  const nextCursor = last.nextCursor;
  const nextHref = (() => {
    const params = new URLSearchParams(location.search);
    if (nextCursor) params.set('cursor', nextCursor);
    return `${location.pathname}?${params.toString()}`;
  })();
  const loading = fetcher.state !== 'idle';

  if (items.length === 0) return <p className="py-10 text-center text-zinc-600 dark:text-zinc-400">{t('list.empty')}</p>;
  return (
    <div className="space-y-6">
      {first.cursor && (
        <Link to={location.pathname + stripCursor(location.search)} className="text-sm font-medium text-green-700 hover:underline dark:text-green-400">
          {t('list.firstPage')}
        </Link>
      )}
      <AppGrid apps={items} locale={locale} label={label} prioritise={!first.cursor} />
      <div className="flex flex-col items-center gap-2">
        {nextCursor ? (
          <Link
            to={nextHref}
            className={buttonVariants({ variant: 'secondary' })}
            aria-disabled={loading}
            onClick={(event) => {
              event.preventDefault();
              if (!loading) fetcher.load(nextHref);
            }}
            data-testid="load-more"
          >
            {loading ? t('list.loading') : t('list.loadMore')}
          </Link>
        ) : (
          more.length > 0 && <p className="text-sm text-zinc-500 dark:text-zinc-400">{t('list.end')}</p>
        )}
        <p className="sr-only" aria-live="polite">
          {announcement}
        </p>
      </div>
    </div>
  );
}

function stripCursor(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('cursor');
  const query = params.toString();
  return query ? `?${query}` : '';
}
