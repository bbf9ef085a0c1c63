import type { Kysely, Selectable } from 'kysely';
import type { Database, MailOutboxTable } from '#server/db/schema.ts';
import { executorOf, type UnitOfWork } from '#server/db/unit-of-work.ts';

export type OutboxRow = Selectable<MailOutboxTable>;

/** `claimed_until` of a row no sender holds: before any time a sender reads. */
const UNCLAIMED = '1970-01-01T00:00:00.000Z';

/** The mail outbox (decision 141): the `mail` feature's one table. */
export class MailRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Queues one message, due at once; in `unit` it commits with the caller's change. */
  async enqueue(message: { recipient: string; locale: string; template: string; params: string; now: string }, unit?: UnitOfWork): Promise<number> {
    const row = await executorOf(this.#db, unit)
      .insertInto('mail_outbox')
      .values({
        recipient: message.recipient,
        locale: message.locale,
        template: message.template,
        params: message.params,
        status: 'pending',
        attempts: 0,
        next_attempt_at: message.now,
        claimed_until: UNCLAIMED,
        created_at: message.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * Claims up to `limit` due rows until `claimUntil`, in one UPDATE: a row is taken only while it is
   * pending, due and its last claim has run out. On PostgreSQL a sender claiming the same row at once
   * waits for the first one's update, then finds the claim taken and leaves the row; SQLite writes one
   * at a time. `claimUntil` is the claim's token: later writes name it.
   */
  /** Erases mail to an erased member's addresses (decision 147), waiting or sent, in the erasure's unit of work. */
  async eraseRecipients(recipients: string[], unit: UnitOfWork): Promise<void> {
    if (recipients.length === 0) return;
    await executorOf(this.#db, unit).deleteFrom('mail_outbox').where('recipient', 'in', recipients).execute();
  }

  async claimDue(now: string, claimUntil: string, limit: number): Promise<OutboxRow[]> {
    return this.#db
      .updateTable('mail_outbox')
      .set({ claimed_until: claimUntil })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('mail_outbox')
          .select('id')
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          .where('claimed_until', '<', now)
          .orderBy('next_attempt_at')
          .orderBy('id')
          .limit(limit),
      )
      .where('status', '=', 'pending')
      .where('claimed_until', '<', now)
      .returningAll()
      .execute();
  }

  /** The row went out: kept as sent until the retention removes it. */
  async markSent(id: number, claimUntil: string, now: string): Promise<void> {
    await this.#db
      .updateTable('mail_outbox')
      .set({ status: 'sent', sent_at: now, attempts: (eb) => eb('attempts', '+', 1), last_error: null })
      .where('id', '=', id)
      .where('claimed_until', '=', claimUntil)
      .execute();
  }

  /** An attempt failed: try again at `nextAttemptAt`, or, with null, give up and keep the row as failed. */
  async markFailed(id: number, claimUntil: string, error: string, nextAttemptAt: string | null, now: string): Promise<void> {
    await this.#db
      .updateTable('mail_outbox')
      .set({
        status: nextAttemptAt === null ? 'failed' : 'pending',
        attempts: (eb) => eb('attempts', '+', 1),
        last_error: error.slice(0, 1000),
        next_attempt_at: nextAttemptAt ?? now,
        // The claim ends: the backoff alone decides when the row is due again.
        claimed_until: UNCLAIMED,
      })
      .where('id', '=', id)
      .where('claimed_until', '=', claimUntil)
      .execute();
  }

  /** How many messages are pending and when the oldest was queued (one aggregate over the pending rows). */
  async pending(): Promise<{ depth: number | string; oldest: string | null }> {
    return this.#db
      .selectFrom('mail_outbox')
      .select((eb) => [eb.fn.countAll<number | string>().as('depth'), eb.fn.min<string | null>('created_at').as('oldest')])
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
  }

  /** Removes rows sent before `sentBefore` and rows given up before `failedBefore`; answers how many went. */
  async removeDone(sentBefore: string, failedBefore: string): Promise<number> {
    const result = await this.#db
      .deleteFrom('mail_outbox')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'sent'), eb('sent_at', '<', sentBefore)]),
          // A failed row's next_attempt_at is when it was given up.
          eb.and([eb('status', '=', 'failed'), eb('next_attempt_at', '<', failedBefore)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async byId(id: number): Promise<OutboxRow | undefined> {
    return this.#db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
