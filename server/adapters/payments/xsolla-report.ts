/*
 * Xsolla's transaction report (the registry) read into rows the reconciliation compares with the
 * ledger (decision 149, docs/payments.md "Reconciliation").
 *
 * What Xsolla documents (developers.xsolla.com, Pay Station API, Reports): "Get transactions",
 * `GET /merchant/v2/merchants/{merchant_id}/reports/transactions/registry.{json|csv|xls}` with
 * `datetime_from`, `datetime_to` (at most 92 days apart), `in_transfer_currency` (0: the pay-in
 * currency, the default; 1: everything converted to the payout currency), `show_total`,
 * `show_dry_run`, `project_id`; and, for "Find transactions", a transaction's fields:
 * `transaction.id`, `transaction.external_id` (our order's public id), `transaction.status`
 * (created, processing, done, canceled, error, review, refunded, awaitingRefund),
 * `transaction.dry_run`, `transaction.create_date` / `payment_date`, `transaction.transfer_date`,
 * `user.id`, and `payment_details` with `payment` (amount, currency), `xsolla_fee`,
 * `payment_method_fee`, `vat`, `sales_tax`, `direct_wht`, `repatriation_commission`, `payout`.
 *
 * What we had to assume, since the CSV's header is not documented: one row per transaction, a
 * header row naming the columns by those fields' paths (`transaction.id`, `payment_details.payment.amount`…),
 * or by the same words with spaces or underscores ("Transaction ID", `transaction_id`), matched
 * without regard to case and punctuation; every money column in the payment's currency (the
 * report exported with `in_transfer_currency=0`); the fee and withheld taxes as separate columns in
 * the payment's currency; a refund as the status `refunded` or `canceled` (the whole payment)
 * with, for a partial one, the amount given back in `refund_details.amount`; the totals row of
 * `show_total` has no transaction id. Spreadsheet exports may add a byte-order mark, quote every
 * field, separate with semicolons and write decimal commas: all are read.
 */
import { toMinorUnits } from '#common/money.ts';

/** A transaction of the report, amounts in minor units of `currency`. */
export interface ReportTransaction {
  /** The line of the file (1: the header). */
  line: number;
  transactionId: string | null;
  /** Our order's public id, as sent to Xsolla. */
  externalId: string | null;
  status: string;
  /** done / awaitingRefund: paid; refunded / canceled: paid, then given back; anything else: not a payment. */
  paid: boolean;
  currency: string;
  amount: number;
  /** The provider's fee and withheld taxes, summed. */
  fee: number;
  /** What was given back. */
  refunded: number;
  /** The payment's day, `YYYY-MM-DD` (UTC as Xsolla writes it), null when the row has none. */
  day: string | null;
  dryRun: boolean;
}

/** A row that could not be read as a transaction. */
export interface ReportProblem {
  line: number;
  transactionId: string | null;
  externalId: string | null;
  message: string;
}

export interface XsollaReport {
  transactions: ReportTransaction[];
  problems: ReportProblem[];
}

/** The deductions of a payment, as the payment notification names them (server/adapters/payments/xsolla-notifications.ts). */
const DEDUCTIONS = ['xsolla_fee', 'payment_method_fee', 'repatriation_commission', 'user_acquisition_fee', 'vat', 'sales_tax', 'direct_wht', 'country_wht'];

/** Each field and the header names it may have, normalised (lower case, letters and digits only). */
const COLUMNS = {
  transactionId: ['transaction.id', 'transaction_id', 'transaction id', 'id'],
  externalId: ['transaction.external_id', 'external_id', 'external id', 'foreign_id', 'invoice'],
  status: ['transaction.status', 'status', 'transaction_status'],
  dryRun: ['transaction.dry_run', 'dry_run', 'dry run', 'test'],
  date: ['transaction.payment_date', 'payment_date', 'transaction.create_date', 'create_date', 'date', 'transaction date'],
  amount: ['payment_details.payment.amount', 'payment.amount', 'payment_amount', 'payment amount', 'amount'],
  currency: ['payment_details.payment.currency', 'payment.currency', 'payment_currency', 'payment currency', 'currency'],
  refunded: ['refund_details.amount', 'refund.amount', 'refund_amount', 'refund amount', 'refunded amount'],
} as const;
type Field = keyof typeof COLUMNS;

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Byte-order mark at the start of a UTF-8 export. */
const BOM = '\uFEFF';

/**
 * The file's records as fields, RFC 4180: fields in double quotes may hold the separator, line
 * breaks and doubled quotes. The separator is the header line's comma, semicolon or tab,
 * whichever it has most of outside quotes.
 */
export function csvRecords(text: string): { line: number; fields: string[] }[] {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  const separator = separatorOf(body);
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"') {
        if (body[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      fields.push(field);
      if (fields.some((f) => f.trim() !== '')) records.push({ line: recordLine, fields });
      fields = [];
      field = '';
      line++;
      recordLine = line;
    } else field += c;
  }
  fields.push(field);
  if (fields.some((f) => f.trim() !== '')) records.push({ line: recordLine, fields });
  return records;
}

function separatorOf(text: string): string {
  let quoted = false;
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && c in counts) counts[c]!++;
  }
  const [most, count] = Object.entries(counts).sort((a, b) => b[1] - a[1])[0]!;
  return count > 0 ? most : ',';
}

/**
 * A decimal as written in the report in minor units of `currency`: "1.99", "1,99", "1 234,56",
 * "1,234.56", "1.234,56"; null for text that is not one, or has more decimals than the currency.
 * An empty cell is zero.
 */
export function reportAmount(text: string, currency: string): number | null {
  let s = text.trim().replace(/[\s\u00A0\u202F']/g, '');
  if (s === '') return 0;
  const comma = s.lastIndexOf(',');
  const dot = s.lastIndexOf('.');
  // The last of comma and dot is the decimal separator when both appear; a lone comma is a decimal comma.
  if (comma > dot) s = s.replace(/\./g, '').replace(',', '.');
  else if (comma !== -1) s = s.replace(/,/g, '');
  return toMinorUnits(s, currency);
}

/** Reads the report: its transactions, and the rows that are not readable as one. */
export function parseXsollaReport(text: string): XsollaReport {
  const records = csvRecords(text);
  const header = records.shift();
  if (!header) return { transactions: [], problems: [{ line: 1, transactionId: null, externalId: null, message: 'empty file' }] };
  const names = header.fields.map(normalise);
  const indexOf = (candidates: readonly string[]) => {
    for (const candidate of candidates) {
      const index = names.indexOf(normalise(candidate));
      if (index !== -1) return index;
    }
    return -1;
  };
  const columns = Object.fromEntries(Object.entries(COLUMNS).map(([field, candidates]) => [field, indexOf(candidates)])) as Record<Field, number>;
  const deductionColumns = DEDUCTIONS.map((name) => indexOf([`payment_details.${name}.amount`, `${name}.amount`, name, name.replace(/_/g, ' ')])).filter(
    (index) => index !== -1,
  );
  const missing = (['transactionId', 'amount', 'currency'] as const).filter((field) => columns[field] === -1);
  if (missing.length > 0)
    return {
      transactions: [],
      problems: [{ line: header.line, transactionId: null, externalId: null, message: `the header has no column for ${missing.join(', ')}` }],
    };

  const transactions: ReportTransaction[] = [];
  const problems: ReportProblem[] = [];
  for (const { line, fields } of records) {
    const cell = (field: Field) => (columns[field] === -1 ? '' : (fields[columns[field]] ?? '').trim());
    const transactionId = cell('transactionId') || null;
    const externalId = cell('externalId') || null;
    // The totals row of show_total names no transaction.
    if (!transactionId && !externalId) continue;
    const problem = (message: string) => problems.push({ line, transactionId, externalId, message });
    const currency = cell('currency').toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) {
      problem(`unreadable currency "${cell('currency')}"`);
      continue;
    }
    const amount = reportAmount(cell('amount'), currency);
    const fees = deductionColumns.map((index) => reportAmount(fields[index] ?? '', currency));
    const refundedText = reportAmount(cell('refunded'), currency);
    if (amount === null || amount < 0 || fees.some((fee) => fee === null) || refundedText === null) {
      problem('unreadable amount');
      continue;
    }
    const status = cell('status').toLowerCase() || 'done';
    const refundedWhole = status === 'refunded' || status === 'canceled' || status === 'cancelled';
    const paid = refundedWhole || status === 'done' || status === 'awaitingrefund';
    transactions.push({
      line,
      transactionId,
      externalId,
      status,
      paid,
      currency,
      amount,
      fee: fees.reduce<number>((sum, fee) => sum + Math.abs(fee ?? 0), 0),
      refunded: refundedWhole ? (refundedText > 0 ? Math.min(Math.abs(refundedText), amount) : amount) : Math.abs(refundedText),
      day: dayOf(cell('date')),
      dryRun: ['1', 'true', 'yes'].includes(cell('dryRun').toLowerCase()),
    });
  }
  return { transactions, problems };
}

/** The day of a date as the report writes it: ISO (`2026-11-03`, `2026-11-03 15:32:46`, with T) or `03.11.2026`. */
function dayOf(text: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const dotted = /^(\d{2})\.(\d{2})\.(\d{4})/.exec(text);
  return dotted ? `${dotted[3]}-${dotted[2]}-${dotted[1]}` : null;
}
