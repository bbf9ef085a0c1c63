import type { Kysely } from 'kysely';
import { lockSaveTotal, setSaveTotal } from '#server/db/save-totals.ts';
import type { Database } from '#server/db/schema.ts';
import { executorOf, type UnitOfWork } from '#server/db/unit-of-work.ts';

export interface SaveRow {
  key: string;
  value: string;
  size: number;
  updated_at: string;
}

/** Cloud saves: one row per member, app and key. */
export class GamesRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  findSave(userId: number, appId: number, key: string): Promise<SaveRow | undefined> {
    return this.#db
      .selectFrom('game_saves')
      .select(['key', 'value', 'size', 'updated_at'])
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .where('key', '=', key)
      .executeTakeFirst();
  }

  /**
   * Stores a value unless the app's saves would then exceed `maxTotal` bytes; answers false then.
   * The member's total row for the app is locked first and updated in the same transaction, so
   * saves at once, of any keys, pass the check one after the other (decision 082).
   */
  async putSave(userId: number, appId: number, key: string, value: string, size: number, maxTotal: number, now: string): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const total = await lockSaveTotal(trx, userId, appId);
      const old = await trx
        .selectFrom('game_saves')
        .select('size')
        .where('user_id', '=', userId)
        .where('app_id', '=', appId)
        .where('key', '=', key)
        .executeTakeFirst();
      const next = total - (old?.size ?? 0) + size;
      if (next > maxTotal) return false;
      await trx
        .insertInto('game_saves')
        .values({ user_id: userId, app_id: appId, key, value, size, updated_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'app_id', 'key']).doUpdateSet({ value, size, updated_at: now }))
        .execute();
      await setSaveTotal(trx, userId, appId, next);
      return true;
    });
  }

  async deleteSave(userId: number, appId: number, key: string): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      const total = await lockSaveTotal(trx, userId, appId);
      const removed = await trx
        .deleteFrom('game_saves')
        .where('user_id', '=', userId)
        .where('app_id', '=', appId)
        .where('key', '=', key)
        .returning('size')
        .executeTakeFirst();
      if (removed) await setSaveTotal(trx, userId, appId, total - removed.size);
    });
  }

  /** Whether the app is published; undefined when there is no such app. */
  async appPublished(appId: number): Promise<boolean | undefined> {
    const row = await this.#db.selectFrom('apps').select('published').where('id', '=', appId).executeTakeFirst();
    return row === undefined ? undefined : row.published === 1;
  }

  /**
   * A guest's saves, moved to a member in the guest merge's unit of work (decision 137). Per game,
   * the guest's saves newest first: the member's value of a key stays unless the guest's is newer,
   * and a save that would take the game past `maxSaveBytes` is left out (decision 082); like every
   * writer of saves it first takes the game's total row. Games are taken in app order, so merges of
   * two guests into one member lock its rows in the same order (no deadlock on PostgreSQL).
   * Answers how many saves were left out.
   */
  /** Erases the member's rows of this feature's tables in the erasure's unit of work (decision 147). */
  async eraseMember(userId: number, unit: UnitOfWork): Promise<void> {
    const db = executorOf(this.#db, unit);
    await db.deleteFrom('game_saves').where('user_id', '=', userId).execute();
    await db.deleteFrom('game_save_totals').where('user_id', '=', userId).execute();
  }

  async moveGuestSaves(guestId: number, memberId: number, maxSaveBytes: number, unit: UnitOfWork): Promise<number> {
    const db = executorOf(this.#db, unit);
    const saves = await db
      .selectFrom('game_saves')
      .selectAll()
      .where('user_id', '=', guestId)
      .orderBy('app_id')
      .orderBy('updated_at', 'desc')
      .orderBy('key')
      .execute();
    let dropped = 0;
    for (const appId of new Set(saves.map((s) => s.app_id))) {
      let total = await lockSaveTotal(db, memberId, appId);
      for (const save of saves.filter((s) => s.app_id === appId)) {
        const own = await db
          .selectFrom('game_saves')
          .select(['size', 'updated_at'])
          .where('user_id', '=', memberId)
          .where('app_id', '=', appId)
          .where('key', '=', save.key)
          .executeTakeFirst();
        if (own && own.updated_at >= save.updated_at) continue;
        const next = total - (own?.size ?? 0) + save.size;
        if (next > maxSaveBytes) {
          dropped += 1;
          continue;
        }
        await db
          .insertInto('game_saves')
          .values({ ...save, user_id: memberId })
          .onConflict((oc) => oc.columns(['user_id', 'app_id', 'key']).doUpdateSet({ value: save.value, size: save.size, updated_at: save.updated_at }))
          .execute();
        total = next;
      }
      await setSaveTotal(db, memberId, appId, total);
    }
    return dropped;
  }

  /** A player's cloud saves, whole, for "Download my data" (decision 144). */
  savesOf(userId: number) {
    return this.#db
      .selectFrom('game_saves')
      .select(['app_id', 'key', 'value', 'size', 'updated_at'])
      .where('user_id', '=', userId)
      .orderBy('app_id')
      .orderBy('key')
      .execute();
  }
}
