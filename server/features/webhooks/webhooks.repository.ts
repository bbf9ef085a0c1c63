import { type Kysely, type Selectable } from 'kysely';
import type { DatabaseKind } from '#server/db/client.ts';
import type { Database, GameWebhooksTable, WebhookDeliveriesTable } from '#server/db/schema.ts';
import { executorOf, type UnitOfWork } from '#server/db/unit-of-work.ts';

export type GameWebhookRow = Selectable<GameWebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** Games' webhooks and their outbox of deliveries (decision 100). */
export class WebhooksRepository {
  readonly #db: Kysely<Database>;
  readonly #kind: DatabaseKind;
  constructor(db: Kysely<Database>, kind: DatabaseKind) {
    this.#db = db;
    this.#kind = kind;
  }

  webhook(appId: number, unit?: UnitOfWork): Promise<GameWebhookRow | undefined> {
    return executorOf(this.#db, unit).selectFrom('game_webhooks').selectAll().where('app_id', '=', appId).executeTakeFirst();
  }

  /**
   * The games with a webhook URL whose backend knew a player (decision 147): the player played
   * them, bought in them, or holds a score, a save or items there. In app order.
   */
  async gamesThatKnew(userId: number, unit: UnitOfWork): Promise<number[]> {
    const db = executorOf(this.#db, unit);
    const rows = await db
      .selectFrom('game_webhooks as w')
      .select('w.app_id')
      .where('w.url', 'is not', null)
      .where((eb) =>
        eb.or([
          eb.exists(eb.selectFrom('played_games as p').select('p.app_id').whereRef('p.app_id', '=', 'w.app_id').where('p.user_id', '=', userId)),
          eb.exists(eb.selectFrom('orders as o').select('o.id').whereRef('o.app_id', '=', 'w.app_id').where('o.user_id', '=', userId)),
          eb.exists(eb.selectFrom('leaderboard_scores as s').select('s.app_id').whereRef('s.app_id', '=', 'w.app_id').where('s.user_id', '=', userId)),
          eb.exists(eb.selectFrom('game_saves as g').select('g.app_id').whereRef('g.app_id', '=', 'w.app_id').where('g.user_id', '=', userId)),
          eb.exists(eb.selectFrom('inventory as i').select('i.app_id').whereRef('i.app_id', '=', 'w.app_id').where('i.user_id', '=', userId)),
        ]),
      )
      .orderBy('w.app_id')
      .execute();
    return rows.map((row) => row.app_id);
  }

  /** Sets the URL (null removes it). Generation 0: no secret derived from APP_SECRET (decision 110). */
  async saveUrl(appId: number, url: string | null, now: string): Promise<GameWebhookRow> {
    return this.#db
      .insertInto('game_webhooks')
      .values({ app_id: appId, url, secret_generation: 0, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('app_id').doUpdateSet({ url, updated_at: now }))
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Adds a delivery to the outbox, in the transaction given (the order change's): nothing when
   * the same cause was queued before.
   */
  async enqueue(
    delivery: {
      appId: number;
      eventId: string;
      eventType: string;
      sourceKey: string;
      payload: string;
      now: string;
      /** Queued already claimed by a worker (sent at once by the caller). */
      lease?: { worker: string; until: string } | undefined;
    },
    unit?: UnitOfWork,
  ): Promise<DeliveryRow | undefined> {
    return executorOf(this.#db, unit)
      .insertInto('webhook_deliveries')
      .values({
        app_id: delivery.appId,
        event_id: delivery.eventId,
        event_type: delivery.eventType,
        source_key: delivery.sourceKey,
        payload: delivery.payload,
        status: 'pending',
        next_attempt_at: delivery.now,
        lease_until: delivery.lease?.until ?? null,
        leased_by: delivery.lease?.worker ?? null,
        last_attempt_at: null,
        last_status_code: null,
        last_response: null,
        last_error: null,
        delivered_at: null,
        created_at: delivery.now,
      })
      .onConflict((oc) => oc.column('source_key').doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Claims up to `limit` due deliveries for `worker` until `leaseUntil`: pending, due, and not
   * leased by a worker whose lease still runs. On PostgreSQL the candidates are locked with FOR
   * UPDATE SKIP LOCKED, so instances claiming at once take different rows, and the update names
   * the same conditions again. On SQLite it is one statement (writes run one at a time; a read
   * then a write in one transaction could not wait for another instance's write).
   */
  async claimDue(worker: string, now: string, leaseUntil: string, limit: number): Promise<DeliveryRow[]> {
    const claim = (db: Kysely<Database>, ids: number[] | null) =>
      db
        .updateTable('webhook_deliveries')
        .set({ lease_until: leaseUntil, leased_by: worker })
        .where('id', 'in', ids ?? due(db))
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .returningAll()
        .execute();
    const due = (db: Kysely<Database>) =>
      db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit);
    if (this.#kind === 'sqlite') return claim(this.#db, null);
    return this.#db.transaction().execute(async (trx) => {
      const candidates = await due(trx).forUpdate().skipLocked().execute();
      return candidates.length === 0
        ? []
        : claim(
            trx,
            candidates.map((c) => c.id),
          );
    });
  }

  /** Records an attempt's outcome, only while the worker still holds the lease. */
  async finishAttempt(
    id: number,
    worker: string,
    outcome: {
      status: 'pending' | 'delivered' | 'failed';
      attempts: number;
      nextAttemptAt: string;
      at: string;
      statusCode: number | null;
      response: string | null;
      error: string | null;
    },
  ): Promise<boolean> {
    const result = await this.#db
      .updateTable('webhook_deliveries')
      .set({
        status: outcome.status,
        attempts: outcome.attempts,
        next_attempt_at: outcome.nextAttemptAt,
        last_attempt_at: outcome.at,
        last_status_code: outcome.statusCode,
        last_response: outcome.response,
        last_error: outcome.error,
        lease_until: null,
        leased_by: null,
        ...(outcome.status === 'delivered' ? { delivered_at: outcome.at } : {}),
      })
      .where('id', '=', id)
      .where('leased_by', '=', worker)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Deletes finished deliveries (delivered, or given up) last tried before `before`, except each
   * game's newest `keepPerGame` (what the Studio's delivery log shows, whatever their age).
   * Pending ones are never deleted. Answers how many went.
   */
  async prune(before: string, keepPerGame: number): Promise<number> {
    const ranked = this.#db.selectFrom('webhook_deliveries').select((eb) => [
      'id',
      'status',
      'last_attempt_at',
      eb.fn
        .agg<number>('row_number')
        .over((ob) => ob.partitionBy('app_id').orderBy('id', 'desc'))
        .as('place'),
    ]);
    const result = await this.#db
      .deleteFrom('webhook_deliveries')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom(ranked.as('r'))
          .select('r.id')
          .where('r.place', '>', keepPerGame)
          .where('r.status', 'in', ['delivered', 'failed'])
          .where('r.last_attempt_at', '<', before),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** How many deliveries are pending and when the oldest was queued (one aggregate over the pending rows). */
  async pending(): Promise<{ depth: number | string; oldest: string | null }> {
    return this.#db
      .selectFrom('webhook_deliveries')
      .select((eb) => [eb.fn.countAll<number | string>().as('depth'), eb.fn.min<string | null>('created_at').as('oldest')])
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
  }

  /** A game's deliveries, newest first. */
  deliveries(appId: number, limit: number): Promise<DeliveryRow[]> {
    return this.#db.selectFrom('webhook_deliveries').selectAll().where('app_id', '=', appId).orderBy('id', 'desc').limit(limit).execute();
  }

  delivery(id: number): Promise<DeliveryRow | undefined> {
    return this.#db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
