import { FIXED_PAGE_SLUGS, type PageInfo, pagePath } from '#common/api/pages.schema.ts';
import type { Locale } from '#common/locales.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { AppError } from '#server/lib/app-error.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { PageTexts, PagesRepository } from './pages.repository.ts';

/** Static pages: the requested locale, falling back to English; a scheduled page from its time on (decision 099). */
export class PagesService {
  readonly #repository: PagesRepository;
  readonly #clock: Clock;
  constructor(repository: PagesRepository, clock: Clock) {
    this.#repository = repository;
    this.#clock = clock;
  }

  /** Replaces a page's texts with the Console's (decision 099), in its unit of work with the audit entry. */
  writeFromConsole(slug: string, texts: PageTexts[], unit: UnitOfWork): Promise<void> {
    return this.#repository.writePage(slug, texts, unit);
  }

  /** The page, or AppError not_found when no locale has it. */
  async info(locale: Locale, slug: string): Promise<PageInfo> {
    const page = await this.find(locale, slug);
    if (!page) throw new AppError('not_found');
    return page;
  }

  /** The page, or null (page loaders answer with their own 404). */
  async find(locale: Locale, slug: string): Promise<PageInfo | null> {
    const row = await this.#repository.find(slug, locale, isoNow(this.#clock));
    if (!row) return null;
    return {
      slug: row.slug,
      locale: row.locale,
      title: row.title,
      description: row.description,
      bodyHtml: row.body_html,
      updatedAt: row.updated_at,
    };
  }

  /** The pages at /page/<slug> readers can see now (the fixed ones are listed by the sitemap itself). */
  async sitemapPaths(): Promise<Array<{ path: string; updatedAt: string }>> {
    const rows = await this.#repository.visible(isoNow(this.#clock));
    return rows.filter((row) => !FIXED_PAGE_SLUGS.includes(row.slug)).map((row) => ({ path: pagePath(row.slug), updatedAt: row.updated_at }));
  }

  /** Whether any page exists (first start fills an empty table). */
  async isEmpty(): Promise<boolean> {
    return (await this.#repository.count()) === 0;
  }
}
