import { type Locale, localePath } from '#common/locales.ts';
import type { ColumnInfo } from '#common/api/articles.schema.ts';
import type { FeedEntry } from './articles.service.ts';
import { xmlText } from './xml.ts';

export interface FeedInput {
  origin: string;
  productName: string;
  locale: Locale;
  column: ColumnInfo;
  entries: FeedEntry[];
  /** Path of the feed itself (rel="self"). */
  selfPath: string;
  /** When the feed has no entries, its `updated` time. */
  now: Date;
}

/** The feed file of a column in a locale: /feeds/{column}.{locale}.xml. */
export function feedPath(column: string, locale: Locale): string {
  return `/feeds/${column}.${locale}.xml`;
}

/**
 * An Atom 1.0 feed of a column. Entry ids are tag URIs of the article id and locale, so they
 * stay the same if an article moves to another column; links and images are absolute.
 */
export function atomFeed(input: FeedInput): string {
  const { origin, locale, column, entries } = input;
  const host = new URL(origin).hostname;
  const page = (path: string) => origin + localePath(locale, path);
  const updated = entries.map(latest).sort().at(-1) ?? input.now.toISOString();
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${xmlText(locale)}">`,
    `  <id>tag:${xmlText(host)},2025:articles/${xmlText(column.slug)}/${xmlText(locale)}</id>`,
    `  <title>${xmlText(`${column.title} | ${input.productName}`)}</title>`,
    ...(column.description ? [`  <subtitle>${xmlText(column.description)}</subtitle>`] : []),
    `  <link rel="self" type="application/atom+xml" href="${xmlText(origin + input.selfPath)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xmlText(page(column.path))}"/>`,
    `  <updated>${updated}</updated>`,
    ...(column.cover ? [`  <logo>${xmlText(origin + column.cover)}</logo>`] : []),
  ];
  for (const entry of entries) {
    lines.push(
      '  <entry>',
      `    <id>tag:${xmlText(host)},2025:article/${entry.id}/${xmlText(locale)}</id>`,
      `    <title>${xmlText(entry.title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${xmlText(page(entry.path))}"/>`,
      `    <published>${entry.publishedAt}</published>`,
      `    <updated>${latest(entry)}</updated>`,
      ...(entry.author ? [`    <author><name>${xmlText(entry.author)}</name></author>`] : [`    <author><name>${xmlText(input.productName)}</name></author>`]),
      ...entry.tags.map((tag) => `    <category term="${xmlText(tag)}"/>`),
      `    <summary>${xmlText(entry.summary)}</summary>`,
      `    <content type="html">${xmlText(absoluteUrls(entry.body, origin))}</content>`,
      '  </entry>',
    );
  }
  lines.push('</feed>', '');
  return lines.join('\n');
}

/** An entry changed when it was edited, but never before it was published (scheduled articles are imported early). */
function latest(entry: FeedEntry): string {
  return entry.updatedAt > entry.publishedAt ? entry.updatedAt : entry.publishedAt;
}

/** Feed readers show entries away from the site: root-relative links and images get the origin. */
function absoluteUrls(html: string, origin: string): string {
  return html.replace(/ (href|src)="\/(?!\/)/g, (_match, attribute: string) => ` ${attribute}="${origin}/`);
}
