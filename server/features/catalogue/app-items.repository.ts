import type { Kysely } from 'kysely';
import type { Database, ItemKind } from '#server/db/schema.ts';

/** An item of a game as its two writers give it: the catalogue import and the Studio's save. */
export interface AppItemWrite {
  sku: string;
  /** In minor units. */
  price: number;
  currency: string;
  kind: ItemKind;
  /** The item's name per locale. */
  names: Record<string, string | undefined>;
}

/**
 * Makes a game's items those listed, inside the caller's transaction. Items are changed in place
 * and never deleted: orders name them. One no longer listed stops being sold.
 */
export async function replaceAppItems(trx: Kysely<Database>, appId: number, items: AppItemWrite[], now: string): Promise<void> {
  for (const item of items) {
    const names = JSON.stringify(item.names);
    await trx
      .insertInto('app_items')
      .values({
        app_id: appId,
        sku: item.sku,
        price_minor: item.price,
        currency: item.currency,
        kind: item.kind,
        names,
        active: 1,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.columns(['app_id', 'sku']).doUpdateSet({ price_minor: item.price, currency: item.currency, kind: item.kind, names, active: 1, updated_at: now }),
      )
      .execute();
  }
  const listed = items.map((item) => item.sku);
  await trx
    .updateTable('app_items')
    .set({ active: 0, updated_at: now })
    .where('app_id', '=', appId)
    .where('active', '=', 1)
    .$if(listed.length > 0, (q) => q.where('sku', 'not in', listed))
    .execute();
}
