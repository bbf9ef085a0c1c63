import { FilePlus2, Pencil } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { ConsoleArticleSummary } from '#common/api/console-content.schema.ts';
import { localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { useLocale } from '../../i18n/use-locale.ts';
import { formatList } from '../../i18n/list-format.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../shell/toast-store.ts';
import { buttonVariants } from '../../ui/button.tsx';
import { messageOf } from '../../ui/form-errors.ts';
import { FIELD_CLASS } from './content-editor.tsx';

const LIST = 'divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800';

/** /console/articles: every article, scheduled ones first, with where each came from. */
export function ConsoleArticleList() {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const [q, setQ] = useState('');
  const [items, setItems] = useState<ConsoleArticleSummary[] | null>(null);
  const [columns, setColumns] = useState<Map<string, string>>(new Map());

  useEffect(() => {
    let active = true;
    const timer = setTimeout(() => {
      api.get('/console/articles/', { query: q.trim() ? { q: q.trim() } : {} }).then(
        ({ data }) => {
          if (!active) return;
          setItems(data.items);
          setColumns(new Map(data.columns.map((column) => [column.slug, column.title])));
        },
        (failure: unknown) => toast.add({ title: messageOf(failure, t('content.editor.failed')), color: 'error' }),
      );
    }, 200);
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [q, t]);

  return (
    <section className="space-y-4" data-testid="console-articles">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold tracking-tight">{t('nav.articles')}</h2>
        <Link to={localePath(locale, '/console/articles/new')} className={buttonVariants({ size: 'sm' })} data-testid="article-new">
          <FilePlus2 className="size-4" aria-hidden />
          {t('content.articles.new')}
        </Link>
      </div>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('content.articles.intro')}</p>
      <label className="flex max-w-md flex-col gap-1 text-sm font-medium">
        {t('content.articles.search')}
        <input type="search" value={q} onChange={(e) => setQ(e.target.value)} className={FIELD_CLASS} />
      </label>
      {items?.length === 0 ? <p className="text-sm">{t('content.articles.empty')}</p> : null}
      <ul className={LIST}>
        {(items ?? []).map((item) => (
          <li key={item.id} className="flex flex-wrap items-center gap-3 px-4 py-3" data-testid="console-article">
            <div className="min-w-48 flex-1">
              <p className="font-medium">{item.title}</p>
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                <span data-testid="article-list-column">{columns.get(item.column) ?? item.column}</span> ·{' '}
                {item.scheduled
                  ? t('content.articles.scheduled', { time: new Date(item.publishedAt).toLocaleString(locale) })
                  : t('content.articles.publishedAt', { time: new Date(item.publishedAt).toLocaleString(locale) })}{' '}
                · {item.source === 'console' ? t('content.articles.fromConsole') : t('content.articles.fromImport')}
                {item.hasChinese ? '' : ` · ${t('content.articles.noChinese')}`}
              </p>
            </div>
            <Link to={localePath(locale, `/console/articles/${item.id}`)} className={buttonVariants({ variant: 'secondary', size: 'sm' })}>
              <Pencil className="size-4" aria-hidden />
              {t('content.articles.edit')}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** /console/pages: the static pages and their languages. */
export function ConsolePageList() {
  const { t } = useTranslation('console');
  const locale = useLocale();
  const [items, setItems] = useState<Array<{
    slug: string;
    title: string;
    source: 'import' | 'console';
    locales: string[];
    publishedAt: string | null;
    scheduled: boolean;
    path: string;
  }> | null>(null);

  useEffect(() => {
    let active = true;
    api.get('/console/pages/').then(
      ({ data }) => active && setItems(data.items),
      (failure: unknown) => toast.add({ title: messageOf(failure, t('content.editor.failed')), color: 'error' }),
    );
    return () => {
      active = false;
    };
  }, [t]);

  return (
    <section className="space-y-4" data-testid="console-pages">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold tracking-tight">{t('nav.pages')}</h2>
        <Link to={localePath(locale, '/console/pages/new')} className={buttonVariants({ size: 'sm' })} data-testid="page-new">
          <FilePlus2 className="size-4" aria-hidden />
          {t('content.pages.new')}
        </Link>
      </div>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('content.pages.intro')}</p>
      <ul className={LIST}>
        {(items ?? []).map((item) => (
          <li key={item.slug} className="flex flex-wrap items-center gap-3 px-4 py-3" data-testid="console-page" data-slug={item.slug}>
            <div className="min-w-48 flex-1">
              <p className="font-medium">{item.title}</p>
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                {item.path} · {formatList(locale, item.locales)} ·{' '}
                {item.source === 'console' ? t('content.articles.fromConsole') : t('content.articles.fromImport')}
                {item.scheduled && item.publishedAt ? ` · ${t('content.articles.scheduled', { time: new Date(item.publishedAt).toLocaleString(locale) })}` : ''}
              </p>
            </div>
            <Link to={localePath(locale, `/console/pages/${item.slug}`)} className={buttonVariants({ variant: 'secondary', size: 'sm' })}>
              <Pencil className="size-4" aria-hidden />
              {t('content.pages.edit')}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
