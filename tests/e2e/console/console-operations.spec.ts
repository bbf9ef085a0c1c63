import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { grantOperator } from '../../support/operators.ts';
import { gameId, paidOrder } from '../../support/orders.ts';
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
    await detail.getByTestId('refund-open').click();
    const dialog = page.getByTestId('refund-dialog');
    await dialog.getByLabel('Reason').fill('Bought by mistake');
    await dialog.getByLabel('Reason').press('Enter');
    await expect(dialog).toBeHidden();
    await expect(detail.getByTestId('order-status')).toHaveAttribute('data-status', 'refunded');
    await expect(detail.getByTestId('order-events')).toContainText('operator_refund');
    expect((await call<{ status: string }>(request, 'GET', `/game/orders/${orderId}`, { token: buyer.token })).data.status).toBe('refunded');

    // The member, found by username; disabled with a reason: their session ends.
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByLabel('Find a member').fill(buyerName);
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await page.getByRole('button', { name: `#${buyer.userInfo.uid}` }).click();
    const member = page.getByTestId('member-detail');
    await expect(member.getByTestId('member-sign-in')).toContainText('Password');
    await member.getByTestId('disable-open').click();
    const memberDialog = page.getByTestId('member-dialog');
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
    const refund = page.locator('[data-testid="audit-entry"][data-action="order.refund"]', { hasText: orderId });
    await expect(refund).toContainText('Bought by mistake');
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
