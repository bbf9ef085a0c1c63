import { type Kysely, sql, type Transaction } from 'kysely';
import { lockSaveTotal, setSaveTotal } from '#server/db/save-totals.ts';
import type { Database } from '#server/db/schema.ts';

/** What a merge did: `merged` is false when there was no guest to merge (not a guest, gone, or the same account). */
export interface GuestMergeResult {
  merged: boolean;
  /** Guest saves left out because the account's quota for their game was full (decision 082). */
  droppedSaves: number;
}

/**
 * The guest merge (decision 063): everything a guest account holds, in every feature's tables,
 * moved into the account a sign-in reached, and the guest deleted with its tokens, in one
 * transaction. It lives with the accounts feature because what a guest holds is an account
 * matter (the same tables decide whether a guest is empty, in UsersRepository); the tables are
 * keyed by the user id and must change together or not at all.
 */
export class GuestMergeRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Whether an operator disabled the account (decision 098). */
  async isDisabled(userId: number): Promise<boolean> {
    const row = await this.#db.selectFrom('users').select('disabled_at').where('id', '=', userId).executeTakeFirst();
    return row?.disabled_at != null;
  }

  /**
   * Moves a guest's played games, favourites, cloud saves and orders into another account and
   * deletes the guest. Plays add up, the earlier first play and the later last play stand;
   * a favourite both have stays once; a save key both have keeps the newer value, and saves stay
   * within `maxSaveBytes` a game, newest first; orders move as they are; quantities of a
   * consumable add up (decision 091). Two merges of one guest
   * at once: the first claims the guest row (a row lock on PostgreSQL, one writer on SQLite) and
   * the second, once it commits, finds no guest and merges nothing.
   */
  async mergeGuestInto(guestId: number, targetId: number, maxSaveBytes: number): Promise<GuestMergeResult> {
    if (guestId === targetId) return { merged: false, droppedSaves: 0 };
    return this.#db.transaction().execute(async (trx) => {
      // An update rather than a read: it locks the row until commit, and a merge waiting on it
      // re-reads the row and finds it deleted.
      const claimed = await trx
        .updateTable('users')
        .set({ is_guest: 1 })
        .where('id', '=', guestId)
        .where('is_guest', '=', 1)
        .returning('id')
        .executeTakeFirst();
      if (!claimed) return { merged: false, droppedSaves: 0 };
      await mergePlays(trx, guestId, targetId);
      await mergeFavourites(trx, guestId, targetId);
      const droppedSaves = await mergeSaves(trx, guestId, targetId, maxSaveBytes);
      await moveOrders(trx, guestId, targetId);
      await mergeInventory(trx, guestId, targetId);
      await moveConsumptions(trx, guestId, targetId);
      await mergeScores(trx, guestId, targetId);
      await mergeUnlocks(trx, guestId, targetId);
      await trx.deleteFrom('users').where('id', '=', guestId).execute();
      return { merged: true, droppedSaves };
    });
  }
}

// Rows are taken in app order, so merges of two guests into one account lock its rows in the
// same order and cannot deadlock each other on PostgreSQL.

async function mergePlays(trx: Transaction<Database>, guestId: number, targetId: number): Promise<void> {
  const plays = await trx.selectFrom('played_games').selectAll().where('user_id', '=', guestId).orderBy('app_id').execute();
  for (const play of plays) {
    await trx
      .insertInto('played_games')
      .values({ ...play, user_id: targetId })
      .onConflict((oc) =>
        oc.columns(['user_id', 'app_id']).doUpdateSet({
          play_count: sql`played_games.play_count + ${play.play_count}`,
          first_played_at: sql`CASE WHEN played_games.first_played_at < ${play.first_played_at} THEN played_games.first_played_at ELSE ${play.first_played_at} END`,
          last_played_at: sql`CASE WHEN played_games.last_played_at > ${play.last_played_at} THEN played_games.last_played_at ELSE ${play.last_played_at} END`,
        }),
      )
      .execute();
  }
}

async function mergeFavourites(trx: Transaction<Database>, guestId: number, targetId: number): Promise<void> {
  const favourites = await trx.selectFrom('favourites').selectAll().where('user_id', '=', guestId).orderBy('app_id').execute();
  for (const favourite of favourites) {
    await trx
      .insertInto('favourites')
      .values({ ...favourite, user_id: targetId })
      .onConflict((oc) => oc.columns(['user_id', 'app_id']).doNothing())
      .execute();
  }
}

/**
 * Per game, the guest's saves newest first: the account's value of a key stays unless the
 * guest's is newer, and a save that would take the game past the quota is left out (decision
 * 082). Every writer of saves first takes the game's total row (server/db/save-totals.ts).
 * Answers how many were left out.
 */
async function mergeSaves(trx: Transaction<Database>, guestId: number, targetId: number, maxSaveBytes: number): Promise<number> {
  const saves = await trx
    .selectFrom('game_saves')
    .selectAll()
    .where('user_id', '=', guestId)
    .orderBy('app_id')
    .orderBy('updated_at', 'desc')
    .orderBy('key')
    .execute();
  let dropped = 0;
  for (const appId of new Set(saves.map((s) => s.app_id))) {
    let total = await lockSaveTotal(trx, targetId, appId);
    for (const save of saves.filter((s) => s.app_id === appId)) {
      const own = await trx
        .selectFrom('game_saves')
        .select(['size', 'updated_at'])
        .where('user_id', '=', targetId)
        .where('app_id', '=', appId)
        .where('key', '=', save.key)
        .executeTakeFirst();
      if (own && own.updated_at >= save.updated_at) continue;
      const next = total - (own?.size ?? 0) + save.size;
      if (next > maxSaveBytes) {
        dropped += 1;
        continue;
      }
      await trx
        .insertInto('game_saves')
        .values({ ...save, user_id: targetId })
        .onConflict((oc) => oc.columns(['user_id', 'app_id', 'key']).doUpdateSet({ value: save.value, size: save.size, updated_at: save.updated_at }))
        .execute();
      total = next;
    }
    await setSaveTotal(trx, targetId, appId, total);
  }
  return dropped;
}

/**
 * Orders are never deleted (decision 064) and their rows would block the guest's deletion, so
 * they move. Buying needs a member account, so a guest holds none today; the move keeps the merge
 * whole should that change. A key the account already used gets the order's id appended: keys
 * only recognise a retried checkout request.
 */
async function moveOrders(trx: Transaction<Database>, guestId: number, targetId: number): Promise<void> {
  await trx
    .updateTable('orders')
    .set({ user_id: targetId, idempotency_key: sql<string>`orders.idempotency_key || ':' || CAST(orders.id AS TEXT)` })
    .where('user_id', '=', guestId)
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('orders as own').select('own.id').where('own.user_id', '=', targetId).whereRef('own.idempotency_key', '=', 'orders.idempotency_key')),
    )
    .execute();
  await trx.updateTable('orders').set({ user_id: targetId }).where('user_id', '=', guestId).execute();
}

/** A consumable both hold: the quantities add up (decision 091); the guest's rows go with the guest. */
async function mergeInventory(trx: Transaction<Database>, guestId: number, targetId: number): Promise<void> {
  const held = await trx.selectFrom('inventory').selectAll().where('user_id', '=', guestId).orderBy('app_id').orderBy('item_id').execute();
  for (const row of held) {
    await trx
      .insertInto('inventory')
      .values({ ...row, user_id: targetId })
      .onConflict((oc) =>
        oc.columns(['user_id', 'item_id']).doUpdateSet({
          quantity: sql<number>`inventory.quantity + ${row.quantity}`,
          updated_at: sql<string>`CASE WHEN inventory.updated_at > ${row.updated_at} THEN inventory.updated_at ELSE ${row.updated_at} END`,
        }),
      )
      .execute();
  }
}

/**
 * The guest's consumptions stay answerable by their keys in the account (a game retrying a
 * consume after the sign-in takes nothing twice); a key the account used already keeps the account's.
 */
async function moveConsumptions(trx: Transaction<Database>, guestId: number, targetId: number): Promise<void> {
  await trx
    .deleteFrom('item_consumptions')
    .where('user_id', '=', guestId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('item_consumptions as own')
          .select('own.id')
          .where('own.user_id', '=', targetId)
          .whereRef('own.idempotency_key', '=', 'item_consumptions.idempotency_key'),
      ),
    )
    .execute();
  await trx.updateTable('item_consumptions').set({ user_id: targetId }).where('user_id', '=', guestId).execute();
}

/**
 * Leaderboard scores (decision 092): per board and period the better of the two stands (the
 * board's order as the game declares it; a board no longer declared keeps the account's).
 * Achievements join, each with the earlier unlock time.
 */
async function mergeScores(trx: Transaction<Database>, guestId: number, targetId: number): Promise<void> {
  const scores = await trx
    .selectFrom('leaderboard_scores')
    .selectAll()
    .where('user_id', '=', guestId)
    .orderBy('app_id')
    .orderBy('board')
    .orderBy('period')
    .execute();
  if (scores.length === 0) return;
  const apps = await trx
    .selectFrom('apps')
    .select(['id', 'leaderboards'])
    .where('id', 'in', [...new Set(scores.map((s) => s.app_id))])
    .execute();
  const orders = new Map(
    apps.flatMap((app) => (JSON.parse(app.leaderboards) as { id: string; order: 'asc' | 'desc' }[]).map((b) => [`${app.id}:${b.id}`, b.order])),
  );
  for (const score of scores) {
    const order = orders.get(`${score.app_id}:${score.board}`);
    const better = order === 'asc' ? sql<boolean>`excluded.score < leaderboard_scores.score` : sql<boolean>`excluded.score > leaderboard_scores.score`;
    // The same score set earlier ranks first, so it keeps the earlier time.
    const earlier = sql<boolean>`(excluded.score = leaderboard_scores.score AND excluded.achieved_at < leaderboard_scores.achieved_at)`;
    await trx
      .insertInto('leaderboard_scores')
      .values({ ...score, user_id: targetId })
      .onConflict((oc) =>
        order === undefined
          ? oc.columns(['app_id', 'board', 'period', 'user_id']).doNothing()
          : oc
              .columns(['app_id', 'board', 'period', 'user_id'])
              .doUpdateSet({ score: sql<number>`excluded.score`, achieved_at: sql<string>`excluded.achieved_at` })
              .where(sql<boolean>`${better} OR ${earlier}`),
      )
      .execute();
  }
}

async function mergeUnlocks(trx: Transaction<Database>, guestId: number, targetId: number): Promise<void> {
  const unlocks = await trx.selectFrom('achievement_unlocks').selectAll().where('user_id', '=', guestId).orderBy('app_id').orderBy('achievement').execute();
  for (const unlock of unlocks) {
    await trx
      .insertInto('achievement_unlocks')
      .values({ ...unlock, user_id: targetId })
      .onConflict((oc) =>
        oc
          .columns(['app_id', 'achievement', 'user_id'])
          .doUpdateSet({ unlocked_at: sql<string>`excluded.unlocked_at` })
          .where(sql<boolean>`excluded.unlocked_at < achievement_unlocks.unlocked_at`),
      )
      .execute();
  }
}
