import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, EarningsStatementsTable } from '#server/db/schema.ts';

/** A month's entries of one kind, game and item, summed: a statement's line as stored. */
export interface StatementLineRow {
  kind: string;
  appId: number | null;
  itemId: number | null;
  entries: number;
  gross: number;
  deductions: number;
  platform: number;
  studio: number;
}

/** A closed statement as stored. */
export interface StatementRow {
  id: number;
  currency: string;
  month: string;
  opening: number;
  earned: number;
  refunded: number;
  corrections: number;
  payouts: number;
  closing: number;
  closedAt: string;
}

/** What `insertStatement` writes. */
export type NewStatement = Omit<StatementRow, 'id'> & { studioUserId: number };

/** A studio's pending amount in one currency: the studio account's lines still in their hold. */
export interface PendingSum {
  amount: number;
  first: string | null;
  last: string | null;
}

const num = (value: number | string | null | undefined): number => (value === null || value === undefined ? 0 : Number(value));

/** Entry kinds whose studio amounts a statement counts under each of its totals. */
export const STATEMENT_TOTALS = {
  earned: ['payment', 'provider-fee'],
  refunded: ['refund', 'chargeback'],
  corrections: ['correction'],
  payouts: ['payout', 'payout-sent', 'payout-failed', 'payout-returned'],
} as const;

/**
 * Studios' monthly statements (decision 149): reads the ledger's entries and lines and writes
 * `earnings_statements` and `earnings_statement_lines`, which the database keeps as written.
 * Every read of the ledger is bounded to one studio and currency and goes through an index that
 * starts with them (migrations 0040 and 0041), so a studio with millions of entries answers fast.
 */
export class StatementsRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** A studio's closed statements, oldest month first, per month by currency. */
  async statementsOf(studioUserId: number): Promise<StatementRow[]> {
    const rows = await this.#db
      .selectFrom('earnings_statements')
      .selectAll()
      .where('studio_user_id', '=', studioUserId)
      .orderBy('month')
      .orderBy('currency')
      .execute();
    return rows.map(statementRow);
  }

  /** The stored lines of a closed statement. */
  async linesOf(statementId: number): Promise<StatementLineRow[]> {
    const rows = await this.#db.selectFrom('earnings_statement_lines').selectAll().where('statement_id', '=', statementId).execute();
    return rows.map((row) => ({
      kind: row.kind,
      appId: row.app_id,
      itemId: row.item_id,
      entries: num(row.entries),
      gross: num(row.gross_minor),
      deductions: num(row.deductions_minor),
      platform: num(row.platform_minor),
      studio: num(row.studio_minor),
    }));
  }

  /**
   * The currencies a studio has entries in: one index probe per currency (a loose index scan
   * written as a recursive query), not a read of every entry.
   */
  async currenciesOf(studioUserId: number): Promise<string[]> {
    const result = await sql<{ currency: string }>`
      with recursive found(currency) as (
        select min(currency) from ledger_entries where studio_user_id = ${studioUserId}
        union all
        select (select min(e.currency) from ledger_entries e where e.studio_user_id = ${studioUserId} and e.currency > found.currency)
        from found where found.currency is not null
      )
      select currency from found where currency is not null`.execute(this.#db);
    return result.rows.map((row) => row.currency);
  }

  /** When a studio's first entry in a currency was posted; null without one. */
  async firstPostedAt(studioUserId: number, currency: string): Promise<string | null> {
    const row = await this.#db
      .selectFrom('ledger_entries')
      .select('posted_at')
      .where('studio_user_id', '=', studioUserId)
      .where('currency', '=', currency)
      .orderBy('posted_at')
      .limit(1)
      .executeTakeFirst();
    return row?.posted_at ?? null;
  }

  /**
   * A studio's entries in a currency posted in [from, to), summed per kind, game and item. The
   * halves of the range are summed at once on two connections and added up: a busy month is
   * hundreds of thousands of entries, and one index pass over them is one core's work.
   */
  async linesBetween(studioUserId: number, currency: string, from: string, to: string): Promise<StatementLineRow[]> {
    const middle = new Date((Date.parse(from) + Date.parse(to)) / 2).toISOString();
    const halves = await Promise.all([this.#linesBetween(studioUserId, currency, from, middle), this.#linesBetween(studioUserId, currency, middle, to)]);
    const byKey = new Map<string, StatementLineRow>();
    for (const row of halves.flat()) {
      const key = `${row.kind} ${row.appId} ${row.itemId}`;
      const sum = byKey.get(key);
      if (!sum) byKey.set(key, { ...row });
      else {
        sum.entries += row.entries;
        sum.gross += row.gross;
        sum.deductions += row.deductions;
        sum.platform += row.platform;
        sum.studio += row.studio;
      }
    }
    return [...byKey.values()];
  }

  async #linesBetween(studioUserId: number, currency: string, from: string, to: string): Promise<StatementLineRow[]> {
    const rows = await this.#db
      .selectFrom('ledger_entries')
      .select((eb) => [
        'kind',
        'app_id',
        'item_id',
        eb.fn.countAll<number | string>().as('entries'),
        eb.fn.sum<number | string>('gross_minor').as('gross'),
        eb.fn.sum<number | string>('deductions_minor').as('deductions'),
        eb.fn.sum<number | string>('platform_minor').as('platform'),
        eb.fn.sum<number | string>('studio_minor').as('studio'),
      ])
      .where('studio_user_id', '=', studioUserId)
      .where('currency', '=', currency)
      .where('posted_at', '>=', from)
      .where('posted_at', '<', to)
      .groupBy(['kind', 'app_id', 'item_id'])
      .execute();
    return rows.map((row) => ({
      kind: row.kind,
      appId: row.app_id,
      itemId: row.item_id,
      entries: num(row.entries),
      gross: num(row.gross),
      deductions: num(row.deductions),
      platform: num(row.platform),
      studio: num(row.studio),
    }));
  }

  /** What a studio's entries in a currency posted from `from` on (before `to` when given) added to its balance. */
  async studioSum(studioUserId: number, currency: string, from: string, to?: string): Promise<number> {
    let query = this.#db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.sum<number | string | null>('studio_minor').as('total'))
      .where('studio_user_id', '=', studioUserId)
      .where('currency', '=', currency)
      .where('posted_at', '>=', from);
    if (to !== undefined) query = query.where('posted_at', '<', to);
    return num((await query.executeTakeFirst())?.total);
  }

  /**
   * The studio account's lines in a currency still in their hold at `now`. The hold's rows are
   * summed in two ranges at once, split at `split` (the hold's middle), on two connections.
   */
  async pending(studioUserId: number, currency: string, now: string, split: string): Promise<PendingSum> {
    const [early, late] = await Promise.all([this.#held(studioUserId, currency, now, split), this.#held(studioUserId, currency, split, null)]);
    return { amount: early.amount + late.amount, first: early.first ?? late.first, last: late.last ?? early.last };
  }

  /** The studio account's lines available after `after` (and not after `until` when given). */
  async #held(studioUserId: number, currency: string, after: string, until: string | null): Promise<PendingSum> {
    let query = this.#db
      .selectFrom('ledger_lines')
      .select((eb) => [
        eb.fn.sum<number | string | null>('amount_minor').as('amount'),
        eb.fn.min<string | null>('available_at').as('first'),
        eb.fn.max<string | null>('available_at').as('last'),
      ])
      .where('studio_user_id', '=', studioUserId)
      .where('account', '=', 'studio')
      .where('currency', '=', currency)
      .where('available_at', '>', after);
    if (until !== null) query = query.where('available_at', '<=', until);
    const row = await query.executeTakeFirst();
    return { amount: num(row?.amount), first: row?.first ?? null, last: row?.last ?? null };
  }

  /** A studio's payouts in transit and paid out, per currency. */
  async payoutSums(studioUserId: number): Promise<{ currency: string; inTransit: number; paidOut: number }[]> {
    const rows = await this.#db
      .selectFrom('ledger_lines')
      .select((eb) => ['currency', 'account', eb.fn.sum<number | string>('amount_minor').as('total')])
      .where('studio_user_id', '=', studioUserId)
      .where('account', 'in', ['payouts-in-transit', 'payouts-sent'])
      .groupBy(['currency', 'account'])
      .execute();
    const byCurrency = new Map<string, { currency: string; inTransit: number; paidOut: number }>();
    for (const row of rows) {
      const sums = byCurrency.get(row.currency) ?? { currency: row.currency, inTransit: 0, paidOut: 0 };
      if (row.account === 'payouts-in-transit') sums.inTransit += num(row.total);
      else sums.paidOut += num(row.total);
      byCurrency.set(row.currency, sums);
    }
    return [...byCurrency.values()];
  }

  /**
   * Every studio and currency with entries, the month of the first one, and the latest month
   * closed: what the monthly closing walks.
   */
  async studioCurrencies(): Promise<{ studioUserId: number; currency: string; firstMonth: string; lastClosed: string | null }[]> {
    const [entries, closed] = await Promise.all([
      this.#db
        .selectFrom('ledger_entries')
        .select((eb) => ['studio_user_id', 'currency', eb.fn.min<string>('posted_at').as('first')])
        .where('studio_user_id', 'is not', null)
        .groupBy(['studio_user_id', 'currency'])
        .execute(),
      this.#db
        .selectFrom('earnings_statements')
        .select((eb) => ['studio_user_id', 'currency', eb.fn.max<string>('month').as('month')])
        .groupBy(['studio_user_id', 'currency'])
        .execute(),
    ]);
    const lastClosed = new Map(closed.map((row) => [`${row.studio_user_id} ${row.currency}`, row.month]));
    return entries.map((row) => ({
      studioUserId: row.studio_user_id!,
      currency: row.currency,
      firstMonth: row.first.slice(0, 7),
      lastClosed: lastClosed.get(`${row.studio_user_id} ${row.currency}`) ?? null,
    }));
  }

  /** The closing balance of a studio's closed month in a currency; undefined when it is not closed. */
  async closingOf(studioUserId: number, currency: string, month: string): Promise<number | undefined> {
    const row = await this.#db
      .selectFrom('earnings_statements')
      .select('closing_minor')
      .where('studio_user_id', '=', studioUserId)
      .where('currency', '=', currency)
      .where('month', '=', month)
      .executeTakeFirst();
    return row === undefined ? undefined : num(row.closing_minor);
  }

  /**
   * Writes a closed statement and its lines in one transaction, once: when the month is closed
   * already (another instance got there first), nothing is written and the answer is false.
   */
  async insertStatement(statement: NewStatement, lines: StatementLineRow[]): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('earnings_statements')
        .values({
          studio_user_id: statement.studioUserId,
          currency: statement.currency,
          month: statement.month,
          opening_minor: statement.opening,
          earned_minor: statement.earned,
          refunded_minor: statement.refunded,
          corrections_minor: statement.corrections,
          payouts_minor: statement.payouts,
          closing_minor: statement.closing,
          closed_at: statement.closedAt,
        })
        .onConflict((oc) => oc.columns(['studio_user_id', 'currency', 'month']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return false;
      if (lines.length > 0)
        await trx
          .insertInto('earnings_statement_lines')
          .values(
            lines.map((line) => ({
              statement_id: inserted.id,
              kind: line.kind,
              app_id: line.appId,
              item_id: line.itemId,
              entries: line.entries,
              gross_minor: line.gross,
              deductions_minor: line.deductions,
              platform_minor: line.platform,
              studio_minor: line.studio,
            })),
          )
          .execute();
      return true;
    });
  }

  /** Games' titles in `locale` (English, else the slug) and items' SKUs and names (JSON per locale), for statements' lines. */
  async namesOf(appIds: number[], itemIds: number[], locale: string) {
    const [games, items] = await Promise.all([
      appIds.length === 0
        ? []
        : this.#db
            .selectFrom('apps')
            .leftJoin('app_translations as local', (join) => join.onRef('local.app_id', '=', 'apps.id').on('local.locale', '=', locale))
            .leftJoin('app_translations as english', (join) => join.onRef('english.app_id', '=', 'apps.id').on('english.locale', '=', 'en'))
            .select(['apps.id', 'apps.slug', 'local.title as localTitle', 'english.title as englishTitle'])
            .where('apps.id', 'in', appIds)
            .execute(),
      itemIds.length === 0 ? [] : this.#db.selectFrom('app_items').select(['id', 'sku', 'names']).where('id', 'in', itemIds).execute(),
    ]);
    return {
      games: new Map(games.map((row) => [row.id, row.localTitle ?? row.englishTitle ?? row.slug])),
      items: new Map(items.map((row) => [row.id, { sku: row.sku, names: row.names }])),
    };
  }
}

function statementRow(row: Selectable<EarningsStatementsTable>): StatementRow {
  return {
    id: row.id,
    currency: row.currency,
    month: row.month,
    opening: num(row.opening_minor),
    earned: num(row.earned_minor),
    refunded: num(row.refunded_minor),
    corrections: num(row.corrections_minor),
    payouts: num(row.payouts_minor),
    closing: num(row.closing_minor),
    closedAt: row.closed_at,
  };
}
