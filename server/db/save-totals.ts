import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

/*
 * The per-member-and-game total of cloud-save bytes (migration 0009, decision 082), shared by the
 * writers of saves in the games repository: a save, a delete and the guest merge (a guest's saves
 * merged into a member, decision 137). Each calls these inside its own transaction.
 */

/**
 * Takes the member's total row for an app, creating it at 0, and answers the total. The upsert
 * locks the row until the transaction ends on PostgreSQL (a second save of the same member and
 * game waits here, then reads the total the first one left); SQLite runs one writer at a time.
 */
export async function lockSaveTotal(trx: Kysely<Database>, userId: number, appId: number): Promise<number> {
  const row = await trx
    .insertInto('game_save_totals')
    .values({ user_id: userId, app_id: appId, total: 0 })
    .onConflict((oc) => oc.columns(['user_id', 'app_id']).doUpdateSet({ total: sql<number>`game_save_totals.total` }))
    .returning('total')
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Writes the total of a row taken with lockSaveTotal. */
export async function setSaveTotal(trx: Kysely<Database>, userId: number, appId: number, total: number): Promise<void> {
  await trx.updateTable('game_save_totals').set({ total }).where('user_id', '=', userId).where('app_id', '=', appId).execute();
}
