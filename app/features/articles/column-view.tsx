import { Rss } from 'lucide-react';
import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from '../../i18n/translation.tsx';
import { Link } from 'react-router';
import type { ArticleSummary } from '#common/api/articles.schema.ts';
import { ARTICLE_PAGE_SIZE } from '#common/constants.ts';
import { localePath } from '#common/locales.ts';
import { api } from '../../lib/api-client.ts';
import { buttonVariants } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { ArticleCard } from './article-card.tsx';
import { feedPath } from './article-meta.ts';
import type { ColumnPageData } from './page-data.ts';

/**
 * A column or sub-column: its title and description, tabs for the sections of its column, and
 * its articles. The first page comes with the HTML; "load more" asks the API for the next ones
 * (and is a plain link to the next page when scripts are off).
 */
export function ColumnView({ data }: { data: ColumnPageData }) {
  const { t } = useTranslation('articles');
  const { column, section, locale } = data;
  const [extra, setExtra] = useState<ArticleSummary[]>([]);
  const [cursor, setCursor] = useState(data.list.nextCursor);
  const [status, setStatus] = useState<'idle' | 'loading' | 'error'>('idle');
  const listRef = useRef<HTMLUListElement>(null);
  const items = [...data.list.items, ...extra];

  async function loadMore(event: React.MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    if (!cursor || status === 'loading') return;
    setStatus('loading');
    try {
      const { data: page } = await api.get(`/article/list/${column.slug}`, { query: { cursor, limit: ARTICLE_PAGE_SIZE } });
      flushSync(() => {
        setExtra((current) => [...current, ...page.items]);
        setCursor(page.nextCursor);
        setStatus('idle');
      });
      // Keyboard and screen-reader users continue at the first article that arrived.
      const first = page.items[0];
      if (first) listRef.current?.querySelector<HTMLElement>(`[data-id="${first.id}"] [data-testid="article-link"]`)?.focus();
    } catch {
      setStatus('error');
    }
  }

  const tabs = [
    { slug: section.slug, title: t('list.all'), path: section.path },
    ...section.children.map((c) => ({ ...c, path: `${section.path}/${c.slug}` })),
  ];
  return (
    <div className="mx-auto max-w-6xl">
      <header className="max-w-3xl">
        {column.parent && (
          <nav aria-label={t('article.breadcrumb')} className="mb-2 text-sm text-zinc-600 dark:text-zinc-400">
            <Link to={localePath(locale, section.path)} className={cn('rounded-sm hover:text-green-700 hover:underline dark:hover:text-green-400', focusRing)}>
              {section.title}
            </Link>
          </nav>
        )}
        <h1 className="text-3xl font-bold tracking-tight text-zinc-900 sm:text-4xl dark:text-zinc-50">{column.title}</h1>
        {column.description && <p className="mt-3 text-base leading-7 text-zinc-700 sm:text-lg dark:text-zinc-300">{column.description}</p>}
        <a
          href={feedPath(column.slug, locale)}
          className={cn(
            'mt-3 inline-flex items-center gap-1.5 rounded-sm text-sm text-zinc-600 hover:text-green-700 dark:text-zinc-400 dark:hover:text-green-400',
            focusRing,
          )}
        >
          <Rss aria-hidden="true" className="size-4" />
          {t('list.feed')}
        </a>
      </header>

      {section.children.length > 0 && (
        <nav aria-label={t('list.subColumns')} className="-mx-4 mt-6 overflow-x-auto px-4">
          <ul className="flex w-max gap-2 border-b border-zinc-200 dark:border-zinc-800">
            {tabs.map((tab) => {
              const current = tab.slug === column.slug;
              return (
                <li key={tab.slug}>
                  <Link
                    to={localePath(locale, tab.path)}
                    aria-current={current ? 'page' : undefined}
                    className={cn(
                      '-mb-px inline-block rounded-t-md border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap',
                      current
                        ? 'border-green-600 text-green-800 dark:border-green-400 dark:text-green-300'
                        : 'border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900 dark:text-zinc-400 dark:hover:border-zinc-600 dark:hover:text-zinc-100',
                      focusRing,
                    )}
                  >
                    {tab.title}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      )}

      {items.length === 0 ? (
        <p className="mt-10 text-zinc-600 dark:text-zinc-400">{t('list.empty')}</p>
      ) : (
        <ul ref={listRef} className="mt-8 grid grid-cols-1 gap-x-6 gap-y-10 sm:grid-cols-2 lg:grid-cols-3" data-testid="article-list">
          {items.map((article, index) => (
            <li key={article.id}>
              <ArticleCard article={article} locale={locale} dateLabel={data.dateLabels[article.publishedAt]} eager={index < 3 && extra.length === 0} />
            </li>
          ))}
        </ul>
      )}

      <div className="mt-10 flex flex-col items-center gap-3">
        {cursor && (
          <a
            href={`${localePath(locale, column.path)}?cursor=${encodeURIComponent(cursor)}`}
            onClick={loadMore}
            aria-disabled={status === 'loading' || undefined}
            className={cn(buttonVariants({ variant: 'secondary' }), 'min-w-40', status === 'loading' && 'opacity-60')}
            data-testid="load-more"
          >
            {status === 'loading' ? t('list.loading') : t('list.loadMore')}
          </a>
        )}
        <output className="block text-sm text-red-700 dark:text-red-400">{status === 'error' ? t('list.loadFailed') : ''}</output>
      </div>
    </div>
  );
}
