import type { Expression, SelectQueryBuilder } from 'kysely';

/** How a list is ordered for keyset pagination: a sort value, then the id to break ties, one direction. */
export interface KeysetOrder {
  sort: string | Expression<unknown>;
  id: string;
  direction: 'asc' | 'desc';
}

/** The last row a client saw: its sort value (as the column holds it) and its id. */
export interface KeysetPosition {
  value: string | number;
  id: number;
}

/**
 * Orders `query` by (sort, id) and, after a position, keeps the rows past it. The caller asks for
 * one row more than it shows, to tell whether a next page exists.
 */
export function keysetPage<Q extends SelectQueryBuilder<any, any, any>>(query: Q, order: KeysetOrder, after: KeysetPosition | null): Q {
  const past = order.direction === 'desc' ? '<' : '>';
  // Kysely's builder types cannot follow a column named by a variable; the names are ours, never input.
  let q = query as SelectQueryBuilder<any, any, any>;
  if (after) {
    q = q.where((eb) => eb.or([eb(order.sort as any, past, after.value), eb.and([eb(order.sort as any, '=', after.value), eb(order.id, past, after.id)])]));
  }
  return q.orderBy(order.sort as any, order.direction).orderBy(order.id, order.direction) as Q;
}
