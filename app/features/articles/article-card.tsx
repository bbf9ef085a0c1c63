import { Clock } from 'lucide-react';
import { useTranslation } from '../../i18n/translation.tsx';
import { Link } from 'react-router';
import type { ArticleSummary } from '#common/api/articles.schema.ts';
import { COVER_HEIGHT, COVER_WIDTH } from '#common/constants.ts';
import { type Locale, localePath } from '#common/locales.ts';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { formatDate } from '../../lib/format-date.ts';

/**
 * One article in a list: cover in a fixed 1200×630 box (nothing shifts while it loads), column,
 * date, title, summary. `dateLabel` is the date as the server wrote it; articles loaded later
 * format theirs here.
 */
export function ArticleCard({
  article,
  locale,
  dateLabel,
  eager = false,
  compact = false,
}: {
  article: ArticleSummary;
  locale: Locale;
  dateLabel?: string;
  eager?: boolean;
  compact?: boolean;
}) {
  const { t } = useTranslation('articles');
  // Related articles sit under their own h2, so their titles are one level down.
  const Heading = compact ? 'h3' : 'h2';
  const date = dateLabel || (Number.isNaN(Date.parse(article.publishedAt)) ? '' : formatDate(article.publishedAt, locale));
  return (
    <article className="group flex h-full flex-col" data-testid="article-card" data-id={article.id}>
      <Link to={localePath(locale, article.path)} tabIndex={-1} aria-hidden="true" className="block overflow-hidden rounded-xl bg-zinc-100 dark:bg-zinc-800">
        {article.cover ? (
          <img
            src={article.cover}
            alt=""
            width={COVER_WIDTH}
            height={COVER_HEIGHT}
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
            className="aspect-[1200/630] h-auto w-full object-cover transition-transform duration-200 motion-safe:group-hover:scale-[1.02]"
          />
        ) : (
          <div className="aspect-[1200/630] w-full" />
        )}
      </Link>
      <div className="mt-3 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400" data-testid="article-card-meta">
        <span className="font-medium text-green-700 dark:text-green-400">{article.column.title}</span>
        {/* A separator only between parts that are there: an article may come without a date. */}
        {date && (
          <>
            <span aria-hidden="true">·</span>
            <time dateTime={article.publishedAt}>{date}</time>
          </>
        )}
        <span aria-hidden="true">·</span>
        <span className="inline-flex items-center gap-1">
          <Clock aria-hidden="true" className="size-3.5" />
          {t('article.readingTime', { minutes: article.readingMinutes })}
        </span>
      </div>
      <Heading className={cn('mt-1.5 font-semibold text-zinc-900 dark:text-zinc-50', compact ? 'text-base' : 'text-lg leading-snug')}>
        <Link
          to={localePath(locale, article.path)}
          className={cn('rounded-sm decoration-green-600/60 underline-offset-4 group-hover:underline', focusRing)}
          data-testid="article-link"
        >
          {article.title}
        </Link>
      </Heading>
      {!compact && <p className="mt-1.5 line-clamp-3 text-sm leading-6 text-zinc-700 dark:text-zinc-300">{article.summary}</p>}
    </article>
  );
}
