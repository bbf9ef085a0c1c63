import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../i18n/translation.tsx';
import { PAGE_SLUG_PATTERN, pagePath } from '#common/api/pages.schema.ts';
import { localeDefinition, localeOfPath, stripLocale } from '#common/locales.ts';
import { appContext } from '../context.ts';
import { loaderT } from '../i18n/loader-t.ts';
import { formatDate } from '../lib/format-date.ts';
import { localiseLinks } from '../lib/localise-links.ts';
import { pageTitle } from '../lib/meta.ts';
import { pageNotFound } from '../lib/route-errors.ts';
import type { Route } from './+types/static-page';

const TITLE_KEYS: Record<string, string> = {
  about: 'pages.about',
  terms: 'pages.terms',
  'cookie-policy': 'pages.cookiePolicy',
  'privacy-policy': 'pages.privacyPolicy',
};

/**
 * About, terms, cookie policy and privacy policy at their fixed addresses, and the pages operators
 * create in the Console at /page/<slug> (decision 099): texts from the pages table (GET /page/info/).
 */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { pathname } = url;
  const locale = localeOfPath(pathname);
  const slug = params.slug ?? stripLocale(pathname).replace(/^\/|\/$/g, '');
  // One address per page: the fixed pages are not also under /page/.
  if (params.slug !== undefined && (!PAGE_SLUG_PATTERN.test(slug) || pagePath(slug) !== `/page/${slug}`)) pageNotFound(url);
  const page = await context.get(appContext).services.pages.find(locale, slug);
  if (!page) pageNotFound(url);
  const { t } = loaderT(request);
  const titleKey = TITLE_KEYS[slug];
  const updated = formatDate(page.updatedAt, locale);
  return {
    slug: page.slug,
    lang: localeDefinition(page.locale === 'zh-CN' ? 'zh-CN' : 'en').language,
    /** The document title: the site's name for the page where it has one, else the page's own. */
    documentTitle: titleKey ? t(titleKey) : page.title,
    title: page.title,
    description: page.description,
    bodyHtml: localiseLinks(page.bodyHtml, locale === 'en' ? '' : `/${locale}`),
    updated,
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  pageTitle(matches, loaderData?.documentTitle ?? ''),
  ...(loaderData?.description ? [{ name: 'description', content: loaderData.description }] : []),
];

export default function StaticPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  // Internal links in the rendered Markdown navigate inside the app instead of reloading it.
  const followInternalLink = (event: MouseEvent<HTMLDivElement>) => {
    const link = (event.target as HTMLElement).closest('a');
    const href = link?.getAttribute('href');
    if (!link || !href?.startsWith('/') || href.startsWith('//') || link.target || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate(href);
  };
  return (
    <article className="mx-auto max-w-3xl" lang={loaderData.lang} data-testid="static-page" data-slug={loaderData.slug}>
      <header className="border-b border-zinc-200 pb-6 dark:border-zinc-800">
        <h1 className="text-3xl font-semibold tracking-tight text-balance">{loaderData.title}</h1>
        {loaderData.description ? <p className="mt-3 text-lg text-zinc-600 dark:text-zinc-400">{loaderData.description}</p> : null}
        <p className="mt-3 text-sm text-zinc-500 dark:text-zinc-400">{t('staticPage.updated', { date: loaderData.updated })}</p>
      </header>
      {/* oxlint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- the clicks come from links, which handle the keyboard themselves */}
      <div className="page-content mt-8" onClick={followInternalLink} dangerouslySetInnerHTML={{ __html: loaderData.bodyHtml }} />
    </article>
  );
}
