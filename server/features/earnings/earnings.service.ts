import type { EarningsBalance, EarningsOverview, EarningsStatement, StatementLine, StatementMonth } from '#common/api/earnings.schema.ts';
import type { Locale } from '#common/locales.ts';
import { majorUnitsText } from '#common/money.ts';
import type { EarningsConfig } from '#server/config/earnings.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { csvText } from '#server/lib/csv.ts';
import { PeriodicWork } from '#server/lib/periodic-work.ts';
import { WHOLE_BP } from './ledger.ts';
import type { LedgerRepository, StudioBalance } from './ledger.repository.ts';
import { monthEnd, monthOf, monthsBetween, monthStart, nextMonth, previousMonth } from './statement-months.ts';
import { type PendingSum, STATEMENT_TOTALS, type StatementLineRow, type StatementRow, type StatementsRepository } from './statements.repository.ts';

/**
 * A month is closed this long after it ended, not at once: an entry is posted with the time its
 * change began, so a change that began before midnight and committed just after must still land
 * in the month it names before that month is frozen.
 */
export const CLOSE_GRACE_MS = 10 * 60 * 1000;

const DAY_MS = 86_400_000;

/** The Studio's check of its caller (the developers' service): their user id, 401 or 403 otherwise. */
export interface StudioGate {
  requireDeveloper(caller: Caller | null): Promise<number>;
}

/** A month not closed yet, as the ledger has it now. */
interface OpenMonth {
  month: string;
  opening: number;
  closing: number;
}

/** One currency of a studio: its closed statements' latest, and the months after it. */
interface CurrencyState {
  currency: string;
  lastClosed: StatementRow | undefined;
  open: OpenMonth[];
  /** The studio account's balance now: the last closing and everything posted since. */
  total: number;
  /** What of it is still in the hold, when asked for. */
  pending: PendingSum | undefined;
}

/** A statement's totals from its lines: what each group of kinds added to the balance. */
export function totalsOf(lines: readonly StatementLineRow[]) {
  const sum = (kinds: readonly string[]) => lines.filter((line) => kinds.includes(line.kind)).reduce((total, line) => total + line.studio, 0);
  return {
    earned: sum(STATEMENT_TOTALS.earned),
    refunded: sum(STATEMENT_TOTALS.refunded),
    corrections: sum(STATEMENT_TOTALS.corrections),
    payouts: sum(STATEMENT_TOTALS.payouts),
  };
}

const KIND_ORDER: readonly string[] = [
  'payment',
  'provider-fee',
  'refund',
  'chargeback',
  'correction',
  'payout',
  'payout-sent',
  'payout-failed',
  'payout-returned',
];

function itemName(names: string | null, locale: string, sku: string): string {
  if (!names) return sku;
  try {
    const parsed = JSON.parse(names) as Record<string, string | undefined>;
    return parsed[locale] ?? parsed.en ?? sku;
  } catch {
    return sku;
  }
}

const CSV_HEADER = ['month', 'currency', 'kind', 'game', 'item_sku', 'entries', 'gross', 'fees_and_taxes', 'platform', 'studio'];

/**
 * Studios' balances and monthly statements (decision 149). A month is closed once, after it ended,
 * per studio and currency and in order: its totals and lines per kind, game and item are written
 * and never changed; what is posted later lands in the month it is posted in. A balance is the
 * latest closed month's closing plus what was posted since, so it costs one month of entries at
 * most, however long the studio's history.
 */
export class EarningsService {
  readonly #repository: StatementsRepository;
  readonly #ledger: LedgerRepository;
  readonly #config: EarningsConfig;
  readonly #clock: Clock;
  readonly #studio: StudioGate;
  readonly #closer = new PeriodicWork(() => this.closeMonths(isoNow(this.#clock)));

  constructor(deps: { repository: StatementsRepository; ledger: LedgerRepository; config: EarningsConfig; clock: Clock; studio: StudioGate }) {
    this.#repository = deps.repository;
    this.#ledger = deps.ledger;
    this.#config = deps.config;
    this.#clock = deps.clock;
    this.#studio = deps.studio;
  }

  /** Closes ended months every `intervalMs` until `stop()`. */
  start(intervalMs: number, onError: (error: unknown) => void): void {
    this.#closer.start(intervalMs, onError);
  }

  stop(): Promise<void> {
    return this.#closer.stop();
  }

  /**
   * Closes, for every studio and currency with entries, each month that ended (at least
   * `CLOSE_GRACE_MS` before `now`) and is not closed, oldest first, months without entries too,
   * so that each opening is the month before's closing. Safe to run on several instances at
   * once: a month is written once (unique per studio, currency and month), the other instance's
   * attempt writes nothing. Answers how many statements this call wrote.
   */
  async closeMonths(now: string): Promise<number> {
    const lastClosable = previousMonth(monthOf(new Date(Date.parse(now) - CLOSE_GRACE_MS).toISOString()));
    let written = 0;
    for (const pair of await this.#repository.studioCurrencies()) {
      const first = pair.lastClosed === null ? pair.firstMonth : nextMonth(pair.lastClosed);
      for (const month of monthsBetween(first, lastClosable)) {
        const opening = month === pair.firstMonth ? 0 : await this.#repository.closingOf(pair.studioUserId, pair.currency, previousMonth(month));
        // Months close in order; without the month before (an instance still writing it), the next round goes on.
        if (opening === undefined) break;
        const lines = await this.#repository.linesBetween(pair.studioUserId, pair.currency, monthStart(month), monthEnd(month));
        const totals = totalsOf(lines);
        const closing = opening + totals.earned + totals.refunded + totals.corrections + totals.payouts;
        const inserted = await this.#repository.insertStatement(
          { studioUserId: pair.studioUserId, currency: pair.currency, month, opening, ...totals, closing, closedAt: now },
          lines,
        );
        if (inserted) written += 1;
      }
    }
    return written;
  }

  /** A studio's money per currency now, as `LedgerRepository.balances` counts it, from its statements and the entries since. */
  async balances(studioUserId: number): Promise<StudioBalance[]> {
    return (await this.#balances(studioUserId, isoNow(this.#clock))).map((b) => ({
      currency: b.currency,
      available: b.availableMinor,
      pending: b.pendingMinor,
      inTransit: b.inTransitMinor,
      paidOut: b.paidOutMinor,
    }));
  }

  /** A studio's statements, the newest month first: the closed ones as stored, the months after them as they stand now. */
  async months(studioUserId: number): Promise<StatementMonth[]> {
    return this.#monthsOf(await this.#states(studioUserId, isoNow(this.#clock)), await this.#repository.statementsOf(studioUserId));
  }

  /**
   * A studio's statement of a month in a currency: a closed one as stored, a month not closed yet
   * computed from the ledger now (status `open`). 404 for a month after the current one, before
   * the studio's first entry in the currency, or a currency it has none in.
   */
  async statement(studioUserId: number, currency: string, month: string, locale: Locale = 'en'): Promise<EarningsStatement> {
    const now = isoNow(this.#clock);
    const statements = (await this.#repository.statementsOf(studioUserId)).filter((s) => s.currency === currency);
    const closed = statements.find((s) => s.month === month);
    if (closed) return this.#view(closed, await this.#repository.linesOf(closed.id), locale);
    if (month > monthOf(now)) throw new AppError('not_found');
    const lastBefore = statements.filter((s) => s.month < month).at(-1);
    if (!lastBefore) {
      const first = await this.#repository.firstPostedAt(studioUserId, currency);
      if (first === null || month < monthOf(first)) throw new AppError('not_found');
    }
    const [since, lines] = await Promise.all([
      this.#repository.studioSum(studioUserId, currency, lastBefore ? monthEnd(lastBefore.month) : '', monthStart(month)),
      this.#repository.linesBetween(studioUserId, currency, monthStart(month), monthEnd(month)),
    ]);
    const opening = (lastBefore?.closing ?? 0) + since;
    const totals = totalsOf(lines);
    const closing = opening + totals.earned + totals.refunded + totals.corrections + totals.payouts;
    return this.#view({ id: 0, currency, month, opening, ...totals, closing, closedAt: '' }, lines, locale, true);
  }

  /** A statement as CSV (RFC 4180, formula-safe): a header, then one row per line, amounts in major units with the currency's decimals. */
  async statementCsv(studioUserId: number, currency: string, month: string, locale: Locale = 'en'): Promise<{ filename: string; body: string }> {
    const statement = await this.statement(studioUserId, currency, month, locale);
    const money = (minor: number) => majorUnitsText(minor, currency);
    const rows: (string | number)[][] = [CSV_HEADER];
    for (const line of statement.lines)
      rows.push([
        statement.month,
        currency,
        line.kind,
        line.gameTitle ?? '',
        line.itemSku ?? '',
        line.entries,
        money(line.grossMinor),
        money(line.deductionsMinor),
        money(line.platformMinor),
        money(line.studioMinor),
      ]);
    return { filename: `statement-${currency}-${month}.csv`, body: csvText(rows) };
  }

  /** The Studio's Earnings page: balances, the share in force, the hold, the months. */
  async overview(caller: Caller | null): Promise<EarningsOverview> {
    const studioUserId = await this.#studio.requireDeveloper(caller);
    const now = isoNow(this.#clock);
    const [states, statements, terms, payouts] = await Promise.all([
      this.#states(studioUserId, now, true),
      this.#repository.statementsOf(studioUserId),
      this.#ledger.termsOf(studioUserId),
      this.#repository.payoutSums(studioUserId),
    ]);
    const inForce = terms.find((t) => t.starts_at <= now);
    return {
      balances: this.#balancesOf(states, payouts),
      share: inForce
        ? { percent: (inForce.share_bp * 100) / WHOLE_BP, since: inForce.starts_at, custom: true }
        : { percent: (this.#config.defaultShareBp * 100) / WHOLE_BP, since: null, custom: false },
      holdDays: this.#config.holdDays,
      months: this.#monthsOf(states, statements),
    };
  }

  /** The caller's own statement (only ever their own studio's). */
  async statementFor(caller: Caller | null, currency: string, month: string, locale: Locale): Promise<EarningsStatement> {
    return this.statement(await this.#studio.requireDeveloper(caller), currency, month, locale);
  }

  async statementCsvFor(caller: Caller | null, currency: string, month: string, locale: Locale): Promise<{ filename: string; body: string }> {
    return this.statementCsv(await this.#studio.requireDeveloper(caller), currency, month, locale);
  }

  async #balances(studioUserId: number, now: string): Promise<EarningsBalance[]> {
    const [states, payouts] = await Promise.all([this.#states(studioUserId, now, true), this.#repository.payoutSums(studioUserId)]);
    return this.#balancesOf(states, payouts);
  }

  #balancesOf(states: CurrencyState[], payouts: { currency: string; inTransit: number; paidOut: number }[]): EarningsBalance[] {
    const currencies = [...new Set([...states.map((s) => s.currency), ...payouts.map((p) => p.currency)])].sort();
    return currencies.map((currency) => {
      const state = states.find((s) => s.currency === currency);
      const pending = state?.pending ?? { amount: 0, first: null, last: null };
      const paid = payouts.find((p) => p.currency === currency);
      return {
        currency,
        availableMinor: (state?.total ?? 0) - pending.amount,
        pendingMinor: pending.amount,
        pendingUntil: pending.last,
        nextAvailableAt: pending.first,
        inTransitMinor: paid?.inTransit ?? 0,
        paidOutMinor: paid?.paidOut ?? 0,
      };
    });
  }

  /**
   * Per currency the studio has entries in: the latest closed month, the months after it up to
   * now, and (`withPending`) what is in the hold, asked at the same time as the sums.
   */
  async #states(studioUserId: number, now: string, withPending = false): Promise<CurrencyState[]> {
    const [currencies, statements] = await Promise.all([this.#repository.currenciesOf(studioUserId), this.#repository.statementsOf(studioUserId)]);
    const current = monthOf(now);
    const split = new Date(Date.parse(now) + (this.#config.holdDays * DAY_MS) / 2).toISOString();
    return Promise.all(
      currencies.map(async (currency) => {
        const pending = withPending ? this.#repository.pending(studioUserId, currency, now, split) : undefined;
        const lastClosed = statements.filter((s) => s.currency === currency).at(-1);
        const first = lastClosed ? nextMonth(lastClosed.month) : monthOf((await this.#repository.firstPostedAt(studioUserId, currency)) ?? now);
        const months = monthsBetween(first, current);
        // The last month open has no end: an entry stamped ahead of this instance's clock still counts.
        const sums = await Promise.all(
          months.map((month, i) =>
            this.#repository.studioSum(
              studioUserId,
              currency,
              i === 0 && !lastClosed ? '' : monthStart(month),
              i === months.length - 1 ? undefined : monthEnd(month),
            ),
          ),
        );
        let running = lastClosed?.closing ?? 0;
        const open = months.map((month, i) => {
          const opening = running;
          running += sums[i]!;
          return { month, opening, closing: running };
        });
        if (months.length === 0 && lastClosed) running += await this.#repository.studioSum(studioUserId, currency, monthEnd(lastClosed.month));
        return { currency, lastClosed, open, total: running, pending: await pending };
      }),
    );
  }

  #monthsOf(states: CurrencyState[], statements: StatementRow[]): StatementMonth[] {
    const months: StatementMonth[] = [
      ...statements.map((s) => ({ currency: s.currency, month: s.month, status: 'closed' as const, closingMinor: s.closing })),
      ...states.flatMap((state) => state.open.map((m) => ({ currency: state.currency, month: m.month, status: 'open' as const, closingMinor: m.closing }))),
    ];
    return months.sort((a, b) => b.month.localeCompare(a.month) || a.currency.localeCompare(b.currency));
  }

  async #view(statement: StatementRow, lines: StatementLineRow[], locale: Locale, open = false): Promise<EarningsStatement> {
    const appIds = [...new Set(lines.flatMap((l) => (l.appId === null ? [] : [l.appId])))];
    const itemIds = [...new Set(lines.flatMap((l) => (l.itemId === null ? [] : [l.itemId])))];
    const names = await this.#repository.namesOf(appIds, itemIds, locale);
    const viewLines: StatementLine[] = lines
      .map((line) => {
        const item = line.itemId === null ? undefined : names.items.get(line.itemId);
        return {
          kind: line.kind as StatementLine['kind'],
          appId: line.appId,
          gameTitle: line.appId === null ? null : (names.games.get(line.appId) ?? null),
          itemId: line.itemId,
          itemSku: item?.sku ?? null,
          itemName: item ? itemName(item.names, locale, item.sku) : null,
          entries: line.entries,
          grossMinor: line.gross,
          deductionsMinor: line.deductions,
          platformMinor: line.platform,
          studioMinor: line.studio,
        };
      })
      .sort(
        (a, b) =>
          KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
          (a.gameTitle ?? '').localeCompare(b.gameTitle ?? '') ||
          (a.itemSku ?? '').localeCompare(b.itemSku ?? '') ||
          (a.appId ?? 0) - (b.appId ?? 0) ||
          (a.itemId ?? 0) - (b.itemId ?? 0),
      );
    return {
      currency: statement.currency,
      month: statement.month,
      status: open ? 'open' : 'closed',
      closedAt: open ? null : statement.closedAt,
      monthEnd: monthEnd(statement.month),
      openingMinor: statement.opening,
      earnedMinor: statement.earned,
      refundedMinor: statement.refunded,
      correctionsMinor: statement.corrections,
      payoutsMinor: statement.payouts,
      closingMinor: statement.closing,
      lines: viewLines,
    };
  }
}
