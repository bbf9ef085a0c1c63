import {
  type ArticleInfo,
  type ArticleLink,
  type ArticleList,
  type ArticleListQuery,
  type ArticleSummary,
  type ColumnInfo,
  type ColumnRef,
  RELATED_ARTICLES,
} from '#common/api/articles.schema.ts';
import type { Locale } from '#common/locales.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import type { Clock } from '#server/lib/clock.ts';
import { decodeCursor, pageWithCursor } from '#server/lib/cursor.ts';
import { DERIVED_DATA_TTL_MS, TimedCache } from '#server/lib/timed-cache.ts';
import type { ArticleSummaryRow, ArticlesRepository, ArticleWrite, ColumnRow } from './articles.repository.ts';

/** How many recent articles related ones are picked from. */
const RELATED_POOL = 100;
/** Entries of a feed. */
const FEED_ENTRIES = 20;

/** The column tree of one locale: columns by slug and id, and each column's sub-columns in order. */
class ColumnTree {
  readonly bySlug: Map<string, ColumnRow>;
  readonly byId: Map<number, ColumnRow>;
  constructor(rows: ColumnRow[]) {
    this.bySlug = new Map(rows.map((r) => [r.slug, r]));
    this.byId = new Map(rows.map((r) => [r.id, r]));
  }

  children(id: number): ColumnRow[] {
    return [...this.byId.values()].filter((c) => c.parent_id === id);
  }

  parent(column: ColumnRow): ColumnRow | null {
    return column.parent_id === null ? null : (this.byId.get(column.parent_id) ?? null);
  }

  /** Column, then sub-column. */
  trail(column: ColumnRow): ColumnRow[] {
    const parent = this.parent(column);
    return parent ? [parent, column] : [column];
  }

  path(column: ColumnRow): string {
    return `/article/${this.trail(column)
      .map((c) => c.slug)
      .join('/')}`;
  }

  /** A column's own id and its sub-columns': a column lists the articles of its sub-columns too. */
  family(column: ColumnRow): number[] {
    return [column.id, ...this.children(column.id).map((c) => c.id)];
  }

  info(column: ColumnRow): ColumnInfo {
    const parent = this.parent(column);
    return {
      slug: column.slug,
      title: column.title,
      description: column.description,
      cover: column.cover,
      parent: parent ? ref(parent) : null,
      children: this.children(column.id).map(ref),
      path: this.path(column),
    };
  }
}

const ref = (column: ColumnRow): ColumnRef => ({ slug: column.slug, title: column.title });

function columnOrThrow(tree: ColumnTree, slug: string): ColumnRow {
  const column = tree.bySlug.get(slug);
  if (!column) throw new AppError('not_found', { messageKey: 'articles:errors.columnNotFound' });
  return column;
}

export interface FeedEntry extends ArticleSummary {
  body: string;
  updatedAt: string;
}

/**
 * Decides what readers see of the articles: column pages, lists, an article with its related
 * articles and neighbours, feeds. Articles published after the clock's now do not exist yet.
 */
export class ArticlesService {
  readonly #repository: ArticlesRepository;
  readonly #clock: Clock;
  /** The column tree per locale: every page and call needs it, and it changes only on import. */
  readonly #trees: TimedCache<Locale, ColumnTree>;
  /** Related articles per locale and article: scoring reads and ranks the newest RELATED_POOL articles. */
  readonly #related: TimedCache<string, ArticleSummary[]>;
  constructor(repository: ArticlesRepository, clock: Clock) {
    this.#repository = repository;
    this.#clock = clock;
    this.#trees = new TimedCache({ ttlMs: DERIVED_DATA_TTL_MS, clock });
    this.#related = new TimedCache({ ttlMs: DERIVED_DATA_TTL_MS, clock });
  }

  /** Forgets what is cached (after an import in this process). */
  invalidate(): void {
    this.#trees.clear();
    this.#related.clear();
  }

  /** The next free article id, in the Console's unit of work: imported articles bring their own ids, new ones follow the highest. */
  nextArticleId(unit: UnitOfWork): Promise<number> {
    return this.#repository.nextArticleId(unit);
  }

  /** Writes an article the Console edits (decision 099), in its unit of work with the audit entry. */
  writeFromConsole(id: number, article: ArticleWrite, now: string, unit: UnitOfWork, create: boolean): Promise<void> {
    return this.#repository.writeArticle(id, article, now, unit, create);
  }

  /** A column or sub-column by slug. */
  async columnInfo(locale: Locale, slug: string): Promise<ColumnInfo> {
    const tree = await this.#tree(locale);
    return tree.info(columnOrThrow(tree, slug));
  }

  /** Top-level columns with their sub-columns, in order. */
  async columns(locale: Locale): Promise<ColumnInfo[]> {
    const tree = await this.#tree(locale);
    return [...tree.bySlug.values()].filter((c) => c.parent_id === null).map((c) => tree.info(c));
  }

  /** One page of a column's articles (its sub-columns' included), newest first. */
  async list(locale: Locale, slug: string, query: ArticleListQuery): Promise<ArticleList> {
    const cursor = decodeCursor(query.cursor);
    const tree = await this.#tree(locale);
    const column = columnOrThrow(tree, slug);
    const rows = await this.#repository.listArticles(locale, tree.family(column), this.#now(), cursor, query.limit);
    const { page, nextCursor } = pageWithCursor(rows, query.limit, (row) => ({ v: row.published_at, id: row.id }));
    return { items: page.map((row) => summary(row, tree)), nextCursor };
  }

  /** A published article with its body, related articles and neighbours; not_found when there is none (yet). */
  async info(locale: Locale, id: number): Promise<ArticleInfo> {
    const now = this.#now();
    const row = await this.#repository.findArticle(locale, id, now);
    if (!row) throw new AppError('not_found', { messageKey: 'articles:errors.articleNotFound' });
    const tree = await this.#tree(locale);
    const [neighbours, related] = await Promise.all([
      this.#repository.neighbours(locale, row, now),
      this.#related.get(`${locale}:${row.id}`, async () => {
        const pool = await this.#repository.recentArticles(locale, now, row.id, RELATED_POOL);
        return pickRelated(row, pool, tree).map((r) => summary(r, tree));
      }),
    ]);
    const column = tree.byId.get(row.column_id)!;
    return {
      ...summary(row, tree),
      body: row.body_html,
      updatedAt: row.updated_at,
      locale: row.text_locale,
      trail: tree.trail(column).map(ref),
      related,
      previous: neighbours.previous ? link(neighbours.previous, tree) : null,
      next: neighbours.next ? link(neighbours.next, tree) : null,
    };
  }

  /** A column's newest articles with bodies, for its feed. */
  async feed(locale: Locale, slug: string): Promise<{ column: ColumnInfo; entries: FeedEntry[] }> {
    const tree = await this.#tree(locale);
    const column = columnOrThrow(tree, slug);
    const rows = await this.#repository.latestWithBodies(locale, tree.family(column), this.#now(), FEED_ENTRIES);
    return { column: tree.info(column), entries: rows.map((row) => ({ ...summary(row, tree), body: row.body_html, updatedAt: row.updated_at })) };
  }

  /** Paths of every column and published article with their last change, for the sitemap. */
  async sitemapPaths(): Promise<Array<{ path: string; updatedAt: string | null }>> {
    const tree = await this.#tree('en');
    const articles = await this.#repository.publishedIndex(this.#now());
    const latest = new Map<number, string>();
    for (const a of articles) {
      const column = tree.byId.get(a.column_id)!;
      for (const c of tree.trail(column)) if ((latest.get(c.id) ?? '') < a.updated_at) latest.set(c.id, a.updated_at);
    }
    return [
      ...[...tree.bySlug.values()].map((c) => ({ path: tree.path(c), updatedAt: latest.get(c.id) ?? null })),
      ...articles.map((a) => ({ path: `${tree.path(tree.byId.get(a.column_id)!)}/${a.id}`, updatedAt: a.updated_at })),
    ];
  }

  #tree(locale: Locale): Promise<ColumnTree> {
    return this.#trees.get(locale, async () => new ColumnTree(await this.#repository.listColumns(locale)));
  }

  #now(): string {
    return this.#clock.now().toISOString();
  }
}

function summary(row: ArticleSummaryRow, tree: ColumnTree): ArticleSummary {
  const column = tree.byId.get(row.column_id)!;
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    summary: row.summary,
    cover: row.cover,
    author: row.author,
    publishedAt: row.published_at,
    readingMinutes: row.reading_minutes,
    tags: parseTags(row.tags),
    column: ref(column),
    path: `${tree.path(column)}/${row.id}`,
  };
}

function link(row: ArticleSummaryRow, tree: ColumnTree): ArticleLink {
  return { id: row.id, title: row.title, path: `${tree.path(tree.byId.get(row.column_id)!)}/${row.id}` };
}

function parseTags(value: string): string[] {
  try {
    const tags: unknown = JSON.parse(value);
    return Array.isArray(tags) ? tags.map(String) : [];
  } catch {
    return [];
  }
}

/**
 * Related articles: shared tags count most, then the same column, then the same column family;
 * ties go to the newer article. Articles with nothing in common are not offered.
 */
function pickRelated(article: ArticleSummaryRow, pool: ArticleSummaryRow[], tree: ColumnTree): ArticleSummaryRow[] {
  const tags = new Set(parseTags(article.tags));
  const family = (columnId: number) => {
    const column = tree.byId.get(columnId);
    return column ? (column.parent_id ?? column.id) : columnId;
  };
  return (
    pool
      .map((candidate) => {
        const shared = parseTags(candidate.tags).filter((t) => tags.has(t)).length;
        const score = shared * 4 + (candidate.column_id === article.column_id ? 2 : 0) + (family(candidate.column_id) === family(article.column_id) ? 1 : 0);
        return { candidate, score };
      })
      .filter((entry) => entry.score > 0)
      // The pool comes newest first and the sort is stable, so equal scores keep that order.
      .sort((a, b) => b.score - a.score)
      .slice(0, RELATED_ARTICLES)
      .map((entry) => entry.candidate)
  );
}
