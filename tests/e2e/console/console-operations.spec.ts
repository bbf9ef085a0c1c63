import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { grantOperator } from '../../support/operators.ts';
import { insertDeveloperGame, insertReviewedBuild } from '../../../server/testing/developer-games.ts';
import { gameId, paidOrder } from '../../support/orders.ts';
import { openRunDatabase } from '../../support/run-database.ts';
import { useSession } from '../browser-session.ts';
import { expect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

const PASSWORD = 'console-journey-pass-1';

test.describe('the Console (decision 098)', { tag: '@db' }, () => {
  test('an operator finds an order, refunds it with a reason, finds the member, disables them, and sees both in the audit log', async ({
    page,
    request,
    baseURL,
  }) => {
    test.slow();
    const buyerName = uniqueUsername('buyer');
    const buyer = await newMember(request, buyerName, PASSWORD);
    const orderId = await paidOrder(request, buyer.token, await gameId(request, 'solitaire'), 'solitaire-gold-backs');
    const operator = await newMember(request, uniqueUsername('oper'), PASSWORD);
    await grantOperator(operator.userInfo.uid);
    await useSession(page.context(), baseURL!, operator.token);

    // The order, found by its id; refunded with a reason, by keyboard.
    await page.goto('/console/orders');
    await hydrated(page);
    await page.getByLabel('Search orders').fill(orderId);
    await page.getByLabel('Search orders').press('Enter');
    await expect(page.getByTestId('order-row')).toHaveCount(1);
    await page.getByRole('button', { name: orderId }).click();
    const detail = page.getByTestId('order-detail');
    await expect(detail.getByTestId('order-status')).toHaveAttribute('data-status', 'paid');
    // First a part of it (decision 124): more than the order is refused at the field, then $0.50 goes back and the order stays paid.
    await detail.getByTestId('refund-open').click();
    const dialog = page.getByTestId('refund-dialog');
    const amount = dialog.getByLabel('Amount to refund (USD)');
    const price = await amount.inputValue();
    expect(Number(price)).toBeGreaterThan(0.5);
    await amount.fill('500');
    await dialog.getByLabel('Reason').fill('Backs did not load for a day');
    await dialog.getByTestId('reason-confirm').click();
    await expect(dialog.getByText(`Enter an amount above 0 and at most ${price} USD.`)).toBeVisible();
    await amount.fill('0.50');
    await dialog.getByTestId('reason-confirm').click();
    await expect(dialog).toBeHidden();
    await expect(detail.getByTestId('order-status')).toHaveAttribute('data-status', 'paid');
    await expect(detail.getByTestId('order-refunded')).toContainText('$0.50');
    // The events in words (decision 126), each with its code.
    await expect(detail.getByTestId('order-events').locator('[data-event="operator_partial_refund"]')).toContainText(
      'Partial refund asked by an operator: Paid → Paid',
    );
    await expect(detail.getByTestId('order-events').locator('[data-event="partial_refund"]')).toContainText('Partly refunded (provider): Paid → Paid');

    // Then the rest, whole.
    await detail.getByTestId('refund-open').click();
    await expect(amount).toHaveValue((Number(price) - 0.5).toFixed(2));
    await dialog.getByLabel('Reason').fill('Bought by mistake');
    await dialog.getByLabel('Reason').press('Enter');
    await expect(dialog).toBeHidden();
    await expect(detail.getByTestId('order-status')).toHaveAttribute('data-status', 'refunded');
    // The sandbox's refund notification reaches the webhook before the operator's request is recorded.
    await expect(detail.getByTestId('order-events').locator('[data-event="refund"]')).toContainText('Refunded (provider): Paid → Refunded');
    await expect(detail.getByTestId('order-events').locator('[data-event="operator_refund"]')).toContainText('Refunded by an operator');
    expect((await call<{ status: string }>(request, 'GET', `/game/orders/${orderId}`, { token: buyer.token })).data.status).toBe('refunded');

    // The member, found by username; disabled with a reason: their session ends.
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByLabel('Find a member').fill(buyerName);
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await page.getByRole('button', { name: `#${buyer.userInfo.uid}` }).click();
    const member = page.getByTestId('member-detail');
    await expect(member.getByTestId('member-sign-in')).toContainText('Password');
    // The member asked for their data by mail: an archive is prepared for them (decision 144).
    const memberDialog = page.getByTestId('member-dialog');
    await member.getByTestId('export-open').click();
    await memberDialog.getByLabel('Reason').fill('Asked for their data by mail');
    await memberDialog.getByTestId('reason-confirm').click();
    await expect(memberDialog).toBeHidden();
    await expect(member.getByTestId('member-exports').locator('li')).toHaveCount(1);
    await expect(member.getByTestId('member-exports')).toContainText('asked by an operator');
    await member.getByTestId('disable-open').click();
    await memberDialog.getByLabel('Reason').fill('Chargeback abuse');
    await memberDialog.getByTestId('reason-confirm').click();
    await expect(member.getByTestId('member-state')).toHaveAttribute('data-disabled', 'true');
    expect((await call(request, 'GET', '/member/info/', { token: buyer.token })).status).toBe(401);
    const refused = await call(request, 'POST', '/username/login/', { body: { username: buyerName, password: PASSWORD } });
    expect(refused.status).toBe(403);
    expect(refused.message).toMatch(/disabled/);

    // Both actions in the audit log, newest first, with their reasons.
    await page.goto('/console/audit');
    await hydrated(page);
    // Other operators' journeys write to the same log meanwhile: find these two by what they name.
    const disable = page.locator('[data-testid="audit-entry"][data-action="member.disable"]', { hasText: 'Chargeback abuse' });
    await expect(disable).toHaveCount(1);
    await expect(page.locator('[data-testid="audit-entry"][data-action="member.data_export"]', { hasText: 'Asked for their data by mail' })).toContainText(
      'Data archive prepared on request',
    );
    // Two refunds of the order: the part, with its amount, and the rest.
    const refunds = page.locator('[data-testid="audit-entry"][data-action="order.refund"]', { hasText: orderId });
    await expect(refunds).toHaveCount(2);
    await expect(refunds.filter({ hasText: 'Bought by mistake' })).toHaveCount(1);
    await expect(refunds.filter({ hasText: 'Backs did not load for a day' })).toContainText('50');
    const actions = await page.getByTestId('audit-entry').evaluateAll((rows) => rows.map((row) => row.textContent ?? ''));
    const disableAt = actions.findIndex((text) => text.includes('Chargeback abuse'));
    const refundAt = actions.findIndex((text) => text.includes(orderId) && text.includes('Bought by mistake'));
    expect(disableAt).toBeLessThan(refundAt);
    await expect(page.getByRole('button', { name: /edit|delete/i })).toHaveCount(0);

    // The acquisition report as charts and a table, in Chinese.
    await page.goto('/zh-CN/console/acquisition');
    await hydrated(page);
    await expect(page.getByRole('heading', { name: '获客' })).toBeVisible();
    await expect(page.getByTestId('chart-sign-ups').locator('svg.recharts-surface').first()).toBeVisible();
    await expect(page.getByTestId('chart-sign-ups')).toContainText('各推广活动的注册数与会员数');
    await expect(page.getByTestId('acquisition-table').locator('tbody tr').first()).toBeVisible();
  });

  test('an operator tells a test order, made in a build preview, from a real one by its badge, in both languages', async ({ page, request, baseURL }) => {
    test.slow();
    const developerName = uniqueUsername('tester');
    const developer = await newMember(request, developerName, PASSWORD);
    // A developer's draft game with a build and an item on sale, as the Studio leaves them.
    const database = await openRunDatabase();
    const now = new Date().toISOString();
    await database.db
      .insertInto('developer_profiles')
      .values({ user_id: developer.userInfo.uid, studio_name: 'Badge Works', contact_email: 'dev@badge.test', created_at: now, updated_at: now })
      .execute();
    const game = await insertDeveloperGame(database.db, developer.userInfo.uid, { thumbnail: '/games/snake/thumbnail.svg' });
    await insertReviewedBuild(database.db, {
      appId: game.id,
      version: 1,
      status: 'rejected',
      uploadedBy: developer.userInfo.uid,
      reviewedBy: developer.userInfo.uid,
    });
    await database.db
      .insertInto('app_items')
      .values({
        app_id: game.id,
        sku: 'badge-gold',
        price_minor: 199,
        currency: 'USD',
        names: JSON.stringify({ en: 'Gold', 'zh-CN': '金币' }),
        kind: 'consumable',
        active: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await database.close();
    const builds = await call<{ builds: { previewUrl: string }[] }>(request, 'GET', `/studio/games/${game.id}/builds`, { token: developer.token });
    const label = new URL(builds.data.builds[0]!.previewUrl).searchParams.get('preview')!;
    const testOrder = await paidOrder(request, developer.token, game.id, 'badge-gold', label);
    const liveOrder = await paidOrder(request, developer.token, await gameId(request, 'solitaire'), 'solitaire-gold-backs');
    const operator = await newMember(request, uniqueUsername('oper'), PASSWORD);
    await grantOperator(operator.userInfo.uid);
    await useSession(page.context(), baseURL!, operator.token);

    await page.goto('/console/orders');
    await hydrated(page);
    await page.getByLabel('Search orders').fill(developerName);
    await page.getByLabel('Search orders').press('Enter');
    const rows = page.getByTestId('order-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: testOrder }).getByTestId('order-test')).toHaveText('Test');
    await expect(rows.filter({ hasText: liveOrder }).getByTestId('order-test')).toHaveCount(0);
    await page.getByRole('button', { name: testOrder }).click();
    const detail = page.getByTestId('order-detail');
    await expect(detail.getByTestId('order-test')).toHaveText('Test');
    await expect(detail).toContainText('no real money');

    await page.goto(`/zh-CN/console/orders?q=${developerName}&order=${testOrder}`);
    await hydrated(page);
    await expect(page.getByTestId('order-row').filter({ hasText: testOrder }).getByTestId('order-test')).toHaveText('测试');
    await expect(page.getByTestId('order-detail').getByTestId('order-test')).toHaveText('测试');
    await expect(page.getByTestId('order-row').filter({ hasText: liveOrder }).getByTestId('order-test')).toHaveCount(0);
  });

  test('on a phone, by keyboard alone, an operator looks a member up and reads how they sign in @mobile', async ({ page, request, baseURL }) => {
    const name = uniqueUsername('phoned');
    const member = await newMember(request, name, PASSWORD);
    const operator = await newMember(request, uniqueUsername('oper'), PASSWORD);
    await grantOperator(operator.userInfo.uid);
    await useSession(page.context(), baseURL!, operator.token);
    await page.goto('/zh-CN/console/members');
    await hydrated(page);
    await page.getByLabel('查找会员').focus();
    await page.keyboard.type(name);
    await page.keyboard.press('Enter');
    const open = page.getByRole('button', { name: `#${member.userInfo.uid}` });
    await expect(open).toBeVisible();
    await open.focus();
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('member-detail');
    await expect(detail.getByTestId('member-sign-in')).toContainText('密码');
    await expect(detail.getByTestId('member-locked')).toHaveAttribute('data-locked', 'false');
    // Nothing is wider than the phone's screen but the tables, which scroll in their own frame.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
