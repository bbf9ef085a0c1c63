import type { MetaDescriptor } from 'react-router';
import type { ArticleInfo, ColumnInfo } from '#common/api/articles.schema.ts';
import { COVER_HEIGHT, COVER_WIDTH } from '#common/constants.ts';
import { LOCALES, type Locale, localeDefinition, localePath } from '#common/locales.ts';
import { pageTitle } from '../../lib/meta.ts';

type Matches = ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;

interface Site {
  origin: string;
  productName: string;
}

function siteOf(matches: Matches): Site {
  const root = matches.find((m) => m?.id === 'root')?.loaderData as { publicOrigin?: string; productName?: string } | undefined;
  return { origin: root?.publicOrigin ?? '', productName: root?.productName ?? 'Playport' };
}

/** Open Graph writes locales with an underscore (en_US, zh_CN). */
const ogLocale = (locale: Locale) => localeDefinition(locale).language.replace('-', '_');

/** The Atom feed of a column in a locale (served by the server, not a page). */
export function feedPath(column: string, locale: Locale): string {
  return `/feeds/${column}.${locale}.xml`;
}

function feedLink(column: ColumnInfo | { slug: string; title: string }, locale: Locale, site: Site, title: string): MetaDescriptor {
  return { tagName: 'link', rel: 'alternate', type: 'application/atom+xml', title, href: site.origin + feedPath(column.slug, locale) };
}

/** Title, description, Open Graph and Twitter card of a column page, and its feed. */
export function columnMeta(matches: Matches, column: ColumnInfo, locale: Locale, feedTitle: string): MetaDescriptor[] {
  const site = siteOf(matches);
  const url = site.origin + localePath(locale, column.path);
  const image = column.cover ? site.origin + column.cover : null;
  return [
    pageTitle(matches, column.title),
    ...(column.description ? [{ name: 'description', content: column.description }] : []),
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: site.productName },
    { property: 'og:title', content: column.title },
    ...(column.description ? [{ property: 'og:description', content: column.description }] : []),
    { property: 'og:url', content: url },
    { property: 'og:locale', content: ogLocale(locale) },
    ...(image ? [{ property: 'og:image', content: image }] : []),
    { name: 'twitter:card', content: image ? 'summary_large_image' : 'summary' },
    feedLink(column, locale, site, feedTitle),
  ];
}

/**
 * Everything an article page says about itself in <head>: title, description, Open Graph and
 * Twitter card tags, its column's feed, and schema.org NewsArticle structured data.
 */
export function articleMeta(matches: Matches, article: ArticleInfo, locale: Locale, feedTitle: string): MetaDescriptor[] {
  const site = siteOf(matches);
  const url = site.origin + localePath(locale, article.path);
  const image = article.cover ? site.origin + article.cover : null;
  const section = article.trail.at(-1)!;
  return [
    pageTitle(matches, article.title),
    { name: 'description', content: article.summary },
    ...(article.author ? [{ name: 'author', content: article.author }] : []),
    { property: 'og:type', content: 'article' },
    { property: 'og:site_name', content: site.productName },
    { property: 'og:title', content: article.title },
    { property: 'og:description', content: article.summary },
    { property: 'og:url', content: url },
    { property: 'og:locale', content: ogLocale(locale) },
    ...LOCALES.filter((l) => l.code !== locale).map((l) => ({ property: 'og:locale:alternate', content: ogLocale(l.code) })),
    ...(image
      ? [
          { property: 'og:image', content: image },
          { property: 'og:image:width', content: String(COVER_WIDTH) },
          { property: 'og:image:height', content: String(COVER_HEIGHT) },
          { property: 'og:image:alt', content: article.title },
        ]
      : []),
    { property: 'article:published_time', content: article.publishedAt },
    { property: 'article:modified_time', content: article.updatedAt },
    { property: 'article:section', content: section.title },
    ...article.tags.map((tag) => ({ property: 'article:tag', content: tag })),
    { name: 'twitter:card', content: image ? 'summary_large_image' : 'summary' },
    { name: 'twitter:title', content: article.title },
    { name: 'twitter:description', content: article.summary },
    ...(image
      ? [
          { name: 'twitter:image', content: image },
          { name: 'twitter:image:alt', content: article.title },
        ]
      : []),
    feedLink(section, locale, site, feedTitle),
    {
      'script:ld+json': {
        '@context': 'https://schema.org',
        '@type': 'NewsArticle',
        headline: article.title,
        description: article.summary,
        url,
        mainEntityOfPage: { '@type': 'WebPage', '@id': url },
        inLanguage: localeDefinition(article.locale === 'zh-CN' ? 'zh-CN' : 'en').language,
        datePublished: article.publishedAt,
        dateModified: article.updatedAt > article.publishedAt ? article.updatedAt : article.publishedAt,
        ...(image ? { image: [image] } : {}),
        ...(article.author ? { author: [{ '@type': 'Person', name: article.author }] } : {}),
        publisher: {
          '@type': 'Organization',
          name: site.productName,
          url: site.origin + localePath(locale, '/'),
          logo: { '@type': 'ImageObject', url: `${site.origin}/icons/icon-512.png`, width: 512, height: 512 },
        },
        articleSection: section.title,
        keywords: article.tags.join(', '),
      },
    },
  ];
}
