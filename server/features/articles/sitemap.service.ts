import { LOCALES, localePath } from '#common/locales.ts';
import type { PagesService } from '#server/features/pages/pages.service.ts';
import type { ArticlesService } from './articles.service.ts';
import type { SitemapRepository } from './sitemap.repository.ts';
import { xmlText } from './xml.ts';

/** Pages without data of their own that search engines should know. */
const FIXED_PATHS = ['/', '/categories', '/about', '/terms', '/privacy-policy', '/cookie-policy'];

export interface SitemapPage {
  /** Path without locale prefix. */
  path: string;
  /** Last change, ISO time, when known. */
  updatedAt: string | null;
}

/** Builds /sitemap.xml: every public page in every locale, each listing its language alternates. */
export class SitemapService {
  readonly #repository: SitemapRepository;
  readonly #articles: ArticlesService;
  readonly #pages: Pick<PagesService, 'sitemapPaths'>;
  constructor(repository: SitemapRepository, articles: ArticlesService, pages: Pick<PagesService, 'sitemapPaths'>) {
    this.#repository = repository;
    this.#articles = articles;
    this.#pages = pages;
  }

  /** Home and static pages (those created in the Console once published), categories, apps, article columns and published articles. */
  async pages(): Promise<SitemapPage[]> {
    const [categories, apps, articles, created] = await Promise.all([
      this.#repository.categories(),
      this.#repository.publishedApps(),
      this.#articles.sitemapPaths(),
      this.#pages.sitemapPaths(),
    ]);
    return [
      ...FIXED_PATHS.map((path) => ({ path, updatedAt: null })),
      ...created,
      ...categories.map((c) => ({ path: `/categories/${c.slug}`, updatedAt: c.updated_at })),
      ...apps.map((a) => ({ path: `/app/${a.slug}`, updatedAt: a.updated_at })),
      ...articles,
    ];
  }

  async xml(origin: string): Promise<string> {
    const pages = await this.pages();
    const lines = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ];
    for (const page of pages) {
      const alternates = [
        ...LOCALES.map((l) => `    <xhtml:link rel="alternate" hreflang="${l.code}" href="${xmlText(origin + localePath(l.code, page.path))}"/>`),
        `    <xhtml:link rel="alternate" hreflang="x-default" href="${xmlText(origin + page.path)}"/>`,
      ];
      for (const locale of LOCALES) {
        lines.push(
          '  <url>',
          `    <loc>${xmlText(origin + localePath(locale.code, page.path))}</loc>`,
          ...(page.updatedAt ? [`    <lastmod>${xmlText(page.updatedAt)}</lastmod>`] : []),
          ...alternates,
          '  </url>',
        );
      }
    }
    lines.push('</urlset>', '');
    return lines.join('\n');
  }
}
