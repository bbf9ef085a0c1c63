import { type Kysely, sql } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';
import type { LedgerAccount, LedgerEntryKind, LedgerPosting } from './ledger.ts';

/** What a posting is about: the order, game, item, studio or payout, and when. */
export interface PostingContext {
  sourceKey: string;
  currency: string;
  orderId?: number | null;
  appId?: number | null;
  itemId?: number | null;
  studioUserId: number | null;
  payoutId?: number | null;
  shareBp?: number | null;
  note?: string | null;
  postedAt: string;
  /** When held lines can be paid out. */
  heldUntil: string;
}

/** A studio's money in one currency (decision 149), in minor units. */
export interface StudioBalance {
  currency: string;
  available: number;
  pending: number;
  inTransit: number;
  paidOut: number;
}

/** The payment an order's refunds and fee are posted against. */
export interface PaymentEntry {
  id: number;
  gross: number;
  shareBp: number | null;
  studioUserId: number | null;
}

const STUDIO_ACCOUNTS: LedgerAccount[] = ['studio', 'payouts-in-transit', 'payouts-sent'];

/** The ledger (decision 149): entries and their lines, only ever inserted; the revenue terms. */
export class LedgerRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return inUnitOfWork(this.#db, work);
  }

  /** The studio that made a game (null: a house game). */
  async studioOfApp(appId: number, unit?: UnitOfWork): Promise<number | null> {
    const row = await executorOf(this.#db, unit).selectFrom('apps').select('developer_user_id').where('id', '=', appId).executeTakeFirst();
    return row?.developer_user_id ?? null;
  }

  /** The studio's share in force at `at`: the latest terms that started by then; undefined when none was set. */
  async shareAt(studioUserId: number, at: string, unit?: UnitOfWork): Promise<number | undefined> {
    const row = await executorOf(this.#db, unit)
      .selectFrom('revenue_terms')
      .select('share_bp')
      .where('studio_user_id', '=', studioUserId)
      .where('starts_at', '<=', at)
      .orderBy('starts_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row?.share_bp;
  }

  /** Records a studio's terms; pass the unit of work so an operator's audit entry commits with them. */
  async insertTerms(
    terms: { studioUserId: number; shareBp: number; startsAt: string; reason: string; setBy: number | null; now: string },
    unit?: UnitOfWork,
  ): Promise<void> {
    await executorOf(this.#db, unit)
      .insertInto('revenue_terms')
      .values({
        studio_user_id: terms.studioUserId,
        share_bp: terms.shareBp,
        starts_at: terms.startsAt,
        reason: terms.reason,
        set_by_user_id: terms.setBy,
        created_at: terms.now,
      })
      .execute();
  }

  /** A studio's terms, the newest start first. */
  termsOf(studioUserId: number) {
    return this.#db
      .selectFrom('revenue_terms')
      .select(['share_bp', 'starts_at', 'reason', 'created_at'])
      .where('studio_user_id', '=', studioUserId)
      .orderBy('starts_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** The payment entry of an order, if one was posted. */
  async paymentOf(orderId: number, unit?: UnitOfWork): Promise<PaymentEntry | undefined> {
    const row = await executorOf(this.#db, unit)
      .selectFrom('ledger_entries')
      .select(['id', 'gross_minor', 'share_bp', 'studio_user_id'])
      .where('order_id', '=', orderId)
      .where('kind', '=', 'payment')
      .executeTakeFirst();
    return row && { id: row.id, gross: row.gross_minor, shareBp: row.share_bp, studioUserId: row.studio_user_id };
  }

  /** What the order's refunds and chargebacks gave back so far, in minor units. */
  async refundedOf(orderId: number, unit?: UnitOfWork): Promise<number> {
    const row = await executorOf(this.#db, unit)
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.sum<string | number | null>('gross_minor').as('total'))
      .where('order_id', '=', orderId)
      .where('kind', 'in', ['refund', 'chargeback'])
      .executeTakeFirst();
    return -Number(row?.total ?? 0);
  }

  /**
   * Posts an entry and its lines once: a second posting with the same source key changes nothing
   * and answers false. Called inside the unit of work of the change that caused it.
   */
  async post(posting: LedgerPosting, context: PostingContext, unit: UnitOfWork): Promise<boolean> {
    const db = executorOf(this.#db, unit);
    const entry = await db
      .insertInto('ledger_entries')
      .values({
        source_key: context.sourceKey,
        kind: posting.kind,
        currency: context.currency,
        order_id: context.orderId ?? null,
        app_id: context.appId ?? null,
        item_id: context.itemId ?? null,
        studio_user_id: context.studioUserId,
        payout_id: context.payoutId ?? null,
        share_bp: context.shareBp ?? null,
        gross_minor: posting.gross,
        deductions_minor: posting.deductions,
        platform_minor: posting.platform,
        studio_minor: posting.studio,
        note: context.note ?? null,
        posted_at: context.postedAt,
      })
      .onConflict((oc) => oc.column('source_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!entry) return false;
    if (posting.lines.length > 0)
      await db
        .insertInto('ledger_lines')
        .values(
          posting.lines.map((l) => ({
            entry_id: entry.id,
            account: l.account,
            studio_user_id: STUDIO_ACCOUNTS.includes(l.account) ? context.studioUserId : null,
            currency: context.currency,
            amount_minor: l.amount,
            posted_at: context.postedAt,
            available_at: l.held ? context.heldUntil : context.postedAt,
          })),
        )
        .execute();
    return true;
  }

  /**
   * A studio's balances per currency at `now`, from its lines: available (the studio account's
   * lines past their hold), pending (still held), in transit, paid out. In `unit`, what a payout's
   * approval sees after it locked the payout.
   */
  async balances(studioUserId: number, now: string, unit?: UnitOfWork): Promise<StudioBalance[]> {
    const rows = await executorOf(this.#db, unit)
      .selectFrom('ledger_lines')
      .select(['currency', 'account'])
      .select(sql<string | number>`sum(case when account = 'studio' and available_at > ${now} then amount_minor else 0 end)`.as('held'))
      .select((eb) => eb.fn.sum<string | number>('amount_minor').as('total'))
      .where('studio_user_id', '=', studioUserId)
      .where('account', 'in', STUDIO_ACCOUNTS)
      .groupBy(['currency', 'account'])
      .execute();
    const byCurrency = new Map<string, StudioBalance>();
    for (const row of rows) {
      const balance = byCurrency.get(row.currency) ?? { currency: row.currency, available: 0, pending: 0, inTransit: 0, paidOut: 0 };
      const total = Number(row.total);
      if (row.account === 'studio') {
        balance.pending += Number(row.held);
        balance.available += total - Number(row.held);
      } else if (row.account === 'payouts-in-transit') balance.inTransit += total;
      else balance.paidOut += total;
      byCurrency.set(row.currency, balance);
    }
    return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
  }

  /** Forgets where a studio is paid (its erasure, decision 147); its ledger and payouts stay as accounting records. */
  async deletePayoutAccount(studioUserId: number, unit: UnitOfWork): Promise<void> {
    await executorOf(this.#db, unit).deleteFrom('payout_accounts').where('studio_user_id', '=', studioUserId).execute();
  }

  /** Every entry with its lines, in posting order: what the invariant tests and the reconciliation read. */
  async entries(filter: { studioUserId?: number; orderId?: number } = {}) {
    let query = this.#db.selectFrom('ledger_entries').selectAll();
    if (filter.studioUserId !== undefined) query = query.where('studio_user_id', '=', filter.studioUserId);
    if (filter.orderId !== undefined) query = query.where('order_id', '=', filter.orderId);
    const entries = await query.orderBy('id').execute();
    let lineQuery = this.#db.selectFrom('ledger_lines').innerJoin('ledger_entries', 'ledger_entries.id', 'ledger_lines.entry_id').selectAll('ledger_lines');
    if (filter.studioUserId !== undefined) lineQuery = lineQuery.where('ledger_entries.studio_user_id', '=', filter.studioUserId);
    if (filter.orderId !== undefined) lineQuery = lineQuery.where('ledger_entries.order_id', '=', filter.orderId);
    const lines = await lineQuery.orderBy('ledger_lines.id').execute();
    const linesOf = Map.groupBy(lines, (l) => l.entry_id);
    return entries.map((entry) => ({ ...entry, kind: entry.kind as LedgerEntryKind, lines: linesOf.get(entry.id) ?? [] }));
  }
}
