import { type Kysely, sql } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { executorOf, type UnitOfWork } from '#server/db/unit-of-work.ts';

export interface ScoreRow {
  user_id: number;
  score: number;
  achieved_at: string;
  nickname: string | null;
  is_guest: number;
}

export interface RankedRow extends ScoreRow {
  rank: number;
}

type Order = 'asc' | 'desc';
const flip = (order: Order): Order => (order === 'desc' ? 'asc' : 'desc');

/** Leaderboard scores, achievement unlocks and the backend secrets' bookkeeping of games (decision 092). */
export class RecordsRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** The JSON declarations of an app and whether it is published, or undefined. */
  declarations(appId: number): Promise<{ id: number; slug: string; leaderboards: string; achievements: string; published: number } | undefined> {
    return this.#db.selectFrom('apps').select(['id', 'slug', 'leaderboards', 'achievements', 'published']).where('id', '=', appId).executeTakeFirst();
  }

  /**
   * Keeps the better of the stored and the new score for each period, in one statement each: an
   * upsert whose update only applies when the new score is better, so submissions at once never
   * lose the best. Answers the best per period and whether this score became it.
   */
  async submitBest(
    appId: number,
    board: string,
    periods: string[],
    userId: number,
    score: number,
    order: Order,
    now: string,
  ): Promise<{ period: string; best: number; improved: boolean }[]> {
    const results = [];
    for (const period of periods) {
      const better = order === 'desc' ? sql<boolean>`excluded.score > leaderboard_scores.score` : sql<boolean>`excluded.score < leaderboard_scores.score`;
      const written = await this.#db
        .insertInto('leaderboard_scores')
        .values({ app_id: appId, board, period, user_id: userId, score, achieved_at: now })
        .onConflict((oc) =>
          oc
            .columns(['app_id', 'board', 'period', 'user_id'])
            .doUpdateSet({ score: sql<number>`excluded.score`, achieved_at: sql<string>`excluded.achieved_at` })
            .where(better),
        )
        .returning('score')
        .executeTakeFirst();
      if (written) {
        results.push({ period, best: score, improved: true });
        continue;
      }
      const stored = await this.#scores(appId, board, period).select('score').where('user_id', '=', userId).executeTakeFirstOrThrow();
      results.push({ period, best: stored.score, improved: false });
    }
    return results;
  }

  /** The best `limit` of a board's period, with ranks (ties share one; the earlier score is listed first). */
  async top(appId: number, board: string, period: string, order: Order, limit: number): Promise<RankedRow[]> {
    const rows = await this.#ordered(appId, board, period, order).limit(limit).execute();
    const ranked: RankedRow[] = [];
    for (const [i, row] of rows.entries()) {
      const previous = ranked[i - 1];
      ranked.push({ ...row, rank: previous && previous.score === row.score ? previous.rank : i + 1 });
    }
    return ranked;
  }

  /**
   * The player's row and up to `limit - 1` neighbours around it, in board order, with ranks; an
   * empty list when the player has no score in the period.
   */
  async around(
    appId: number,
    board: string,
    period: string,
    order: Order,
    userId: number,
    limit: number,
  ): Promise<{ me: RankedRow | null; rows: RankedRow[] }> {
    const mine = await this.#ordered(appId, board, period, order).where('s.user_id', '=', userId).executeTakeFirst();
    if (!mine) return { me: null, rows: [] };
    const better = order === 'desc' ? '>' : '<';
    const worse = order === 'desc' ? '<' : '>';
    // Rows ordered before the player (`side` '<') or after ('>'): a better (worse) score, or the same one set earlier (later).
    const beside = (side: '<' | '>') =>
      this.#ordered(appId, board, period, side === '<' ? flip(order) : order, side === '<')
        .where((eb) =>
          eb.or([
            eb('s.score', side === '<' ? better : worse, mine.score),
            eb.and([
              eb('s.score', '=', mine.score),
              eb.or([eb('s.achieved_at', side, mine.achieved_at), eb.and([eb('s.achieved_at', '=', mine.achieved_at), eb('s.user_id', side, mine.user_id)])]),
            ]),
          ]),
        )
        .limit(limit - 1)
        .execute();
    const before = await beside('<');
    const after = await beside('>');
    // Centred on the player where both sides have rows; a short side gives its room to the other.
    const half = Math.floor((limit - 1) / 2);
    const takeBefore = Math.min(before.length, Math.max(half, limit - 1 - after.length));
    const takeAfter = Math.min(after.length, limit - 1 - takeBefore);
    const window = [...before.slice(0, takeBefore).toReversed(), mine, ...after.slice(0, takeAfter)];
    const ranks = new Map<number, number>();
    for (const score of new Set(window.map((row) => row.score))) {
      const { n } = await this.#scores(appId, board, period)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('score', order === 'desc' ? '>' : '<', score)
        .executeTakeFirstOrThrow();
      ranks.set(score, Number(n) + 1);
    }
    const rows = window.map((row) => ({ ...row, rank: ranks.get(row.score)! }));
    return { me: rows.find((row) => row.user_id === userId)!, rows };
  }

  /** Records an unlock once: answers the unlock time and whether it is new (an upsert that does nothing when it exists). */
  async unlock(appId: number, achievement: string, userId: number, now: string): Promise<{ unlockedAt: string; newlyUnlocked: boolean }> {
    const inserted = await this.#db
      .insertInto('achievement_unlocks')
      .values({ app_id: appId, achievement, user_id: userId, unlocked_at: now })
      .onConflict((oc) => oc.columns(['app_id', 'achievement', 'user_id']).doNothing())
      .returning('unlocked_at')
      .executeTakeFirst();
    if (inserted) return { unlockedAt: inserted.unlocked_at, newlyUnlocked: true };
    const row = await this.#db
      .selectFrom('achievement_unlocks')
      .select('unlocked_at')
      .where('app_id', '=', appId)
      .where('achievement', '=', achievement)
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return { unlockedAt: row.unlocked_at, newlyUnlocked: false };
  }

  async unlocksOf(userId: number, appId?: number): Promise<{ app_id: number; achievement: string; unlocked_at: string }[]> {
    let query = this.#db.selectFrom('achievement_unlocks').select(['app_id', 'achievement', 'unlocked_at']).where('user_id', '=', userId);
    if (appId !== undefined) query = query.where('app_id', '=', appId);
    return query.orderBy('unlocked_at').orderBy('achievement').execute();
  }

  /** How many players unlocked each achievement of an app. */
  async unlockCounts(appId: number): Promise<Map<string, number>> {
    const rows = await this.#db
      .selectFrom('achievement_unlocks')
      .select(['achievement', (eb) => eb.fn.countAll<number>().as('players')])
      .where('app_id', '=', appId)
      .groupBy('achievement')
      .execute();
    return new Map(rows.map((row) => [row.achievement, Number(row.players)]));
  }

  /** Slug, thumbnail, declarations and title (in `locale`, else English) of apps. */
  async appsFor(appIds: number[], locale: string) {
    if (appIds.length === 0) return [];
    const apps = await this.#db.selectFrom('apps').select(['id', 'slug', 'thumbnail', 'achievements']).where('id', 'in', appIds).orderBy('id').execute();
    const titles = await this.#db
      .selectFrom('app_translations')
      .select(['app_id', 'locale', 'title'])
      .where('app_id', 'in', appIds)
      .where('locale', 'in', [locale, 'en'])
      .execute();
    const title = (id: number) => (titles.find((t) => t.app_id === id && t.locale === locale) ?? titles.find((t) => t.app_id === id))?.title ?? '';
    return apps.map((app) => ({ ...app, title: title(app.id) }));
  }

  async appIdBySlug(slug: string): Promise<number | undefined> {
    return (await this.#db.selectFrom('apps').select('id').where('slug', '=', slug).executeTakeFirst())?.id;
  }

  /** Remembers a signature until `expiresAt`; false when it was seen already (a replay). Old ones are deleted on the way. */
  async claimSignature(appId: number, signature: string, expiresAt: string, now: string): Promise<boolean> {
    await this.#db.deleteFrom('game_backend_calls').where('expires_at', '<', now).execute();
    const row = await this.#db
      .insertInto('game_backend_calls')
      .values({ app_id: appId, signature, expires_at: expiresAt })
      .onConflict((oc) => oc.columns(['app_id', 'signature']).doNothing())
      .returning('signature')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Removes a game's leaderboard scores and achievement unlocks (before its first release: preview tests). */
  async clearGame(appId: number, unit: UnitOfWork): Promise<void> {
    const db = executorOf(this.#db, unit);
    await db.deleteFrom('leaderboard_scores').where('app_id', '=', appId).execute();
    await db.deleteFrom('achievement_unlocks').where('app_id', '=', appId).execute();
  }

  /**
   * A guest's scores and unlocks, moved to a member in the guest merge's unit of work (decisions
   * 092 and 137): per board and period the better of the two stands (the board's order as the game
   * declares it; a board no longer declared keeps the member's); achievements join, each with the
   * earlier unlock time. Rows are taken in app order, so merges of two guests into one member lock
   * its rows in the same order (no deadlock on PostgreSQL).
   */
  /** Erases the member's achievements (decision 147); their scores stay, shown under the anonymous name. */
  async eraseMember(userId: number, unit: UnitOfWork): Promise<void> {
    await executorOf(this.#db, unit).deleteFrom('achievement_unlocks').where('user_id', '=', userId).execute();
  }

  async moveGuestRows(guestId: number, memberId: number, unit: UnitOfWork): Promise<void> {
    const db = executorOf(this.#db, unit);
    const scores = await db
      .selectFrom('leaderboard_scores')
      .selectAll()
      .where('user_id', '=', guestId)
      .orderBy('app_id')
      .orderBy('board')
      .orderBy('period')
      .execute();
    if (scores.length > 0) {
      const apps = await db
        .selectFrom('apps')
        .select(['id', 'leaderboards'])
        .where('id', 'in', [...new Set(scores.map((s) => s.app_id))])
        .execute();
      const orders = new Map(
        apps.flatMap((app) => (JSON.parse(app.leaderboards) as { id: string; order: Order }[]).map((b) => [`${app.id}:${b.id}`, b.order])),
      );
      for (const score of scores) {
        const order = orders.get(`${score.app_id}:${score.board}`);
        const better = order === 'asc' ? sql<boolean>`excluded.score < leaderboard_scores.score` : sql<boolean>`excluded.score > leaderboard_scores.score`;
        // The same score set earlier ranks first, so it keeps the earlier time.
        const earlier = sql<boolean>`(excluded.score = leaderboard_scores.score AND excluded.achieved_at < leaderboard_scores.achieved_at)`;
        await db
          .insertInto('leaderboard_scores')
          .values({ ...score, user_id: memberId })
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
    const unlocks = await db.selectFrom('achievement_unlocks').selectAll().where('user_id', '=', guestId).orderBy('app_id').orderBy('achievement').execute();
    for (const unlock of unlocks) {
      await db
        .insertInto('achievement_unlocks')
        .values({ ...unlock, user_id: memberId })
        .onConflict((oc) =>
          oc
            .columns(['app_id', 'achievement', 'user_id'])
            .doUpdateSet({ unlocked_at: sql<string>`excluded.unlocked_at` })
            .where(sql<boolean>`excluded.unlocked_at < achievement_unlocks.unlocked_at`),
        )
        .execute();
    }
  }

  #scores(appId: number, board: string, period: string) {
    return this.#db.selectFrom('leaderboard_scores').where('app_id', '=', appId).where('board', '=', board).where('period', '=', period);
  }

  /** A period's rows in board order: the better score first, then the earlier, then the lower user id (reversed with `reverse`). */
  #ordered(appId: number, board: string, period: string, order: Order, reverse = false) {
    const tie = reverse ? 'desc' : 'asc';
    return (
      this.#db
        .selectFrom('leaderboard_scores as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select(['s.user_id', 's.score', 's.achieved_at', 'u.nickname', 'u.is_guest'])
        // A closed account (decision 147) is hidden until it is restored or erased (then under an anonymous name).
        .where('u.deletion_requested_at', 'is', null)
        .where('s.app_id', '=', appId)
        .where('s.board', '=', board)
        .where('s.period', '=', period)
        .orderBy('s.score', order)
        .orderBy('s.achieved_at', tie)
        .orderBy('s.user_id', tie)
    );
  }

  /** A player's scores and achievements for "Download my data" (decision 144). */
  async personalDataOf(userId: number) {
    const [scores, achievements] = await Promise.all([
      this.#db
        .selectFrom('leaderboard_scores')
        .select(['app_id', 'board', 'period', 'score', 'achieved_at'])
        .where('user_id', '=', userId)
        .orderBy('app_id')
        .orderBy('board')
        .orderBy('period')
        .execute(),
      this.#db
        .selectFrom('achievement_unlocks')
        .select(['app_id', 'achievement', 'unlocked_at'])
        .where('user_id', '=', userId)
        .orderBy('app_id')
        .orderBy('achievement')
        .execute(),
    ]);
    return { scores, achievements };
  }
}
