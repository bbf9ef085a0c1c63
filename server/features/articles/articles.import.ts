import { readFile } from 'node:fs/promises';
import { basename, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { COVER_HEIGHT, COVER_WIDTH } from '#common/constants.ts';
import { ARTICLE_SEGMENT_PATTERN } from '#common/constants.ts';
import { DEFAULT_LOCALE, LOCALE_CODES, type Locale, localePath } from '#common/locales.ts';
import { check, ContentError, listFiles, readStructured } from '#server/content/files.ts';
import { readFrontMatterFile, readingMinutes, renderMarkdown } from '#server/content/markdown.ts';
import { measureImage } from '#server/content/image-size.ts';
import type { ArticleMediaStore } from './article-media.ts';
import type { ArticlesImportRepository, ImportedArticle, ImportedColumn } from './articles-import.repository.ts';

const columnSlug = z.string().regex(ARTICLE_SEGMENT_PATTERN, 'must be 3 to 20 letters (it is a URL segment of /article/…)');
const articleSlug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case letters and digits separated by single hyphens')
  .max(100);
const tag = z.coerce.string().pipe(
  z
    .string()
    .regex(/^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u, 'must be letters and digits separated by hyphens')
    .max(40),
);
const time = z.preprocess(
  (value) => (value instanceof Date ? value.toISOString() : value),
  // Stored as UTC ISO text, which sorts in time order (decision 004).
  z.iso.datetime({ offset: true, error: 'must be a date and time such as 2026-03-01T09:00:00Z' }).transform((value) => new Date(value).toISOString()),
);

const ColumnTexts = z.strictObject({ title: z.string().trim().min(1).max(60), description: z.string().trim().max(300).optional() });
const ColumnsFile = z.array(
  z.strictObject({
    slug: columnSlug,
    parent: columnSlug.nullable().default(null),
    sort: z.number().int().default(0),
    cover: z.string().min(1).max(200).optional(),
    i18n: z.strictObject({ en: ColumnTexts, 'zh-CN': ColumnTexts.partial().optional() }),
  }),
);

const FrontMatter = z.strictObject({
  id: z.number().int().min(1).max(2_147_483_647),
  column: columnSlug,
  slug: z.coerce.string().pipe(articleSlug),
  locale: z.enum(LOCALE_CODES as [Locale, ...Locale[]]),
  title: z.coerce.string().pipe(z.string().trim().min(1).max(150)),
  summary: z.string().trim().min(1).max(300),
  cover: z.string().min(1).max(200).optional(),
  author: z.string().trim().min(1).max(80).optional(),
  published_at: time,
  tags: z.array(tag).max(12).default([]),
});
type FrontMatter = z.output<typeof FrontMatter>;

/** Fields every translation of one article must agree on (the author may be written differently). */
const SHARED_FIELDS = ['column', 'slug', 'cover', 'published_at'] as const;

export interface ArticleImportTarget {
  repository: ArticlesImportRepository;
  media: ArticleMediaStore;
}

export interface ArticleImportReport {
  columns: number;
  articles: number;
  translations: number;
  /** Articles that were new or changed by this import. */
  changed: number;
  /** Ids left alone because an operator wrote them in the Console since (decision 099). */
  keptConsoleEdits: number[];
}

/**
 * Imports a folder of articles: `columns.yaml` plus Markdown files with front matter, one per
 * article and locale, in any sub-folders. Image paths (covers and images in bodies) are relative
 * to the folder. Everything is validated first and nothing is written unless all of it is
 * valid; importing the same folder twice changes nothing. Articles whose files were removed
 * stay in the database.
 */
export async function importArticles(target: ArticleImportTarget, options: { folder: string }): Promise<ArticleImportReport> {
  const root = resolve(options.folder);
  const problems: string[] = [];
  const images = new ImageReader(root, problems);

  const columnsFile = resolve(root, 'columns.yaml');
  const rawColumns = await readStructured(columnsFile).catch((error: Error) => {
    problems.push(`columns.yaml: ${error.message}`);
    return undefined;
  });
  const columnEntries = rawColumns === undefined ? [] : (check(ColumnsFile, rawColumns, columnsFile, root, problems) ?? []);
  const columns = new Map(columnEntries.map((c) => [c.slug, c]));
  for (const [index, column] of columnEntries.entries()) {
    if (columnEntries.findIndex((c) => c.slug === column.slug) !== index) problems.push(`columns.yaml: slug "${column.slug}" is used by more than one column`);
    if (column.parent === null) continue;
    const parent = columns.get(column.parent);
    if (!parent) problems.push(`columns.yaml: ${column.slug}: parent: unknown column "${column.parent}"`);
    else if (parent.parent !== null)
      problems.push(`columns.yaml: ${column.slug}: parent: "${column.parent}" is itself a sub-column; columns nest one level deep`);
  }

  const parsed: Array<{ file: string; name: string; front: FrontMatter; body: string }> = [];
  for (const file of await listFiles(root, ['.md'])) {
    const name = relative(root, file);
    const unknownColumn = (column: string) => `${name}: column: unknown column "${column}" (columns.yaml lists ${[...columns.keys()].join(', ') || 'none'})`;
    const content = await readFrontMatterFile(file).catch((error: Error) => {
      problems.push(`${name}: ${error.message}`);
      return null;
    });
    if (!content) continue;
    if (content.data === undefined) {
      problems.push(`${name}: (file): must start with front matter between two "---" lines`);
      continue;
    }
    const front = check(FrontMatter, content.data, file, root, problems);
    if (!front) {
      // Name an unknown column too, so one run reports everything wrong with the file.
      const column = (content.data as { column?: unknown } | null)?.column;
      if (typeof column === 'string' && columnSlug.safeParse(column).success && !columns.has(column)) problems.push(unknownColumn(column));
      continue;
    }
    if (!content.body.trim()) problems.push(`${name}: (body): is empty`);
    if (!columns.has(front.column)) problems.push(unknownColumn(front.column));
    parsed.push({ file, name, front, body: content.body });
  }

  const byId = new Map<number, typeof parsed>();
  for (const entry of parsed) byId.set(entry.front.id, [...(byId.get(entry.front.id) ?? []), entry]);
  for (const [id, entries] of byId) {
    const english = entries.find((e) => e.front.locale === DEFAULT_LOCALE);
    if (!english) problems.push(`${entries[0]!.name}: locale: article ${id} has no English file (English is the fallback of every translation)`);
    for (const locale of LOCALE_CODES) {
      const same = entries.filter((e) => e.front.locale === locale);
      if (same.length > 1) problems.push(`${same.map((e) => e.name).join(' and ')}: id: both are article ${id} in ${locale}`);
    }
    if (!english) continue;
    for (const entry of entries) {
      if (entry === english) continue;
      for (const field of SHARED_FIELDS) {
        if (entry.front[field] !== english.front[field]) {
          problems.push(`${entry.name}: ${field}: must be the same as in ${english.name} (${String(english.front[field] ?? '(none)')})`);
        }
      }
    }
  }
  const slugs = new Map<string, number>();
  for (const entry of parsed) {
    const owner = slugs.get(entry.front.slug);
    if (owner !== undefined && owner !== entry.front.id) problems.push(`${entry.name}: slug: "${entry.front.slug}" is already used by article ${owner}`);
    slugs.set(entry.front.slug, entry.front.id);
  }

  // Images are read and measured before anything is written.
  const importedColumns: ImportedColumn[] = [];
  for (const column of columnEntries) {
    const cover = column.cover ? await images.cover(column.cover, 'columns.yaml', `${column.slug}: cover`) : null;
    importedColumns.push({
      slug: column.slug,
      parent: column.parent,
      sort: column.sort,
      cover,
      texts: localeTexts(column.i18n, (t) => ({ title: t.title, description: t.description ?? null })),
    });
  }

  const articles: ImportedArticle[] = [];
  let translations = 0;
  for (const [id, entries] of [...byId].sort(([a], [b]) => a - b)) {
    const english = entries.find((e) => e.front.locale === DEFAULT_LOCALE);
    if (!english) continue;
    const cover = english.front.cover ? await images.cover(english.front.cover, english.name, 'cover') : null;
    const texts: ImportedArticle['texts'] = {};
    for (const entry of entries) {
      texts[entry.front.locale] = {
        title: entry.front.title,
        summary: entry.front.summary,
        bodyHtml: await images.renderBody(entry.body, entry.name, entry.front.locale),
        readingMinutes: readingMinutes(entry.body),
        tags: entry.front.tags,
        author: entry.front.author ?? null,
      };
      translations += 1;
    }
    articles.push({
      id,
      column: english.front.column,
      slug: english.front.slug,
      cover,
      author: english.front.author ?? null,
      publishedAt: english.front.published_at,
      texts,
    });
  }

  if (problems.length > 0) throw new ContentError(problems);

  const media = await images.store(target.media);
  const withUrls = <T extends { cover: string | null }>(item: T): T => ({ ...item, cover: item.cover === null ? null : media.get(item.cover)! });
  const result = await target.repository.replaceArticles({
    columns: importedColumns.map(withUrls),
    articles: articles.map((article) => ({
      ...withUrls(article),
      texts: Object.fromEntries(Object.entries(article.texts).map(([locale, t]) => [locale, { ...t, bodyHtml: media.substitute(t.bodyHtml) }])),
    })),
  });
  return { columns: importedColumns.length, articles: articles.length, translations, changed: result.changed, keptConsoleEdits: result.keptConsoleEdits };
}

function localeTexts<T extends object, R>(i18n: { en: T; 'zh-CN'?: Partial<T> | undefined }, make: (t: T) => R): Record<string, R> {
  const texts: Record<string, R> = { en: make(i18n.en) };
  if (i18n['zh-CN']) texts['zh-CN'] = make({ ...i18n.en, ...Object.fromEntries(Object.entries(i18n['zh-CN']).filter(([, v]) => v !== undefined)) });
  return texts;
}

/** Placeholder of an image in rendered HTML until its public URL is known (a path, so the sanitiser keeps it). */
const PLACEHOLDER = '/__media__/';

/**
 * Reads the images the content refers to, relative to the content folder: checks that they
 * exist, stay inside the folder and are real images, and remembers their size. Once the whole
 * folder is valid, `store` saves them and gives their public URLs.
 */
class ImageReader {
  readonly #root: string;
  readonly #problems: string[];
  readonly #files = new Map<string, { bytes: Buffer; width: number; height: number } | null>();
  constructor(root: string, problems: string[]) {
    this.#root = root;
    this.#problems = problems;
  }

  /** Loads one image; returns its key (the path relative to the folder) or null after recording a problem. */
  async load(path: string, where: string): Promise<string | null> {
    if (/^[a-z][a-z0-9+.-]*:|^\/|^\\/i.test(path)) {
      this.#problems.push(`${where}: "${path}" must be a file path relative to the articles folder (images are copied and measured on import)`);
      return null;
    }
    const file = resolve(this.#root, decodeURI(path));
    if (!file.startsWith(this.#root + sep)) {
      this.#problems.push(`${where}: "${path}" points outside the articles folder`);
      return null;
    }
    const key = relative(this.#root, file).split(sep).join('/');
    if (!this.#files.has(key)) {
      const bytes = await readFile(file).catch(() => null);
      if (!bytes) {
        this.#problems.push(`${where}: file "${key}" does not exist`);
        this.#files.set(key, null);
        return null;
      }
      const size = await measureImage(bytes, file);
      if (typeof size === 'string') {
        this.#problems.push(`${where}: "${key}" ${size}`);
        this.#files.set(key, null);
        return null;
      }
      this.#files.set(key, { bytes, ...size });
    }
    return this.#files.get(key) ? key : null;
  }

  /** A cover: an image in the Open Graph shape (1200×630 or the same ratio). */
  async cover(path: string, file: string, field: string): Promise<string | null> {
    const key = await this.load(path, `${file}: ${field}`);
    if (!key) return null;
    const { width, height } = this.#files.get(key)!;
    const ratio = width / height;
    const expected = COVER_WIDTH / COVER_HEIGHT;
    if (Math.abs(ratio - expected) / expected > 0.02 || width < COVER_WIDTH / 2) {
      this.#problems.push(
        `${file}: ${field}: "${key}" is ${width}×${height}; covers must be at least ${COVER_WIDTH / 2} wide in the ${COVER_WIDTH}×${COVER_HEIGHT} shape`,
      );
      return null;
    }
    return key;
  }

  /**
   * Markdown to sanitised HTML, images sized and pointing at placeholders. Site links of a
   * translation get its locale prefix, so a Chinese article links to Chinese pages.
   */
  async renderBody(markdown: string, file: string, locale: Locale): Promise<string> {
    const sources = new Set<string>();
    renderMarkdown(markdown, { resolveImage: (src) => (sources.add(src), src) });
    for (const src of sources) await this.load(src, `${file}: image`);
    const html = renderMarkdown(markdown, {
      resolveImage: (src) => {
        const key = relative(this.#root, resolve(this.#root, safeDecode(src)))
          .split(sep)
          .join('/');
        return this.#files.get(key) ? PLACEHOLDER + key : src;
      },
      imageSize: (src) => {
        const entry = src.startsWith(PLACEHOLDER) ? this.#files.get(src.slice(PLACEHOLDER.length)) : undefined;
        return entry ? { width: entry.width, height: entry.height } : undefined;
      },
    });
    return localiseLinks(html, locale);
  }

  async store(media: ArticleMediaStore): Promise<{ get(key: string): string | undefined; substitute(html: string): string }> {
    const urls = new Map<string, string>();
    for (const [key, entry] of this.#files) {
      if (entry) urls.set(key, await media.save(basename(key), entry.bytes));
    }
    return {
      get: (key) => urls.get(key),
      substitute: (html) => html.replace(/src="\/__media__\/([^"]+)"/g, (match, key: string) => (urls.has(key) ? `src="${urls.get(key)}"` : match)),
    };
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURI(value);
  } catch {
    return value;
  }
}

/** Paths of the site that are not pages: they keep no locale prefix. */
const NOT_PAGES = /^\/(?:serve|uploads|games|feeds|assets|api|oauth)(?:\/|$)|^\/[^/?#]*\.[a-z]+(?:[?#]|$)/;

function localiseLinks(html: string, locale: Locale): string {
  if (locale === DEFAULT_LOCALE) return html;
  // The sanitiser writes every attribute with double quotes, so this sees every link.
  return html.replace(/<a href="(\/(?!\/)[^"]*)"/g, (match, href: string) => {
    const first = href.split(/[/?#]/)[1];
    if (NOT_PAGES.test(href) || (LOCALE_CODES as readonly string[]).includes(first ?? '')) return match;
    return `<a href="${localePath(locale, href)}"`;
  });
}
