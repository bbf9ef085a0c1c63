import type { ReconciliationDifference, ReconciliationResult } from '#common/api/earnings-console.schema.ts';
import { parseXsollaReport, type ReportTransaction } from '#server/adapters/payments/xsolla-report.ts';
import type { Caller } from '#server/lib/caller.ts';
import type { OperatorsService } from '../console/operators.service.ts';
import type { OrderMoney, ReconciledOrder, ReconciliationRepository } from './reconciliation.repository.ts';

const DAY_MS = 86_400_000;

/** The day after `day` (`YYYY-MM-DD`), at 00:00 UTC: the end of a period that includes `day`. */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS).toISOString();

/**
 * The reconciliation of the payment provider's transaction report with the ledger (decision 149,
 * docs/payments.md "Reconciliation"): each report row is matched to an order by its external id
 * (our public id), else by the provider's transaction id, and compared with the order's ledger
 * entries; every ledger payment of the period the report lacks is listed too. Read only: what to
 * do about a difference is for an operator to decide (a correction entry, a refund, a question to
 * the provider).
 */
export class ReconciliationService {
  readonly #repository: ReconciliationRepository;
  readonly #operators: Pick<OperatorsService, 'requireOperator'>;
  constructor(deps: { repository: ReconciliationRepository; operators: Pick<OperatorsService, 'requireOperator'> }) {
    this.#repository = deps.repository;
    this.#operators = deps.operators;
  }

  /** The Console's reconciliation: operators only. */
  async reconcileForOperator(
    caller: Caller | null,
    report: string,
    period: { from?: string | undefined; to?: string | undefined },
  ): Promise<ReconciliationResult> {
    await this.#operators.requireOperator(caller);
    return this.reconcile(report, period);
  }

  /**
   * Every difference between the report (CSV text) and the ledger. The period (UTC days, both
   * included) defaults to the report's first and last days; rows outside it are left out.
   */
  async reconcile(report: string, period: { from?: string | undefined; to?: string | undefined } = {}): Promise<ReconciliationResult> {
    const parsed = parseXsollaReport(report);
    const days = parsed.transactions.map((t) => t.day).filter((d): d is string => d !== null);
    const from = period.from ?? (days.length > 0 ? days.reduce((a, b) => (a < b ? a : b)) : null);
    const to = period.to ?? (days.length > 0 ? days.reduce((a, b) => (a > b ? a : b)) : null);
    const inPeriod = (t: ReportTransaction) => t.day === null || ((from === null || t.day >= from) && (to === null || t.day <= to));
    const rows = parsed.transactions.filter(inPeriod);

    const differences: ReconciliationDifference[] = parsed.problems.map((p) => ({
      kind: 'unknown_row',
      line: p.line,
      transactionId: p.transactionId,
      orderId: p.externalId,
      report: null,
      ledger: null,
      note: p.message,
    }));

    const known = await this.#repository.ordersByReference(
      rows.flatMap((t) => (t.externalId ? [t.externalId] : [])),
      rows.flatMap((t) => (t.transactionId ? [t.transactionId] : [])),
    );
    const paidInPeriod = await this.#repository.ordersPaidBetween(from === null ? null : `${from}T00:00:00.000Z`, to === null ? null : dayAfter(to));
    const byPublicId = new Map(known.map((o) => [o.publicId, o]));
    const byTransaction = new Map(known.filter((o) => o.transactionId !== null).map((o) => [o.transactionId!, o]));
    const money = await this.#repository.moneyOf([...known, ...paidInPeriod].map((o) => o.id));

    const seenRows = new Map<string, number>();
    const reportedOrders = new Set<number>();
    let matched = 0;
    for (const row of rows) {
      const key = row.transactionId ?? `external:${row.externalId}`;
      const first = seenRows.get(key);
      const reportSide = { currency: row.currency, amount: row.amount, fee: row.fee, refunded: row.refunded };
      const base = { line: row.line, transactionId: row.transactionId, orderId: row.externalId, report: reportSide };
      if (first !== undefined) {
        differences.push({ ...base, kind: 'duplicate_row', ledger: null, note: `the same transaction as line ${first}` });
        continue;
      }
      seenRows.set(key, row.line);
      const order = (row.externalId ? byPublicId.get(row.externalId) : undefined) ?? (row.transactionId ? byTransaction.get(row.transactionId) : undefined);
      if (!row.paid) {
        // Not a payment (created, processing, error, review): nothing to match; a ledger payment of it shows as missing from the report.
        continue;
      }
      if (!order) {
        differences.push({ ...base, kind: 'unknown_row', ledger: null, note: 'no order has this external id or transaction id' });
        continue;
      }
      reportedOrders.add(order.id);
      const ledger = money.get(order.id);
      const found = compare(row, order, ledger);
      if (found.length === 0) matched++;
      differences.push(...found.map((d) => ({ ...base, orderId: order.publicId, transactionId: row.transactionId ?? order.transactionId, ...d })));
    }

    const statusOf = new Map(rows.map((t) => [(t.externalId ?? t.transactionId)!, t.status]));
    for (const order of paidInPeriod) {
      if (reportedOrders.has(order.id)) continue;
      const ledger = money.get(order.id)!;
      const status = statusOf.get(order.publicId) ?? (order.transactionId ? statusOf.get(order.transactionId) : undefined);
      differences.push({
        kind: 'missing_from_report',
        line: null,
        transactionId: order.transactionId,
        orderId: order.publicId,
        report: null,
        ledger: sideOf(ledger),
        note: status ? `the report lists it as ${status}` : null,
      });
    }

    differences.sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) || (a.orderId ?? '').localeCompare(b.orderId ?? ''));
    return { period: { from, to }, rows: rows.length, matched, ledgerPayments: paidInPeriod.length, differences };
  }
}

const sideOf = (ledger: OrderMoney) => ({ currency: ledger.currency, amount: ledger.paid, fee: ledger.fee, refunded: ledger.refunded });

/** The differences of one report row with its order's ledger entries. */
function compare(row: ReportTransaction, order: ReconciledOrder, ledger: OrderMoney | undefined): Pick<ReconciliationDifference, 'kind' | 'ledger' | 'note'>[] {
  if (!ledger || ledger.paid === null)
    return [
      { kind: 'missing_from_ledger', ledger: ledger ? sideOf(ledger) : { currency: order.currency, amount: null, fee: null, refunded: null }, note: null },
    ];
  const side = sideOf(ledger);
  // Amounts in two currencies cannot be compared: the currency is the one difference.
  if (row.currency !== ledger.currency) return [{ kind: 'currency_differs', ledger: side, note: null }];
  const found: Pick<ReconciliationDifference, 'kind' | 'ledger' | 'note'>[] = [];
  if (row.amount !== ledger.paid) found.push({ kind: 'amount_differs', ledger: side, note: null });
  if (row.fee !== ledger.fee) found.push({ kind: 'fee_differs', ledger: side, note: null });
  if (row.refunded !== ledger.refunded)
    found.push({
      kind: 'refund_differs',
      ledger: side,
      note: ledger.refunded === 0 ? 'refunded in the report only' : row.refunded === 0 ? 'refunded in the ledger only' : null,
    });
  return found;
}
