import { ChevronLeft, ChevronRight, Clock } from 'lucide-react';
import { useTranslation } from '../../i18n/translation.tsx';
import { Link, useRouteLoaderData } from 'react-router';
import { COVER_HEIGHT, COVER_WIDTH } from '#common/constants.ts';
import { localePath } from '#common/locales.ts';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { ArticleBody } from './article-body.tsx';
import { ArticleCard } from './article-card.tsx';
import { formatDate } from '../../lib/format-date.ts';
import type { ArticlePageData } from './page-data.ts';
import { ShareActions } from './share-actions.tsx';

const linkStyle = cn('rounded-sm hover:text-green-700 hover:underline dark:hover:text-green-400', focusRing);

/** An article: where it is filed, title and summary, byline, cover, body, tags, sharing, neighbours and related articles. */
export function ArticleView({ data }: { data: ArticlePageData }) {
  const { t } = useTranslation('articles');
  const { article, locale } = data;
  const origin = useRouteLoaderData<{ publicOrigin: string }>('root')?.publicOrigin ?? '';
  const column = article.trail.at(-1)!;
  const columnPath = `/article/${article.trail.map((c) => c.slug).join('/')}`;
  const url = origin + localePath(locale, article.path);
  // Some bodies open with their cover image; it is then not shown twice.
  const showCover = article.cover !== null && !article.body.trimStart().startsWith(`<p><img src="${article.cover}"`);

  return (
    <article className="mx-auto max-w-3xl" data-testid="article">
      <nav aria-label={t('article.breadcrumb')} className="text-sm text-zinc-600 dark:text-zinc-400">
        <ol className="flex flex-wrap items-center gap-1.5">
          {article.trail.map((c, index) => (
            <li key={c.slug} className="flex items-center gap-1.5">
              {index > 0 && <ChevronRight aria-hidden="true" className="size-3.5" />}
              <Link
                to={localePath(
                  locale,
                  `/article/${article.trail
                    .slice(0, index + 1)
                    .map((x) => x.slug)
                    .join('/')}`,
                )}
                className={linkStyle}
              >
                {c.title}
              </Link>
            </li>
          ))}
        </ol>
      </nav>

      <header className="mt-4">
        <h1 className="text-3xl leading-tight font-bold tracking-tight text-balance text-zinc-900 sm:text-4xl dark:text-zinc-50">{article.title}</h1>
        <p className="mt-4 text-lg leading-8 text-zinc-700 dark:text-zinc-300">{article.summary}</p>
        <p className="mt-4 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-zinc-600 dark:text-zinc-400">
          {article.author && (
            <>
              <span className="font-medium text-zinc-800 dark:text-zinc-200">{t('article.by', { author: article.author })}</span>
              <span aria-hidden="true">·</span>
            </>
          )}
          <time dateTime={article.publishedAt}>{data.dateLabels[article.publishedAt] ?? formatDate(article.publishedAt, locale)}</time>
          <span aria-hidden="true">·</span>
          <span className="inline-flex items-center gap-1" data-testid="reading-time">
            <Clock aria-hidden="true" className="size-4" />
            {t('article.readingTime', { minutes: article.readingMinutes })}
          </span>
        </p>
      </header>

      {showCover && article.cover && (
        <img
          src={article.cover}
          alt=""
          width={COVER_WIDTH}
          height={COVER_HEIGHT}
          decoding="async"
          fetchPriority="high"
          className="mt-8 aspect-[1200/630] h-auto w-full rounded-2xl bg-zinc-100 object-cover dark:bg-zinc-800"
        />
      )}

      {article.locale !== locale && (
        <p
          role="note"
          className="mt-8 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
        >
          {t('article.englishFallback')}
        </p>
      )}

      <div className="mt-8" lang={article.locale === locale ? undefined : 'en'}>
        <ArticleBody html={article.body} />
      </div>

      <footer className="mt-10 max-w-[65ch] space-y-6 border-t border-zinc-200 pt-6 dark:border-zinc-800">
        {article.tags.length > 0 && (
          <div>
            <ul className="flex flex-wrap gap-2" aria-label={t('article.tags')}>
              {article.tags.map((tag) => (
                <li key={tag} className="rounded-full bg-zinc-100 px-3 py-1 text-xs font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
                  #{tag}
                </li>
              ))}
            </ul>
          </div>
        )}
        <ShareActions url={url} title={article.title} summary={article.summary} />
      </footer>

      {(article.previous || article.next) && (
        <nav aria-label={t('article.more')} className="mt-10 grid gap-3 sm:grid-cols-2" data-testid="article-neighbours">
          {article.previous ? (
            <Link
              to={localePath(locale, article.previous.path)}
              rel="prev"
              className={cn('group rounded-xl border border-zinc-200 p-4 hover:border-green-600 dark:border-zinc-800 dark:hover:border-green-500', focusRing)}
            >
              <span className="flex items-center gap-1 text-xs text-zinc-600 dark:text-zinc-400">
                <ChevronLeft aria-hidden="true" className="size-3.5" />
                {t('article.previous')}
              </span>
              <span className="mt-1 block font-medium text-zinc-900 group-hover:text-green-800 dark:text-zinc-100 dark:group-hover:text-green-300">
                {article.previous.title}
              </span>
            </Link>
          ) : (
            <span className="hidden sm:block" />
          )}
          {article.next && (
            <Link
              to={localePath(locale, article.next.path)}
              rel="next"
              className={cn(
                'group rounded-xl border border-zinc-200 p-4 text-right hover:border-green-600 dark:border-zinc-800 dark:hover:border-green-500',
                focusRing,
              )}
            >
              <span className="flex items-center justify-end gap-1 text-xs text-zinc-600 dark:text-zinc-400">
                {t('article.next')}
                <ChevronRight aria-hidden="true" className="size-3.5" />
              </span>
              <span className="mt-1 block font-medium text-zinc-900 group-hover:text-green-800 dark:text-zinc-100 dark:group-hover:text-green-300">
                {article.next.title}
              </span>
            </Link>
          )}
        </nav>
      )}

      {article.related.length > 0 && (
        <section aria-labelledby="related-heading" className="mt-12" data-testid="related-articles">
          <h2 id="related-heading" className="text-xl font-semibold text-zinc-900 dark:text-zinc-50">
            {t('article.related')}
          </h2>
          <ul className="mt-4 grid gap-6 sm:grid-cols-3">
            {article.related.map((related) => (
              <li key={related.id}>
                <ArticleCard article={related} locale={locale} dateLabel={data.dateLabels[related.publishedAt]} compact />
              </li>
            ))}
          </ul>
        </section>
      )}

      <p className="mt-10 text-sm">
        <Link to={localePath(locale, columnPath)} className={cn('text-green-700 dark:text-green-400', linkStyle)}>
          {t('article.backTo', { column: column.title })}
        </Link>
      </p>
    </article>
  );
}
