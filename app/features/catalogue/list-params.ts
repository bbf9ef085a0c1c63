import { sameOriginPath } from '#common/same-origin-path.ts';
import { redirect } from 'react-router';
import { type AppSort, AppSortSchema } from '#common/api/catalogue.schema.ts';
import type { AppPage } from './paged-app-grid.tsx';
import { isValidationError } from '../../lib/route-errors.ts';

/** Tiles per page of a category or search list: full rows at 2, 3, 4 and 6 columns. */
export const PAGE_SIZE = 12;

/** The order and cursor of a list page from its URL; an unknown order is the default one. */
export function listParams(url: URL): { sort: AppSort; cursor: string | undefined } {
  const sort = AppSortSchema.safeParse(url.searchParams.get('sort') ?? undefined);
  const cursor = url.searchParams.get('cursor') ?? undefined;
  return { sort: sort.success ? sort.data : 'popular', cursor: cursor && cursor.length <= 200 ? cursor : undefined };
}

/** Loads one page; a cursor that does not fit (edited, or from another order) sends the visitor to the first page. */
export async function loadPage(
  url: URL,
  cursor: string | undefined,
  load: () => Promise<{ items: AppPage['items']; nextCursor: string | null }>,
): Promise<AppPage> {
  try {
    const { items, nextCursor } = await load();
    return { cursor: cursor ?? null, items, nextCursor };
  } catch (error) {
    if (cursor && isValidationError(error)) {
      const first = new URL(url);
      first.searchParams.delete('cursor');
      throw redirect(sameOriginPath(first.pathname + first.search, '/'));
    }
    throw error;
  }
}
