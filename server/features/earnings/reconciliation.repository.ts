import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

/** An order as the provider's report names it: by our public id (its external id) or the provider's transaction id. */
export interface ReconciledOrder {
  id: number;
  publicId: string;
  transactionId: string | null;
  currency: string;
}

/** What the ledger holds of an order, in minor units of `currency`. */
export interface OrderMoney {
  currency: string;
  /** The payment entry's gross; null when the ledger has no payment of the order. */
  paid: number | null;
  paidAt: string | null;
  /** The provider-fee entry's deductions (0: none posted). */
  fee: number;
  /** What refunds and chargebacks gave back. */
  refunded: number;
}

/** Lists of ids are asked in pieces, well under every database's limit of bound parameters. */
const CHUNK = 500;

function chunks<T>(values: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(values.slice(i, i + CHUNK));
  return out;
}

/** Reads the ledger and the orders it was posted for, for the reconciliation with the provider's report (decision 149). */
export class ReconciliationRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Orders whose public id or provider transaction id is among these. */
  async ordersByReference(publicIds: string[], transactionIds: string[]): Promise<ReconciledOrder[]> {
    const rows = new Map<number, ReconciledOrder>();
    const select = () => this.#db.selectFrom('orders').select(['id', 'public_id', 'provider_transaction_id', 'currency']);
    const add = (found: { id: number; public_id: string; provider_transaction_id: string | null; currency: string }[]) => {
      for (const r of found) rows.set(r.id, { id: r.id, publicId: r.public_id, transactionId: r.provider_transaction_id, currency: r.currency });
    };
    for (const part of chunks([...new Set(publicIds)])) add(await select().where('public_id', 'in', part).execute());
    for (const part of chunks([...new Set(transactionIds)])) add(await select().where('provider_transaction_id', 'in', part).execute());
    return [...rows.values()];
  }

  /** Orders with a payment entry posted in [from, to) (instants), or every one without bounds. */
  async ordersPaidBetween(from: string | null, to: string | null): Promise<ReconciledOrder[]> {
    let query = this.#db
      .selectFrom('ledger_entries')
      .innerJoin('orders', 'orders.id', 'ledger_entries.order_id')
      .select(['orders.id', 'orders.public_id', 'orders.provider_transaction_id', 'orders.currency'])
      .where('ledger_entries.kind', '=', 'payment');
    if (from !== null) query = query.where('ledger_entries.posted_at', '>=', from);
    if (to !== null) query = query.where('ledger_entries.posted_at', '<', to);
    const rows = await query.orderBy('ledger_entries.id').execute();
    return rows.map((r) => ({ id: r.id, publicId: r.public_id, transactionId: r.provider_transaction_id, currency: r.currency }));
  }

  /** The ledger's payment, fee and refunds of each of these orders. */
  async moneyOf(orderIds: number[]): Promise<Map<number, OrderMoney>> {
    const money = new Map<number, OrderMoney>();
    for (const part of chunks([...new Set(orderIds)])) {
      const rows = await this.#db
        .selectFrom('ledger_entries')
        .select(['order_id', 'kind', 'currency'])
        .select((eb) => [
          eb.fn.sum<string | number>('gross_minor').as('gross'),
          eb.fn.sum<string | number>('deductions_minor').as('deductions'),
          eb.fn.min<string>('posted_at').as('posted_at'),
        ])
        .where('order_id', 'in', part)
        .where('kind', 'in', ['payment', 'provider-fee', 'refund', 'chargeback'])
        .groupBy(['order_id', 'kind', 'currency'])
        .execute();
      for (const row of rows) {
        const id = row.order_id!;
        const entry = money.get(id) ?? { currency: row.currency, paid: null, paidAt: null, fee: 0, refunded: 0 };
        if (row.kind === 'payment') {
          entry.paid = Number(row.gross);
          entry.paidAt = row.posted_at;
          entry.currency = row.currency;
        } else if (row.kind === 'provider-fee') entry.fee += Number(row.deductions);
        // A refund's gross is what the buyer got back, negative.
        else entry.refunded -= Number(row.gross);
        money.set(id, entry);
      }
    }
    return money;
  }
}
