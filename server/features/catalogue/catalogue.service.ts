import type { AppList, AppListQuery, AppSummary } from '#common/api/catalogue.schema.ts';
import type { Locale } from '#common/locales.ts';
import { decodeCursor, encodeCursor } from '#server/lib/cursor.ts';
import type { AppSummaryRow, CatalogueRepository } from './catalogue.repository.ts';

/** Decides what the catalogue shows: ordering, paging and localisation. */
export class CatalogueService {
  readonly #repository: CatalogueRepository;
  constructor(repository: CatalogueRepository) {
    this.#repository = repository;
  }

  async list(locale: Locale, query: AppListQuery): Promise<AppList> {
    const rows = await this.#repository.listApps(locale, query, decodeCursor(query.cursor));
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const nextCursor =
      rows.length > query.limit && last
        ? encodeCursor({ v: query.sort === 'newest' ? last.released_at : query.sort === 'name' ? last.title : last.play_count, id: last.id })
        : null;
    return { items: page.map(toSummary), nextCursor };
  }
}

function toSummary(row: AppSummaryRow): AppSummary {
  return {
    id: row.id,
    slug: row.slug,
    type: row.type,
    title: row.title,
    summary: row.summary,
    thumbnail: row.thumbnail,
    width: row.width,
    height: row.height,
    orientation: row.orientation,
    featured: row.featured === 1,
    playCount: row.play_count,
    releasedAt: row.released_at,
  };
}
