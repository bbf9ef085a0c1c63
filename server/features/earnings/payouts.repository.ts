import type { Kysely, Selectable } from 'kysely';
import type { Database, PayoutAccountsTable, PayoutsTable } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';

export type PayoutAccountRow = Selectable<PayoutAccountsTable>;
export type PayoutRow = Selectable<PayoutsTable>;

/** A payout's states (decision 149). */
export type PayoutStatus = 'proposed' | 'approved' | 'sent' | 'paid' | 'failed' | 'returned' | 'rejected';

/**
 * Where studios are paid and their payouts (decision 149): `payout_accounts` and `payouts`. A payout
 * that a worker works on is claimed by setting its `next_attempt_at` to the claim's end, in one
 * conditional UPDATE; later writes name that value, so two instances never both act on one payout.
 */
export class PayoutsRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return inUnitOfWork(this.#db, work);
  }

  account(studioUserId: number, unit?: UnitOfWork): Promise<PayoutAccountRow | undefined> {
    return executorOf(this.#db, unit).selectFrom('payout_accounts').selectAll().where('studio_user_id', '=', studioUserId).executeTakeFirst();
  }

  async saveAccount(row: PayoutAccountRow, unit: UnitOfWork): Promise<void> {
    const { studio_user_id: _, ...fields } = row;
    await executorOf(this.#db, unit)
      .insertInto('payout_accounts')
      .values(row)
      .onConflict((oc) => oc.column('studio_user_id').doUpdateSet(fields))
      .execute();
  }

  /** The studios that said where they are paid. */
  async studiosWithAccounts(): Promise<number[]> {
    const rows = await this.#db.selectFrom('payout_accounts').select('studio_user_id').orderBy('studio_user_id').execute();
    return rows.map((row) => row.studio_user_id);
  }

  /** Proposes a payout unless the studio has one for that currency and month already; answers whether it did. */
  async propose(
    payout: { publicId: string; studioUserId: number; currency: string; amount: number; method: string; month: string; now: string },
    unit: UnitOfWork,
  ): Promise<boolean> {
    const row = await executorOf(this.#db, unit)
      .insertInto('payouts')
      .values({
        public_id: payout.publicId,
        studio_user_id: payout.studioUserId,
        currency: payout.currency,
        amount_minor: payout.amount,
        status: 'proposed',
        method: payout.method,
        month: payout.month,
        proposed_at: payout.now,
        attempts: 0,
        updated_at: payout.now,
      })
      .onConflict((oc) => oc.columns(['studio_user_id', 'currency', 'month']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Ends a studio's proposals of earlier months in a currency that nobody approved: the new one holds their money. */
  async supersede(studioUserId: number, currency: string, month: string, now: string, unit: UnitOfWork): Promise<void> {
    await executorOf(this.#db, unit)
      .updateTable('payouts')
      .set({ status: 'rejected', failure: `superseded by the proposal of ${month}`, updated_at: now })
      .where('studio_user_id', '=', studioUserId)
      .where('currency', '=', currency)
      .where('month', '<', month)
      .where('status', '=', 'proposed')
      .execute();
  }

  /** The studio's payouts waiting for an operator. */
  proposedOf(studioUserId: number, unit?: UnitOfWork): Promise<PayoutRow[]> {
    return executorOf(this.#db, unit).selectFrom('payouts').selectAll().where('studio_user_id', '=', studioUserId).where('status', '=', 'proposed').execute();
  }

  /** Whether the studio has a payout approved and not yet sent. */
  async hasApproved(studioUserId: number, unit: UnitOfWork): Promise<boolean> {
    const row = await executorOf(this.#db, unit)
      .selectFrom('payouts')
      .select('id')
      .where('studio_user_id', '=', studioUserId)
      .where('status', '=', 'approved')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A proposal made again after its studio changed where it is paid: a new public id, so an approval of the old one finds nothing. */
  async repropose(id: number, publicId: string, method: string, now: string, unit: UnitOfWork): Promise<void> {
    await executorOf(this.#db, unit)
      .updateTable('payouts')
      .set({ public_id: publicId, method, proposed_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'proposed')
      .execute();
  }

  byPublicId(publicId: string, unit?: UnitOfWork): Promise<PayoutRow | undefined> {
    return executorOf(this.#db, unit).selectFrom('payouts').selectAll().where('public_id', '=', publicId).executeTakeFirst();
  }

  /** Moves a proposal on (approved or rejected) if it is still proposed; on PostgreSQL a second caller waits, then finds it moved. */
  async decide(
    publicId: string,
    decision: { status: 'approved'; operatorUserId: number; now: string } | { status: 'rejected'; reason: string; now: string },
    unit: UnitOfWork,
  ): Promise<boolean> {
    const result = await executorOf(this.#db, unit)
      .updateTable('payouts')
      .set(
        decision.status === 'approved'
          ? {
              status: 'approved',
              approved_by_user_id: decision.operatorUserId,
              approved_at: decision.now,
              next_attempt_at: decision.now,
              updated_at: decision.now,
            }
          : { status: 'rejected', failure: decision.reason, updated_at: decision.now },
      )
      .where('public_id', '=', publicId)
      .where('status', '=', 'proposed')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async setAmount(id: number, amount: number, unit: UnitOfWork): Promise<void> {
    await executorOf(this.#db, unit).updateTable('payouts').set({ amount_minor: amount }).where('id', '=', id).execute();
  }

  /** Claims up to `limit` payouts in `status` due by `now` until `claimUntil`; answers the claimed rows. */
  async claimDue(status: PayoutStatus, now: string, claimUntil: string, limit: number): Promise<PayoutRow[]> {
    return this.#db
      .updateTable('payouts')
      .set((eb) => ({ next_attempt_at: claimUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('payouts')
          .select('id')
          .where('status', '=', status)
          .where('next_attempt_at', 'is not', null)
          .where('next_attempt_at', '<=', now)
          .orderBy('next_attempt_at')
          .orderBy('id')
          .limit(limit),
      )
      .where('status', '=', status)
      .where('next_attempt_at', '<=', now)
      .returningAll()
      .execute();
  }

  /**
   * Moves a claimed payout from `from` to another state (or keeps it) with its fields, if the claim
   * is still ours; answers whether it did.
   */
  async settle(
    claim: { id: number; from: PayoutStatus; claimUntil: string },
    fields: {
      status?: PayoutStatus;
      sentAt?: string;
      settledAt?: string;
      reference?: string;
      failure?: string | null;
      attempts?: number;
      nextAttemptAt: string | null;
      now: string;
    },
    unit?: UnitOfWork,
  ): Promise<boolean> {
    const result = await executorOf(this.#db, unit)
      .updateTable('payouts')
      .set({
        ...(fields.status ? { status: fields.status } : {}),
        ...(fields.sentAt ? { sent_at: fields.sentAt } : {}),
        ...(fields.settledAt ? { settled_at: fields.settledAt } : {}),
        ...(fields.reference ? { provider_reference: fields.reference } : {}),
        ...(fields.failure !== undefined ? { failure: fields.failure } : {}),
        ...(fields.attempts !== undefined ? { attempts: fields.attempts } : {}),
        next_attempt_at: fields.nextAttemptAt,
        updated_at: fields.now,
      })
      .where('id', '=', claim.id)
      .where('status', '=', claim.from)
      .where('next_attempt_at', '=', claim.claimUntil)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Payouts for the Console, newest first, optionally in one state. */
  list(filter: { status?: PayoutStatus; studioUserId?: number; limit: number }): Promise<PayoutRow[]> {
    let query = this.#db.selectFrom('payouts').selectAll();
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.studioUserId !== undefined) query = query.where('studio_user_id', '=', filter.studioUserId);
    return query.orderBy('proposed_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
  }
}
