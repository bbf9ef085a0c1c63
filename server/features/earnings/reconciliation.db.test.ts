import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReconciliationResult } from '#common/api/earnings-console.schema.ts';
import { fixtureGameIds, type TestApi } from '#server/testing/test-api.ts';
import { closeTestApiWithXsolla, openTestApiWithXsolla, paymentOf, refundOf, testOrders, type XsollaStandIn } from '#server/testing/test-orders.ts';
import { testPlayers, type TestPlayer } from '#server/testing/test-players.ts';

const run = promisify(execFile);
const usd = (cents: number) => ({ currency: 'USD', amount: cents / 100 });
/** alpha-hints, a consumable the one buyer buys again and again, in cents. */
const PRICE = 49;
const FEE = 3;

/** A report row as Xsolla's registry writes it (the sample's columns, testdata/xsolla-transactions-sample.csv). */
interface Row {
  transaction: string;
  externalId: string;
  status: string;
  amount: string;
  currency: string;
  fee: string;
  refunded: string;
}

const HEADER =
  'transaction.id,transaction.external_id,transaction.status,transaction.dry_run,transaction.payment_date,user.id,payment_details.payment.amount,payment_details.payment.currency,payment_details.xsolla_fee.amount,payment_details.vat.amount,payment_details.payout.amount,refund_details.amount';

function reportOf(rows: Row[], day: string): string {
  const lines = rows.map((r) =>
    [r.transaction, r.externalId, r.status, '1', `${day} 12:00:00`, '7', r.amount, r.currency, r.fee, '0.00', '', r.refunded].join(','),
  );
  return `\uFEFF${[HEADER, ...lines].join('\r\n')}\r\n`;
}

/** The report row of an order that agrees with the ledger, or with `over` changed. */
const agreeing = (o: { id: string; transaction: number }, over: Partial<Row> = {}): Row => ({
  transaction: String(o.transaction),
  externalId: o.id,
  status: 'done',
  amount: '0.49',
  currency: 'USD',
  fee: '0.03',
  refunded: '',
  ...over,
});

/** The differences by kind and order. */
const summary = (result: ReconciliationResult) => result.differences.map((d) => ({ kind: d.kind, orderId: d.orderId }));

/*
 * The reconciliation of Xsolla's transaction report with the ledger (decision 149), on orders made
 * and paid through the webhook as Xsolla notifies them: a report that differs in five known ways
 * gives exactly those five differences, and the report the ledger agrees with gives none; through
 * the service, the Console's route and the command.
 */
describe('the reconciliation with the provider’s report', () => {
  let api: TestApi;
  let xsolla: XsollaStandIn;
  let appId: number;
  let buyer: TestPlayer;
  let operator: TestPlayer;
  let member: TestPlayer;
  let folder: string;
  const today = new Date().toISOString().slice(0, 10);
  const players = testPlayers(() => api, 161);
  const { order, notify, nextTransaction } = testOrders(() => api, { appId: () => appId, firstTransaction: 1_610_000 });

  /** An order of alpha-hints paid with Xsolla's payment details stating the fee. */
  async function paid(): Promise<{ id: string; sku: string; transaction: number }> {
    const o = await order(buyer, 'alpha-hints');
    const transaction = nextTransaction();
    const notification = {
      ...paymentOf(o, buyer.userInfo.uid, transaction),
      payment_details: { payment: usd(PRICE), xsolla_fee: usd(FEE), vat: usd(0), payout: usd(PRICE - FEE) },
    };
    expect((await notify(notification)).statusCode).toBe(204);
    return { ...o, transaction };
  }

  let clean: string;
  let differing: string;
  let orders: Record<'agrees' | 'amount' | 'fee' | 'currency' | 'refund' | 'unpaid', { id: string; transaction: number }>;

  beforeAll(async () => {
    ({ api, xsolla } = await openTestApiWithXsolla());
    ({ appId } = await fixtureGameIds(api.database));
    [buyer, operator, member] = [await players.newMember(), await players.newMember(), await players.newMember()];
    await api.services.operators.grant(String(operator.userInfo.uid));
    folder = mkdtempSync(join(tmpdir(), 'playport-reconciliation-'));

    const refunded = await paid();
    expect((await notify(refundOf(refunded, buyer.userInfo.uid, refunded.transaction))).statusCode).toBe(204);
    // Checkout opened, and the payment's notification never arrived.
    const unpaid = { ...(await order(buyer, 'alpha-hints')), transaction: nextTransaction() };
    orders = { agrees: await paid(), amount: await paid(), fee: await paid(), currency: await paid(), refund: refunded, unpaid };

    clean = reportOf(
      [
        agreeing(orders.agrees),
        agreeing(orders.amount),
        agreeing(orders.fee),
        agreeing(orders.currency),
        agreeing(orders.refund, { status: 'refunded', refunded: '0.49' }),
      ],
      today,
    );
    differing = reportOf(
      [
        agreeing(orders.agrees),
        agreeing(orders.amount, { amount: '0.59' }),
        agreeing(orders.fee, { fee: '0.05' }),
        agreeing(orders.currency, { currency: 'EUR' }),
        // Refunded in the ledger, not in the report.
        agreeing(orders.refund),
        // Paid at Xsolla, missing from the ledger.
        agreeing(orders.unpaid),
      ],
      today,
    );
  });
  afterAll(async () => {
    await closeTestApiWithXsolla({ api, xsolla });
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('finds exactly the five differences of a report that differs in five known ways', async () => {
    const result = await api.services.reconciliation.reconcile(differing, { from: today, to: today });
    expect(summary(result)).toEqual([
      { kind: 'amount_differs', orderId: orders.amount.id },
      { kind: 'fee_differs', orderId: orders.fee.id },
      { kind: 'currency_differs', orderId: orders.currency.id },
      { kind: 'refund_differs', orderId: orders.refund.id },
      { kind: 'missing_from_ledger', orderId: orders.unpaid.id },
    ]);
    expect(result).toMatchObject({ period: { from: today, to: today }, rows: 6, matched: 1, ledgerPayments: 5 });
    const byKind = Object.fromEntries(result.differences.map((d) => [d.kind, d]));
    expect(byKind.amount_differs).toMatchObject({ line: 3, report: { amount: 59 }, ledger: { currency: 'USD', amount: PRICE, fee: FEE, refunded: 0 } });
    expect(byKind.fee_differs).toMatchObject({ report: { fee: 5 }, ledger: { fee: FEE } });
    expect(byKind.currency_differs).toMatchObject({ report: { currency: 'EUR' }, ledger: { currency: 'USD' } });
    expect(byKind.refund_differs).toMatchObject({ report: { refunded: 0 }, ledger: { refunded: PRICE }, note: 'refunded in the ledger only' });
    expect(byKind.missing_from_ledger).toMatchObject({ transactionId: String(orders.unpaid.transaction), ledger: { amount: null } });
  });

  it('finds none in the report the ledger agrees with, the period taken from the report', async () => {
    const result = await api.services.reconciliation.reconcile(clean);
    expect(result.differences).toEqual([]);
    expect(result).toMatchObject({ period: { from: today, to: today }, rows: 5, matched: 5, ledgerPayments: 5 });
  });

  it('lists a ledger payment the report lacks, a duplicated row, an unknown transaction and an unreadable row', async () => {
    const rows = [agreeing(orders.agrees), agreeing(orders.amount), agreeing(orders.fee), agreeing(orders.refund, { status: 'refunded', refunded: '0.49' })];
    const text = reportOf(
      [...rows, agreeing(orders.agrees), agreeing({ id: 'ord_not_ours', transaction: 99 }), agreeing(orders.currency, { amount: 'n/a' })],
      today,
    );
    const result = await api.services.reconciliation.reconcile(text, { from: today, to: today });
    expect(summary(result)).toEqual([
      { kind: 'duplicate_row', orderId: orders.agrees.id },
      { kind: 'unknown_row', orderId: 'ord_not_ours' },
      { kind: 'unknown_row', orderId: orders.currency.id },
      { kind: 'missing_from_report', orderId: orders.currency.id },
    ]);
    expect(result.differences[2]!.note).toBe('unreadable amount');
  });

  it('answers operators on the Console’s route with the same differences; anyone else is refused', async () => {
    const post = (player: TestPlayer | null, body: string, contentType = 'text/csv') =>
      api.call('POST', `/console/earnings/reconciliation?from=${today}&to=${today}`, {
        ...(player ? { token: player.token } : {}),
        headers: { 'content-type': contentType },
        body,
      });
    const answer = await post(operator, differing);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(summary(answer.json().data as ReconciliationResult)).toEqual(
      summary(await api.services.reconciliation.reconcile(differing, { from: today, to: today })),
    );
    expect(((await post(operator, clean)).json().data as ReconciliationResult).differences).toEqual([]);
    // The Console's page sends the file as one JSON string.
    const asJson = await post(operator, JSON.stringify(differing), 'application/json');
    expect(summary(asJson.json().data as ReconciliationResult)).toEqual(summary(answer.json().data as ReconciliationResult));
    expect((await post(null, clean)).statusCode).toBe(401);
    expect((await post(member, clean)).statusCode).toBe(403);
    expect((await post(operator, clean, 'application/pdf')).statusCode).toBe(415);
    expect((await post(operator, '', 'text/csv')).statusCode).toBe(422);
    const bad = await api.call('POST', '/console/earnings/reconciliation?from=yesterday', {
      token: operator.token,
      headers: { 'content-type': 'text/csv' },
      body: clean,
    });
    expect(bad.statusCode).toBe(422);
  });

  /** `npm run earnings -- reconcile …` on the test's database: its exit code and output. */
  const command = (...args: string[]) =>
    run(process.execPath, ['scripts/earnings.ts', 'reconcile', ...args], { env: { ...process.env, ...api.database.env, SEED_DEMO_CONTENT: 'false' } }).then(
      (done) => ({ code: 0, stdout: done.stdout }),
      (failed: { code: number; stdout: string }) => ({ code: failed.code, stdout: failed.stdout }),
    );

  it('prints the differences with `npm run earnings -- reconcile` and exits 1, or 0 when there are none', async () => {
    const differingFile = join(folder, 'differing.csv');
    const cleanFile = join(folder, 'clean.csv');
    writeFileSync(differingFile, differing);
    writeFileSync(cleanFile, clean);
    const found = await command(differingFile, '--from', today, '--to', today);
    expect(found.code).toBe(1);
    const lines = found.stdout.trim().split('\n');
    expect(lines[0]).toContain('5 differences');
    expect(lines.slice(1).map((line) => line.split('\t')[0])).toEqual([
      'amount_differs',
      'fee_differs',
      'currency_differs',
      'refund_differs',
      'missing_from_ledger',
    ]);
    expect(await command(cleanFile)).toMatchObject({ code: 0 });
    expect((await command(join(folder, 'absent.csv'))).code).toBe(2);
  }, 60_000);
});
