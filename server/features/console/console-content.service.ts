import type { Locale } from '#common/locales.ts';
import type { z } from 'zod';
import type {
  ConsoleArticle,
  ConsoleArticleInput,
  ConsoleArticleSummary,
  ConsolePage,
  ConsolePageCreate,
  ConsolePageInput,
  ConsolePageListSchema,
} from '#common/api/console-content.schema.ts';
import { pagePath } from '#common/api/pages.schema.ts';
import type { ContentChanges } from '#server/adapters/content-changes/content-changes.ts';
import { measureImage } from '#server/content/image-size.ts';
import { readingMinutes, renderMarkdown } from '#server/content/markdown.ts';
import { refusal } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { ArticlesService } from '../articles/articles.service.ts';
import type { PagesService } from '../pages/pages.service.ts';
import type { AuditLogService } from './audit-log.service.ts';
import type { ArticleTextRow, ConsoleContentRepository, PageTextRow } from './console-content.repository.ts';
import type { OperatorsService } from './operators.service.ts';

/** Where article images are stored (the article media store of the uploads storage). */
export interface MediaStore {
  save(name: string, bytes: Buffer): Promise<string>;
}

/**
 * An image uploaded here carries its size in its name (`<name>-<width>x<height>-<hash>.<ext>`), so
 * a body written in the Console gets sized images, as imported ones do, without reading the file.
 */
const SIZED_IMAGE = /^\/uploads\/articles\/[\w-]*-(\d{1,5})x(\d{1,5})-[0-9a-f]{16}\.[a-z]+$/;

/** A body as readers get it: the site's pipeline, with the sizes of images uploaded here. */
function renderBody(markdown: string): string {
  return renderMarkdown(markdown, {
    imageSize: (src) => {
      const sized = SIZED_IMAGE.exec(src);
      return sized ? { width: Number(sized[1]), height: Number(sized[2]) } : undefined;
    },
  });
}

/** The largest image an operator may upload into an article. */
export const ARTICLE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const LIST_LIMIT = 200;

/**
 * Articles and static pages written in the browser (decision 099). Bodies go through the site's
 * one Markdown pipeline (server/content/markdown.ts), so the preview is what readers get. Every
 * change is audited in its transaction and announced, so caches drop on every instance at once.
 */
export class ConsoleContentService {
  readonly #repository: ConsoleContentRepository;
  readonly #articles: Pick<ArticlesService, 'nextArticleId' | 'writeFromConsole'>;
  readonly #pages: Pick<PagesService, 'writeFromConsole'>;
  readonly #operators: OperatorsService;
  readonly #auditLog: AuditLogService;
  readonly #changes: ContentChanges;
  readonly #media: MediaStore;
  readonly #clock: Clock;
  constructor(options: {
    repository: ConsoleContentRepository;
    /** The articles and pages features write what the Console edits, in its transaction. */
    articles: Pick<ArticlesService, 'nextArticleId' | 'writeFromConsole'>;
    pages: Pick<PagesService, 'writeFromConsole'>;
    operators: OperatorsService;
    auditLog: AuditLogService;
    changes: ContentChanges;
    media: MediaStore;
    clock: Clock;
  }) {
    this.#repository = options.repository;
    this.#articles = options.articles;
    this.#pages = options.pages;
    this.#operators = options.operators;
    this.#auditLog = options.auditLog;
    this.#changes = options.changes;
    this.#media = options.media;
    this.#clock = options.clock;
  }

  /** The caller's id when they are an operator (the upload route asks before reading the file). */
  requireOperator(caller: Caller | null): Promise<number> {
    return this.#operators.requireOperator(caller);
  }

  /** Markdown rendered and sanitised exactly as an article or page body is. */
  async preview(caller: Caller | null, markdown: string): Promise<{ html: string }> {
    await this.#operators.requireOperator(caller);
    return { html: renderBody(markdown) };
  }

  /** Stores an image for an article body or cover; it must be a real image of the type its name says. */
  async uploadImage(caller: Caller | null, file: { name: string; bytes: Buffer }): Promise<{ url: string; width: number; height: number }> {
    const operator = await this.#operators.requireOperator(caller);
    const size = await measureImage(file.bytes, file.name);
    if (typeof size === 'string') throw refusal('console_not_an_image', { fields: { file: ['console:content.errors.notAnImage'] } });
    const extension = /\.[A-Za-z0-9]+$/.exec(file.name)?.[0] ?? '';
    const stem = file.name.slice(0, file.name.length - extension.length).slice(0, 40);
    const url = await this.#media.save(`${stem}-${size.width}x${size.height}${extension}`, file.bytes);
    await this.#auditLog.record({ operatorUserId: operator, action: 'article.image', target: { type: 'media', id: url }, detail: { name: file.name } });
    return { url, ...size };
  }

  async listArticles(
    caller: Caller | null,
    q: string | undefined,
    locale: Locale = 'en',
  ): Promise<{ items: ConsoleArticleSummary[]; columns: Array<{ slug: string; title: string }> }> {
    await this.#operators.requireOperator(caller);
    const now = isoNow(this.#clock);
    // Titles in the operator's language where the content has one (decision 126).
    const [rows, columns] = await Promise.all([this.#repository.listArticles(q, LIST_LIMIT, locale), this.#repository.columns(locale)]);
    return {
      items: rows.map((row) => ({
        id: row.id,
        title: row.title,
        column: row.column_slug,
        publishedAt: row.published_at,
        scheduled: isScheduled(row.published_at, now),
        source: row.source,
        hasChinese: row.zh_locale !== null,
        updatedAt: row.updated_at,
      })),
      columns: columns.map(({ slug, title }) => ({ slug, title })),
    };
  }

  async article(caller: Caller | null, id: number): Promise<ConsoleArticle> {
    await this.#operators.requireOperator(caller);
    return this.#articleOrThrow(id);
  }

  /** Creates (id null) or replaces an article; a publish time in the future schedules it. */
  async saveArticle(caller: Caller | null, id: number | null, input: ConsoleArticleInput): Promise<ConsoleArticle> {
    const operator = await this.#operators.requireOperator(caller);
    const columns = await this.#repository.columns();
    const column = columns.find((c) => c.slug === input.column);
    if (!column) throw refusal('console_column_not_found', { fields: { column: ['console:content.errors.columnNotFound'] } });
    const now = isoNow(this.#clock);
    const texts: Array<Omit<ArticleTextRow, 'article_id'>> = [];
    for (const [locale, text] of Object.entries(input.texts)) {
      if (!text) continue;
      texts.push({
        locale,
        title: text.title,
        summary: text.summary,
        body_html: renderBody(text.markdown),
        body_markdown: text.markdown,
        reading_minutes: readingMinutes(text.markdown),
        tags: JSON.stringify(text.tags),
        author: text.author,
      });
    }
    const savedId = await this.#repository.transaction(async (trx) => {
      const existing = id === null ? undefined : await this.#repository.findArticle(id, trx);
      if (id !== null && !existing) throw refusal('console_article_not_found');
      const articleId = id ?? (await this.#articles.nextArticleId(trx));
      await this.#articles.writeFromConsole(
        articleId,
        { columnId: column.id, slug: input.slug, cover: input.cover, author: input.texts.en.author, publishedAt: input.publishedAt, texts },
        now,
        trx,
        id === null,
      );
      await this.#auditLog.record(
        {
          operatorUserId: operator,
          action: id === null ? 'article.create' : 'article.update',
          target: { type: 'article', id: articleId },
          detail: {
            title: input.texts.en.title,
            publishedAt: input.publishedAt,
            scheduled: isScheduled(input.publishedAt, now),
            before: existing ? { publishedAt: existing.article.published_at, source: existing.article.source } : null,
          },
        },
        trx,
      );
      return articleId;
    });
    await this.#changes.announce();
    return this.#articleOrThrow(savedId);
  }

  async listPages(caller: Caller | null, locale: Locale = 'en'): Promise<z.output<typeof ConsolePageListSchema>> {
    await this.#operators.requireOperator(caller);
    const now = isoNow(this.#clock);
    const rows = await this.#repository.listPages();
    const bySlug = new Map<string, PageTextRow[]>();
    for (const row of rows) bySlug.set(row.slug, [...(bySlug.get(row.slug) ?? []), row]);
    return {
      items: [...bySlug.entries()].map(([slug, texts]) => {
        const english = texts.find((t) => t.locale === 'en') ?? texts[0]!;
        const local = texts.find((t) => t.locale === locale) ?? english;
        return {
          slug,
          title: local.title,
          source: english.source,
          locales: texts.map((t) => t.locale),
          publishedAt: english.published_at,
          scheduled: isScheduled(english.published_at, now),
          path: pagePath(slug),
          updatedAt: texts
            .map((t) => t.updated_at)
            .sort()
            .at(-1)!,
        };
      }),
    };
  }

  async page(caller: Caller | null, slug: string): Promise<ConsolePage> {
    await this.#operators.requireOperator(caller);
    return this.#pageOrThrow(slug);
  }

  /** Replaces an existing static page's texts; a publish time ahead schedules the new text, as for articles. */
  async savePage(caller: Caller | null, slug: string, input: ConsolePageInput): Promise<ConsolePage> {
    return this.#writePage(caller, slug, input, false);
  }

  /** Creates a static page at /page/<slug>, published at once or at its time. */
  async createPage(caller: Caller | null, input: ConsolePageCreate): Promise<ConsolePage> {
    return this.#writePage(caller, input.slug, input, true);
  }

  async #writePage(caller: Caller | null, slug: string, input: ConsolePageInput, create: boolean): Promise<ConsolePage> {
    const operator = await this.#operators.requireOperator(caller);
    // `new` is the address of the Console's own form for a new page.
    if (create && slug === 'new') throw refusal('console_page_exists', { fields: { slug: ['console:content.errors.pageExists'] } });
    const now = isoNow(this.#clock);
    await this.#repository.transaction(async (trx) => {
      const existing = await this.#repository.findPage(slug, trx);
      if (create && existing.length > 0) throw refusal('console_page_exists', { fields: { slug: ['console:content.errors.pageExists'] } });
      if (!create && existing.length === 0) throw refusal('console_page_not_found');
      const texts = Object.entries(input.texts).flatMap(([locale, text]) =>
        text
          ? [
              {
                locale,
                title: text.title,
                description: text.description,
                body_html: renderBody(text.markdown),
                body_markdown: text.markdown,
                published_at: input.publishedAt,
                updated_at: now,
              },
            ]
          : [],
      );
      await this.#pages.writeFromConsole(slug, texts, trx);
      await this.#auditLog.record(
        {
          operatorUserId: operator,
          action: create ? 'page.create' : 'page.update',
          target: { type: 'page', id: slug },
          detail: {
            title: input.texts.en.title,
            locales: texts.map((t) => t.locale),
            publishedAt: input.publishedAt,
            scheduled: isScheduled(input.publishedAt, now),
          },
        },
        trx,
      );
    });
    await this.#changes.announce();
    return this.#pageOrThrow(slug);
  }

  async #articleOrThrow(id: number): Promise<ConsoleArticle> {
    const found = await this.#repository.findArticle(id);
    if (!found) throw refusal('console_article_not_found');
    const columns = await this.#repository.columns();
    const column = columns.find((c) => c.slug === found.article.column_slug)!;
    const parent = column.parent_id === null ? null : columns.find((c) => c.id === column.parent_id);
    const text = (locale: string) => {
      const row = found.texts.find((t) => t.locale === locale);
      if (!row) return null;
      // Imported text has no Markdown: its sanitised HTML is valid Markdown and renders to itself.
      return { title: row.title, summary: row.summary, markdown: row.body_markdown ?? row.body_html, tags: parseTags(row.tags), author: row.author };
    };
    return {
      id: found.article.id,
      column: found.article.column_slug,
      slug: found.article.slug,
      cover: found.article.cover,
      publishedAt: found.article.published_at,
      source: found.article.source,
      updatedAt: found.article.updated_at,
      texts: { en: text('en')!, 'zh-CN': text('zh-CN') },
      path: `/article/${parent ? `${parent.slug}/` : ''}${column.slug}/${found.article.id}`,
    };
  }

  async #pageOrThrow(slug: string): Promise<ConsolePage> {
    const rows = await this.#repository.findPage(slug);
    const english = rows.find((r) => r.locale === 'en');
    if (!english) throw refusal('console_page_not_found');
    return {
      slug,
      source: english.source,
      publishedAt: english.published_at,
      path: pagePath(slug),
      updatedAt: english.updated_at,
      texts: { en: pageText(english)!, 'zh-CN': pageText(rows.find((r) => r.locale === 'zh-CN')) },
    };
  }
}

/** Whether readers wait for a publish time still ahead (null: published when saved). */
function isScheduled(publishedAt: string | null, now: string): boolean {
  return publishedAt !== null && publishedAt > now;
}

function pageText(row: PageTextRow | undefined) {
  return row ? { title: row.title, description: row.description, markdown: row.body_markdown ?? row.body_html } : null;
}

function parseTags(value: string): string[] {
  try {
    const tags: unknown = JSON.parse(value);
    return Array.isArray(tags) ? tags.map(String) : [];
  } catch {
    return [];
  }
}
