import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiInstance } from '#server/testing/api-instance.ts';
import { ManualClock } from '#server/testing/clocks.ts';
import { fixtureGameIds, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { paymentOf, partialRefundOf, refundOf, testOrders, TEST_XSOLLA, xsollaTestEnv, type XsollaStandIn } from '#server/testing/test-orders.ts';
import { testPlayers, type TestPlayer } from '#server/testing/test-players.ts';
import { startXsollaStandIn } from '#server/testing/xsolla-stand-in.ts';
import { CLOSE_GRACE_MS } from './earnings.service.ts';
import { LedgerRepository } from './ledger.repository.ts';
import { correctionPosting, paymentPosting } from './ledger.ts';

const HOUR_MS = 3_600_000;
const postgres = process.env.DATABASE_URL?.startsWith('postgres') ?? false;
const DAY_MS = 24 * HOUR_MS;

/*
 * Studios' monthly statements (decision 149) on the test's database: months closed once and in
 * order, frozen by the database, a late refund in the month it was posted, balances from the
 * statements equal to the ledger's own sums, the routes of the Studio, and two instances closing
 * at once.
 */
describe('earnings statements', () => {
  let api: TestApi;
  let xsolla: XsollaStandIn;
  let appId: number;
  let otherAppId: number;
  let studio: TestPlayer;
  let otherStudio: TestPlayer;
  let buyer: TestPlayer;
  const clock = new ManualClock('2026-01-05T10:00:00.000Z');
  const players = testPlayers(() => api, 150);
  const orders = testOrders(() => api, { appId: () => appId, firstTransaction: 1_500_000 });
  const db = () => api.database.db;
  const ledger = () => new LedgerRepository(db());
  const at = (iso: string) => {
    clock.time = Date.parse(iso);
  };

  /** A paid order of alpha's with the provider's fee stated, as Xsolla notifies it. */
  async function buy(sku: string, feeCents: number) {
    const o = await orders.order(buyer, sku);
    const transaction = orders.nextTransaction();
    const payment = paymentOf(o, buyer.userInfo.uid, transaction);
    const total = payment.purchase.total;
    const notification = {
      ...payment,
      payment_details: {
        payment: total,
        xsolla_fee: { currency: 'USD', amount: feeCents / 100 },
        vat: { currency: 'USD', amount: 0 },
        payout: { currency: 'USD', amount: total.amount! - feeCents / 100 },
      },
    };
    expect((await orders.notify(notification)).statusCode).toBe(204);
    return { ...o, transaction };
  }
  const refund = async (o: { id: string; sku: string; transaction: number }) =>
    expect((await orders.notify(refundOf(o, buyer.userInfo.uid, o.transaction))).statusCode).toBe(204);
  const partialRefund = async (o: { id: string; transaction: number }, amount: number) =>
    expect((await orders.notify(partialRefundOf(o, buyer.userInfo.uid, o.transaction, amount, 'broken tile'))).statusCode).toBe(204);

  const get = (path: string, player: TestPlayer | null = studio) => api.call('GET', path, player ? { token: player.token } : {});
  const statementOf = async (month: string, currency = 'USD') => {
    const response = await get(`/studio/earnings/statements/${currency}/${month}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };

  beforeAll(async () => {
    xsolla = await startXsollaStandIn(TEST_XSOLLA);
    api = await openTestApi(xsollaTestEnv(xsolla.url), { clock });
    ({ appId, otherAppId } = await fixtureGameIds(api.database));
    studio = await players.newMember();
    otherStudio = await players.newMember();
    buyer = await players.newMember();
    await api.services.developers.saveProfile(studio.userInfo.uid, { studioName: 'Statement Studio', contactEmail: 'money@studio.example' });
    await api.services.developers.saveProfile(otherStudio.userInfo.uid, { studioName: 'Other Studio', contactEmail: 'other@studio.example' });
    await db().updateTable('apps').set({ developer_user_id: studio.userInfo.uid }).where('id', '=', appId).execute();
    // Beta is another studio's: its sales must never reach this studio's statements.
    await db().updateTable('apps').set({ developer_user_id: otherStudio.userInfo.uid }).where('id', '=', otherAppId).execute();
  });
  afterAll(async () => {
    await api?.close();
    await xsolla?.stop();
  });

  /** The ledger's own balances (every line summed) and the statements' must agree at every moment. */
  async function expectBalancesAgree() {
    expect(await api.services.earnings.balances(studio.userInfo.uid)).toEqual(await ledger().balances(studio.userInfo.uid, clock.now().toISOString()));
  }

  let january: Record<string, unknown>;
  let lateRefunded: { id: string; sku: string; transaction: number };

  it('closes a month once after it ended, frozen, its opening the month before’s closing; a late refund lands in the month it is posted', async () => {
    at('2026-01-10T09:00:00.000Z');
    const gold = await buy('alpha-gold-tiles', 10);
    const hints = await buy('alpha-hints', 2);
    lateRefunded = await buy('alpha-night-theme', 5);
    await expectBalancesAgree();
    at('2026-01-20T09:00:00.000Z');
    await refund(hints);
    await partialRefund(gold, 0.5);
    await expectBalancesAgree();

    // Not before the month ended, nor within the grace after it.
    at('2026-01-31T23:59:00.000Z');
    expect(await api.services.earnings.closeMonths(clock.now().toISOString())).toBe(0);
    at(new Date(Date.parse('2026-02-01T00:00:00.000Z') + CLOSE_GRACE_MS - 1000).toISOString());
    expect(await api.services.earnings.closeMonths(clock.now().toISOString())).toBe(0);
    const open = await statementOf('2026-01');
    expect(open.status).toBe('open');

    at('2026-02-01T01:00:00.000Z');
    expect(await api.services.earnings.closeMonths(clock.now().toISOString())).toBe(1);
    expect(await api.services.earnings.closeMonths(clock.now().toISOString())).toBe(0);
    january = await statementOf('2026-01');
    expect(january).toMatchObject({ status: 'closed', closedAt: '2026-02-01T01:00:00.000Z', openingMinor: 0 });
    // Closed, it says what it said while open.
    expect({ ...january, status: 'open', closedAt: null }).toEqual(open);
    const entries = await ledger().entries({ studioUserId: studio.userInfo.uid });
    const studioOf = (kinds: string[]) => entries.filter((e) => kinds.includes(e.kind)).reduce((sum, e) => sum + e.studio_minor, 0);
    expect(january.earnedMinor).toBe(studioOf(['payment', 'provider-fee']));
    expect(january.refundedMinor).toBe(studioOf(['refund']));
    expect(january.refundedMinor).toBeLessThan(0);
    expect(january.closingMinor).toBe(studioOf(['payment', 'provider-fee', 'refund']));
    const lines = january.lines as { kind: string; itemSku: string; gameTitle: string; entries: number; grossMinor: number; studioMinor: number }[];
    expect(lines.map((l) => [l.kind, l.itemSku, l.entries])).toEqual([
      ['payment', 'alpha-gold-tiles', 1],
      ['payment', 'alpha-hints', 1],
      ['payment', 'alpha-night-theme', 1],
      ['provider-fee', 'alpha-gold-tiles', 1],
      ['provider-fee', 'alpha-hints', 1],
      ['provider-fee', 'alpha-night-theme', 1],
      ['refund', 'alpha-gold-tiles', 1],
      ['refund', 'alpha-hints', 1],
    ]);
    expect(lines.every((l) => l.gameTitle === 'Alpha 2048')).toBe(true);
    expect(lines.find((l) => l.kind === 'payment' && l.itemSku === 'alpha-gold-tiles')!.grossMinor).toBe(199);
    expect(lines.reduce((sum, l) => sum + l.studioMinor, 0)).toBe(january.closingMinor);

    // A refund of a January order posted in February: January stays as it was closed.
    await refund(lateRefunded);
    await expectBalancesAgree();
    expect(await statementOf('2026-01')).toEqual(january);
    const february = await statementOf('2026-02');
    expect(february).toMatchObject({ status: 'open', closedAt: null, openingMinor: january.closingMinor, earnedMinor: 0 });
    expect(february.lines.map((l: { kind: string; itemSku: string }) => [l.kind, l.itemSku])).toEqual([['refund', 'alpha-night-theme']]);
    expect(february.closingMinor).toBe((january.closingMinor as number) + february.refundedMinor);
  });

  it("the Studio statistics' revenue and the ledger agree (docs/payments.md)", async () => {
    const stats = await api.services.studioStats.stats({ userId: studio.userInfo.uid, tokenId: 0 }, appId, 30, 'en');
    const from = `${stats.from}T00:00:00.000Z`;
    const entries = (await ledger().entries({ studioUserId: studio.userInfo.uid })).filter((e) => e.app_id === appId && e.posted_at >= from);
    const gross = (kinds: string[], keep: (e: (typeof entries)[number]) => boolean = () => true) =>
      entries.filter((e) => kinds.includes(e.kind) && keep(e)).reduce((sum, e) => sum + e.gross_minor, 0);
    const [money] = stats.summary.money;
    // Revenue: what the orders paid on their day of payment, the ledger's payments' gross.
    expect(money!.revenueMinor).toBe(gross(['payment']));
    expect(money!.orders).toBe(entries.filter((e) => e.kind === 'payment').length);
    // Refunds: the statistics count an order once it is refunded whole, at its whole amount; the ledger
    // also has the partial refunds of orders still paid.
    const statusOf = new Map(
      (await db().selectFrom('orders').select(['id', 'status']).where('app_id', '=', appId).execute()).map((o) => [o.id, o.status] as const),
    );
    const stillPaid = (e: (typeof entries)[number]) => statusOf.get(e.order_id!) === 'paid';
    expect(gross(['refund', 'chargeback'], stillPaid)).toBe(-50);
    expect(money!.refundedMinor).toBe(-gross(['refund', 'chargeback']) + gross(['refund', 'chargeback'], stillPaid));
    expect(money!.refunds).toBe([...statusOf.values()].filter((s) => s === 'refunded').length);
  });

  it('refuses to change or delete a closed statement or its lines (the database itself)', async () => {
    const row = await db().selectFrom('earnings_statements').select('id').where('studio_user_id', '=', studio.userInfo.uid).executeTakeFirstOrThrow();
    await expect(db().updateTable('earnings_statements').set({ closing_minor: 1 }).where('id', '=', row.id).execute()).rejects.toThrow(/append-only/);
    await expect(db().deleteFrom('earnings_statements').where('id', '=', row.id).execute()).rejects.toThrow(/append-only/);
    await expect(db().updateTable('earnings_statement_lines').set({ studio_minor: 1 }).where('statement_id', '=', row.id).execute()).rejects.toThrow(
      /append-only/,
    );
    expect(await statementOf('2026-01')).toEqual(january);
  });

  it('closes the months after in order, empty ones too, each opening the closing before; balances agree across the hold', async () => {
    at('2026-02-20T12:00:00.000Z');
    await buy('alpha-hints', 0);
    await expectBalancesAgree();
    at('2026-05-03T00:00:00.000Z');
    // February, March and April: March and April without entries.
    expect(await api.services.earnings.closeMonths(clock.now().toISOString())).toBe(3);
    await expectBalancesAgree();
    const months = ['2026-01', '2026-02', '2026-03', '2026-04'];
    const statements = await Promise.all(months.map((m) => statementOf(m)));
    for (const [i, s] of statements.entries()) {
      expect(s.status).toBe('closed');
      if (i > 0) expect(s.openingMinor).toBe(statements[i - 1].closingMinor);
      expect(s.closingMinor).toBe(s.openingMinor + s.earnedMinor + s.refundedMinor + s.correctionsMinor + s.payoutsMinor);
    }
    expect(statements[2].lines).toEqual([]);
    // Everything is past its hold now: all of it available.
    const [balance] = await api.services.earnings.balances(studio.userInfo.uid);
    expect(balance).toEqual({ currency: 'USD', available: statements[3].closingMinor, pending: 0, inTransit: 0, paidOut: 0 });
  });

  it('answers the Studio its own balances, share, hold and months', async () => {
    at('2026-05-04T08:00:00.000Z');
    await buy('alpha-hints', 0);
    const response = await get('/studio/earnings/');
    expect(response.statusCode, response.body).toBe(200);
    const overview = response.json().data;
    const [ledgerBalance] = await ledger().balances(studio.userInfo.uid, clock.now().toISOString());
    expect(overview.balances).toEqual([
      {
        currency: 'USD',
        availableMinor: ledgerBalance!.available,
        pendingMinor: ledgerBalance!.pending,
        pendingUntil: new Date(clock.time + 30 * DAY_MS).toISOString(),
        nextAvailableAt: new Date(clock.time + 30 * DAY_MS).toISOString(),
        inTransitMinor: 0,
        paidOutMinor: 0,
      },
    ]);
    expect(overview.balances[0].pendingMinor).toBeGreaterThan(0);
    expect(overview.share).toEqual({ percent: 70, since: null, custom: false });
    expect(overview.holdDays).toBe(30);
    expect(overview.months.map((m: { month: string; status: string }) => `${m.month} ${m.status}`)).toEqual([
      '2026-05 open',
      '2026-04 closed',
      '2026-03 closed',
      '2026-02 closed',
      '2026-01 closed',
    ]);
    expect(overview.months[0].closingMinor).toBe(ledgerBalance!.available + ledgerBalance!.pending);

    // Terms an operator set show with their start.
    await api.services.ledger.setTerms({
      studioUserId: studio.userInfo.uid,
      sharePercent: 82.5,
      startsAt: '2026-05-01T00:00:00.000Z',
      reason: 'contract',
      setBy: null,
    });
    expect((await get('/studio/earnings/')).json().data.share).toEqual({ percent: 82.5, since: '2026-05-01T00:00:00.000Z', custom: true });
  });

  it('refuses other members, other studios’ statements, bad months and unknown currencies', async () => {
    expect((await get('/studio/earnings/', null)).statusCode).toBe(401);
    expect((await get('/studio/earnings/', buyer)).statusCode).toBe(403);
    expect((await get('/studio/earnings/statements/USD/2026-01', buyer)).statusCode).toBe(403);
    expect((await get('/studio/earnings/statements/USD/2026-01.csv', buyer)).statusCode).toBe(403);
    // The other studio has no USD entries: this studio's months are not its to see.
    for (const path of ['/studio/earnings/statements/USD/2026-01', '/studio/earnings/statements/USD/2026-05', '/studio/earnings/statements/USD/2026-01.csv'])
      expect((await get(path, otherStudio)).statusCode, path).toBe(404);
    const other = (await get('/studio/earnings/', otherStudio)).json().data;
    expect(other).toMatchObject({ balances: [], months: [] });

    for (const month of ['2026-13', '2026-00', '26-01', '2026-1', '2026-01-01', '..', '%2e%2e', '2026-01%00']) {
      const response = await get(`/studio/earnings/statements/USD/${month}`);
      expect(response.statusCode, month).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, month).toBeLessThan(500);
    }
    expect((await get('/studio/earnings/statements/USD/2026-13')).statusCode).toBe(422);
    expect((await get('/studio/earnings/statements/USD/../../earnings/')).statusCode).toBeLessThan(500);
    expect((await get('/studio/earnings/statements/usd/2026-01')).statusCode).toBe(422);
    expect((await get('/studio/earnings/statements/US%22/2026-01')).statusCode).toBe(422);
    expect((await get('/studio/earnings/statements/XYZ/2026-01')).statusCode).toBe(404);
    expect((await get('/studio/earnings/statements/EUR/2026-01')).statusCode).toBe(404);
    // Before the first entry and after the current month.
    expect((await get('/studio/earnings/statements/USD/2025-12')).statusCode).toBe(404);
    expect((await get('/studio/earnings/statements/USD/2026-06')).statusCode).toBe(404);
  });

  it('gives a statement as CSV: a header, a row per line in major units, safe to open in a spreadsheet', async () => {
    await db()
      .updateTable('app_translations')
      .set({ title: '=HYPERLINK("http://evil.example","x")' })
      .where('app_id', '=', appId)
      .where('locale', '=', 'en')
      .execute();
    const response = await get('/studio/earnings/statements/USD/2026-01.csv');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe('attachment; filename="statement-USD-2026-01.csv"');
    const rows = response.body.trimEnd().split('\r\n');
    expect(rows[0]).toBe('month,currency,kind,game,item_sku,entries,gross,fees_and_taxes,platform,studio');
    expect(rows).toHaveLength(1 + (january.lines as unknown[]).length);
    expect(rows[1]).toBe(`2026-01,USD,payment,"'=HYPERLINK(""http://evil.example"",""x"")",alpha-gold-tiles,1,1.99,0.00,0.60,1.39`);
    expect(rows.slice(1).every((row) => row.includes(`"'=HYPERLINK`))).toBe(true);
    const refundRow = rows.find((row) => row.includes(',refund,') && row.includes('alpha-hints'))!;
    expect(refundRow).toMatch(/,-0\.49,0\.00,-0\.15,-0\.34$/);
    await db().updateTable('app_translations').set({ title: 'Alpha 2048' }).where('app_id', '=', appId).where('locale', '=', 'en').execute();
  });

  it('two instances closing at once write each month once', async () => {
    // A studio of its own with entries over several months, posted straight to the ledger.
    const busy = otherStudio.userInfo.uid;
    const repository = ledger();
    const months = ['2025-06', '2025-07', '2025-09', '2025-12'];
    for (const [i, month] of months.entries())
      await repository.transaction(async (unit) => {
        const postedAt = `${month}-15T12:00:00.000Z`;
        const heldUntil = new Date(Date.parse(postedAt) + 30 * DAY_MS).toISOString();
        const context = { currency: 'EUR', appId: otherAppId, studioUserId: busy, shareBp: 7000, postedAt, heldUntil };
        await repository.post(paymentPosting(1000 + i, 7000), { ...context, sourceKey: `statements-test:${month}:paid` }, unit);
        await repository.post(correctionPosting(-5), { ...context, sourceKey: `statements-test:${month}:correction` }, unit);
      });
    const handle = await api.database.reopen();
    const second = await openApiInstance(handle, { env: xsollaTestEnv(xsolla.url), clock });
    try {
      const now = clock.now().toISOString();
      const instances = [api.services.earnings, second.services.earnings, api.services.earnings];
      // SQLite's connections in one process cannot wait for each other's writes: there the instances take turns.
      const written = postgres
        ? await Promise.all(instances.map((earnings) => earnings.closeMonths(now)))
        : [await instances[0]!.closeMonths(now), await instances[1]!.closeMonths(now), await instances[2]!.closeMonths(now)];
      // June 2025 to April 2026 for the other studio: 11 months, whoever wrote them.
      expect(written.reduce((a, b) => a + b, 0)).toBe(11);
      const rows = await db().selectFrom('earnings_statements').selectAll().where('studio_user_id', '=', busy).orderBy('month').execute();
      expect(rows.map((r) => r.month)).toEqual([
        '2025-06',
        '2025-07',
        '2025-08',
        '2025-09',
        '2025-10',
        '2025-11',
        '2025-12',
        '2026-01',
        '2026-02',
        '2026-03',
        '2026-04',
      ]);
      for (const [i, row] of rows.entries()) if (i > 0) expect(Number(row.opening_minor)).toBe(Number(rows[i - 1]!.closing_minor));
      const lines = await db()
        .selectFrom('earnings_statement_lines')
        .select('statement_id')
        .where(
          'statement_id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      expect(lines).toHaveLength(months.length * 2);
      expect(await api.services.earnings.balances(busy)).toEqual(await ledger().balances(busy, clock.now().toISOString()));
    } finally {
      await second.close();
      await handle.close();
    }
  });
});
