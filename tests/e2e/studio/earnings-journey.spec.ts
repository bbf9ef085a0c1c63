import { type APIRequestContext, type Browser, type Page, request as playwrightRequest } from '@playwright/test';
import { openDatabase } from '../../../server/db/client.ts';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { type OwnServer, startOwnServer } from '../../support/own-server.ts';
import { useSession } from '../browser-session.ts';
import { expect as baseExpect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// Payments, month ends and payouts are rounds of the server's own: each takes a moment.
const expect = baseExpect.configure({ timeout: 30_000 });

/** The worked example of docs/payments.md: $9.99 at 70%, the sandbox's 5% fee ($0.49), $4.00 given back. */
const PRICE = 999;
const REFUND = '4.00';

/** A browser page signed in as `token` on the journey's own server. */
async function pageAs(browser: Browser, server: OwnServer, token: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.origin });
  await useSession(context, server.origin, token);
  return context.newPage();
}

/*
 * A studio's money from sale to payout (decision 149), in Chromium, on a server of the journey's
 * own whose clock it moves past two month ends and the hold: a member buys the studio's item, an
 * operator gives part of it back, January closes, the statement shows both with the shares, a
 * payout is proposed, approved in the Console, sent through the stand-in and shown as paid.
 */
test.describe('a studio gets paid', { tag: '@db' }, () => {
  let server: OwnServer;
  let api: APIRequestContext;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const port = Number(process.env.E2E_PORT ?? 3100) + 1730;
    server = await startOwnServer(port, '2031-01-30T12:00:00.000Z', { PAYOUTS_PROVIDER: 'stand-in', PAYOUT_MINIMUM: '1', EARNINGS_HOLD_DAYS: '30' });
    api = await playwrightRequest.newContext({ baseURL: server.origin });
  });
  test.afterAll(async () => {
    await api?.dispose();
    await server?.stop();
  });

  test('sale, refund, closed month, statement, payout approved and paid', async ({ browser }) => {
    test.setTimeout(240_000);
    const studio = await newMember(api, uniqueUsername('paidstudio'), 'studio-gets-paid-1');
    const operator = await newMember(api, uniqueUsername('payop'), 'operator-pays-studios-1');
    const buyer = await newMember(api, uniqueUsername('paybuyer'), 'buyer-of-gems-1');
    expect(await server.command('operators', ['grant', String(operator.userInfo.uid)])).toContain('is an operator');

    // The studio and its game with an item on sale: a journey of its own elsewhere (the Studio's), set up here directly.
    const database = await openDatabase(server.env.DATABASE_URL!, server.env.DATABASE_SCHEMA ? { schema: server.env.DATABASE_SCHEMA } : {});
    let gameId: number;
    const sku = 'ledger-gem-chest';
    try {
      const now = new Date().toISOString();
      await database.db
        .insertInto('developer_profiles')
        .values({ user_id: studio.userInfo.uid, studio_name: 'Lantern Ledger', contact_email: 'money@lantern.test', created_at: now, updated_at: now })
        .execute();
      const game = await database.db
        .selectFrom('apps')
        .select('id')
        .where('type', '=', 'game')
        .where('developer_user_id', 'is', null)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      gameId = game.id;
      await database.db.updateTable('apps').set({ developer_user_id: studio.userInfo.uid }).where('id', '=', gameId).execute();
      await database.db
        .insertInto('app_items')
        .values({
          app_id: gameId,
          sku,
          price_minor: PRICE,
          currency: 'USD',
          names: JSON.stringify({ en: 'Gem chest', 'zh-CN': '宝石箱' }),
          kind: 'consumable',
          active: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
    } finally {
      await database.close();
    }

    // The studio says where it is paid.
    const studioPage = await pageAs(browser, server, studio.token);
    await studioPage.goto('/studio/earnings/payouts');
    await hydrated(studioPage);
    const details = studioPage.getByTestId('payout-details-form');
    await details.getByLabel('Payout method').selectOption('stand-in');
    await details.getByLabel('PayPal e-mail address').fill('money@lantern.test');
    await details.getByLabel('Legal name').fill('Lantern Ledger Ltd');
    await details.getByLabel('Country').fill('GB');
    await details.getByRole('button', { name: 'Save payout details' }).click();
    await expect(studioPage.getByTestId('toast').getByText('Payout details saved.')).toBeVisible();

    // The buyer pays with the sandbox's card in the browser, on 30 January.
    const order = await call<{ id: string }>(api, 'POST', `/game/pay/${gameId}`, { token: buyer.token, body: { sku, idempotencyKey: `earn${Date.now()}` } });
    expect(order.status, order.message).toBe(201);
    const checkout = await call<{ url: string }>(api, 'POST', '/payment/xsolla/create/', { token: buyer.token, body: { order_id: order.data.id } });
    const buyerPage = await pageAs(browser, server, buyer.token);
    await buyerPage.goto(checkout.data.url);
    await hydrated(buyerPage);
    await buyerPage.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buyerPage.getByTestId('sandbox-pay').click();
    await expect(buyerPage.getByTestId('sandbox-paid')).toBeVisible();
    await expect
      .poll(async () => (await call<{ status: string }>(api, 'GET', `/game/orders/${order.data.id}`, { token: buyer.token })).data.status)
      .toBe('paid');

    // The operator gives $4.00 of it back from the Console.
    const operatorPage = await pageAs(browser, server, operator.token);
    await operatorPage.goto('/console/orders');
    await hydrated(operatorPage);
    await operatorPage.getByLabel('Search orders').fill(order.data.id);
    await operatorPage.getByLabel('Search orders').press('Enter');
    await operatorPage.getByRole('button', { name: order.data.id }).click();
    const detail = operatorPage.getByTestId('order-detail');
    await detail.getByTestId('refund-open').click();
    const refund = operatorPage.getByTestId('refund-dialog');
    await refund.getByLabel('Amount to refund (USD)').fill(REFUND);
    await refund.getByLabel('Reason').fill('One of the gems never arrived');
    await refund.getByTestId('reason-confirm').click();
    await expect(refund).toBeHidden();
    await expect(detail.getByTestId('order-refunded')).toContainText('$4.00');

    // Still January: the sale's share is in the hold, the refund counted at once.
    await studioPage.goto('/studio/earnings');
    await hydrated(studioPage);
    const balances = studioPage.getByLabel('Balances in USD');
    // 699 - 34 pending; the refund's -279 against what is available.
    await expect(balances).toContainText('Pending$6.65');
    await expect(balances).toContainText('Available-$2.79');

    // 2 March: January and February are closed, the hold is over, and February's payout is proposed.
    await server.setClock('2031-03-02T00:30:00.000Z');
    await expect
      .poll(async () => (await call<{ months: { month: string; status: string }[] }>(api, 'GET', '/studio/earnings/', { token: studio.token })).data.months, {
        timeout: 30_000,
      })
      .toEqual(expect.arrayContaining([expect.objectContaining({ month: '2031-01', status: 'closed' })]));
    await studioPage.goto('/studio/earnings/USD/2031-01');
    await hydrated(studioPage);
    await expect(studioPage.getByText(/^Closed on /)).toBeVisible();
    const rows = studioPage.getByRole('row');
    await expect(rows.filter({ hasText: 'Sales' }).filter({ hasText: 'Gem chest' })).toContainText('$9.99');
    await expect(rows.filter({ hasText: 'Sales' }).filter({ hasText: 'Gem chest' })).toContainText('$6.99');
    await expect(rows.filter({ hasText: 'Provider fees and taxes' }).filter({ hasText: 'Gem chest' })).toContainText('$0.49');
    await expect(rows.filter({ hasText: 'Refunds' }).filter({ hasText: 'Gem chest' })).toContainText('-$2.79');
    await expect(studioPage.getByLabel('Totals')).toContainText('Closing balance$3.86');

    // The operator approves the proposed payout in the Console.
    await operatorPage.goto('/console/payouts');
    await hydrated(operatorPage);
    const proposed = operatorPage.getByTestId('payout-row').filter({ hasText: 'Lantern Ledger' });
    await expect(proposed).toHaveAttribute('data-status', 'proposed', { timeout: 30_000 });
    await expect(proposed).toContainText('$3.86');
    await proposed.getByRole('button', { name: /^Approve/ }).click();
    const approval = operatorPage.getByRole('dialog');
    await approval.getByLabel('Reason').fill('Monthly payout, details checked');
    await approval.getByTestId('reason-confirm').click();
    await expect(approval).toBeHidden();

    // Sent through the stand-in, then read back a little later (the clock moves on an hour): paid, in the Studio.
    const payoutsTable = async () => {
      await studioPage.goto('/studio/earnings/payouts');
      return studioPage.getByTestId('studio-payouts').innerText();
    };
    await expect.poll(payoutsTable).toMatch(/Sent/);
    await server.setClock('2031-03-02T01:30:00.000Z');
    await expect.poll(payoutsTable).toMatch(/Paid/);
    await expect(studioPage.getByTestId('studio-payouts')).toContainText('$3.86');
    await studioPage.goto('/studio/earnings');
    await hydrated(studioPage);
    await expect(studioPage.getByLabel('Balances in USD')).toContainText('Paid out$3.86');
    await expect(studioPage.getByLabel('Balances in USD')).toContainText('Available$0.00');
  });
});
