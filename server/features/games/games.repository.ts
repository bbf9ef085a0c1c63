import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

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
    return this.#db.selectFrom('game_saves').select(['key', 'value', 'size', 'updated_at']).where('user_id', '=', userId).where('app_id', '=', appId).where('key', '=', key).executeTakeFirst();
  }

  /**
   * Stores a value unless the app's saves would then exceed `maxTotal` bytes; answers false then.
   * The check and the write are one transaction, so two writes at once cannot both pass it.
   */
  async putSave(userId: number, appId: number, key: string, value: string, size: number, maxTotal: number, now: string): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const others = await trx
        .selectFrom('game_saves')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('total'))
        .where('user_id', '=', userId)
        .where('app_id', '=', appId)
        .where('key', '!=', key)
        .executeTakeFirst();
      if (Number(others?.total ?? 0) + size > maxTotal) return false;
      await trx
        .insertInto('game_saves')
        .values({ user_id: userId, app_id: appId, key, value, size, updated_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'app_id', 'key']).doUpdateSet({ value, size, updated_at: now }))
        .execute();
      return true;
    });
  }

  async deleteSave(userId: number, appId: number, key: string): Promise<void> {
    await this.#db.deleteFrom('game_saves').where('user_id', '=', userId).where('app_id', '=', appId).where('key', '=', key).execute();
  }

  async appExists(appId: number): Promise<boolean> {
    const row = await this.#db.selectFrom('apps').select('id').where('id', '=', appId).where('published', '=', 1).executeTakeFirst();
    return row !== undefined;
  }
}
