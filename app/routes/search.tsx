import { Search } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../i18n/translation.tsx';
import { Form, Link, useNavigate, useNavigation } from 'react-router';
import { AppTypeSchema, SlugSchema } from '#common/api/catalogue.schema.ts';
import { localePath } from '#common/locales.ts';
import { appContext } from '../context.ts';
import { SEARCH_DEBOUNCE_MS } from '../features/catalogue/header-search.tsx';
import { listParams, loadPage, PAGE_SIZE } from '../features/catalogue/list-params.ts';
import { PagedAppGrid } from '../features/catalogue/paged-app-grid.tsx';
import { SortTabs } from '../features/catalogue/sort-tabs.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { orPageNotFound } from '../lib/route-errors.ts';
import { pageTitle } from '../lib/meta.ts';
import { cn } from '../ui/cn.ts';
import { focusRing } from '../ui/focus.ts';
import type { Route } from './+types/search';

/** The longest search text (the API's limit); longer input is cut rather than refused. */
const MAX_QUERY = 100;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { locale, t } = loaderT(request);
  const url = new URL(request.url);
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, MAX_QUERY);
  const tagParam = SlugSchema.safeParse(url.searchParams.get('tag') ?? undefined);
  const typeParam = AppTypeSchema.safeParse(url.searchParams.get('type') ?? undefined);
  const { sort, cursor } = listParams(url);
  const { services } = context.get(appContext);
  const tags = (await services.catalogue.tags(locale)).filter((tag) => tag.count > 0);
  const tag = tagParam.success ? (tags.find((item) => item.slug === tagParam.data) ?? null) : null;
  const filter = { ...(q ? { q } : {}), ...(tagParam.success ? { tag: tagParam.data } : {}), ...(typeParam.success ? { type: typeParam.data } : {}) };
  const searching = Object.keys(filter).length > 0;
  const page = searching
    ? await orPageNotFound(
        request,
        loadPage(url, cursor, () => services.catalogue.list(locale, { sort, limit: PAGE_SIZE, cursor, ...filter })),
      )
    : null;
  const heading = q ? t('catalogue:search.resultsFor', { q }) : tag ? t('catalogue:search.taggedWith', { tag: tag.title }) : t('catalogue:search.heading');
  return { locale, q, tag, tags, sort, page, heading, title: q || tag?.title || t('catalogue:search.heading') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  pageTitle(matches, loaderData?.title ?? ''),
  // Result pages change all the time and are many: keep them out of search engines.
  { name: 'robots', content: 'noindex, follow' },
];

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('catalogue');
  const { locale, q, tag, tags, sort, page, heading } = loaderData;
  const navigate = useNavigate();
  const navigation = useNavigation();
  // What the visitor typed, kept apart from `q`: results for an earlier text that arrive while
  // they type must never overwrite the keys typed since (a slow connection lost them). Only a
  // search this box did not send (the header box, the back button) replaces the draft.
  const [draft, setDraft] = useState<string | null>(null);
  const sent = useRef<string[]>([]);
  const text = draft ?? q;

  useEffect(() => {
    const index = sent.current.indexOf(q);
    if (index === -1) {
      sent.current = [];
      setDraft(null);
    } else {
      // Answers for texts sent before this one will not come (each navigation cancels the last).
      sent.current = sent.current.slice(index);
    }
  }, [q]);

  // Results follow the text as it is typed; each new navigation cancels the one in flight.
  useEffect(() => {
    if (draft === null) return;
    const next = draft.trim();
    if (next === (sent.current.at(-1) ?? q)) return;
    const timer = setTimeout(() => {
      sent.current.push(next);
      const params = new URLSearchParams();
      if (next) params.set('q', next);
      if (tag) params.set('tag', tag.slug);
      void navigate(`${localePath(locale, '/search')}${params.size ? `?${params}` : ''}`, { replace: true, preventScrollReset: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, q, tag, locale, navigate]);

  const busy = navigation.state === 'loading' && navigation.location.pathname.endsWith('/search');
  return (
    <div className="space-y-6">
      <header className="space-y-4">
        <h1 id="search-heading" className="text-2xl font-semibold tracking-tight" data-testid="search-heading">
          {heading}
        </h1>
        <search className="block max-w-xl">
          <Form method="get" className="relative" onSubmit={() => sent.current.push(text.trim())}>
            <label htmlFor="search-page-input" className="sr-only">
              {t('search.label')}
            </label>
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-zinc-500" />
            <input
              id="search-page-input"
              name="q"
              type="search"
              value={text}
              maxLength={MAX_QUERY}
              autoComplete="off"
              enterKeyHint="search"
              placeholder={t('search.placeholder')}
              onChange={(event) => setDraft(event.target.value)}
              className={cn(
                'h-12 w-full rounded-xl border border-zinc-300 bg-white pr-4 pl-11 text-base text-zinc-900 placeholder:text-zinc-500',
                'dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400',
                focusRing,
              )}
              data-testid="search-page-input"
            />
            {tag && <input type="hidden" name="tag" value={tag.slug} />}
          </Form>
        </search>
      </header>

      {page && (
        // A plain block, not a section named by the page's heading: that region would repeat the main landmark and hold no heading of its own.
        <div aria-busy={busy} className={cn('space-y-4 transition-opacity', busy && 'opacity-60')}>
          <div className="flex flex-wrap items-center justify-end gap-3">
            <SortTabs current={sort} />
          </div>
          {page.items.length === 0 && !page.cursor ? (
            <div className="rounded-xl border border-dashed border-zinc-300 p-8 text-center dark:border-zinc-700" data-testid="no-results">
              <p className="font-medium">{t('search.noResults', { q: q || tag?.title || '' })}</p>
              <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('search.noResultsHint')}</p>
            </div>
          ) : (
            <PagedAppGrid first={page} locale={locale} label={heading} />
          )}
        </div>
      )}

      <section aria-labelledby="tags-heading" className="space-y-3">
        <h2 id="tags-heading" className="text-lg font-semibold tracking-tight">
          {t('search.browseTags')}
        </h2>
        <ul className="flex flex-wrap gap-2" data-testid="tag-list">
          {tags.map((item) => (
            <li key={item.slug}>
              <Link
                to={localePath(locale, `/search?tag=${item.slug}`)}
                aria-current={item.slug === tag?.slug ? 'page' : undefined}
                className={cn(
                  'group inline-flex items-center gap-1.5 rounded-full border border-zinc-200 px-3 py-1 text-sm text-zinc-700 hover:border-green-600 hover:text-green-800',
                  'dark:border-zinc-700 dark:text-zinc-300 dark:hover:border-green-500 dark:hover:text-green-300',
                  'aria-[current=page]:border-green-700 aria-[current=page]:bg-green-700 aria-[current=page]:text-white dark:aria-[current=page]:bg-green-500 dark:aria-[current=page]:text-zinc-950',
                  focusRing,
                )}
              >
                #{item.title}
                <span className="text-xs text-zinc-500 group-aria-[current=page]:text-current dark:text-zinc-400">{item.count}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
