import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { grantOperator } from '../../support/operators.ts';
import { gameId, paidOrder } from '../../support/orders.ts';
import { useSession } from '../browser-session.ts';
import { expect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// Decision 126: the Console in Chinese on a phone. Its pages' tab strip shows that it scrolls and
// keeps the current page in view; the orders table scrolls rather than squeezing the item; order
// events and the audit log read in words, in Chinese.

const PASSWORD = 'console-phone-pass-1';

test('a Chinese operator on a phone: a tab strip that shows it scrolls, a readable orders table, events and audit entries in words @mobile @db', async ({
  page,
  request,
  baseURL,
  isMobile,
}) => {
  test.skip(!isMobile, 'a phone');
  test.slow();
  const buyer = await newMember(request, uniqueUsername('phonebuyer'), PASSWORD);
  const orderId = await paidOrder(request, buyer.token, await gameId(request, 'solitaire'), 'solitaire-gold-backs');
  const operator = await newMember(request, uniqueUsername('phoneop'), PASSWORD);
  await grantOperator(operator.userInfo.uid);
  expect(
    (await call(request, 'POST', `/console/orders/${orderId}/refund`, { token: operator.token, body: { reason: '退回部分金额', amount: 50 } })).status,
  ).toBe(200);
  await useSession(page.context(), baseURL!, operator.token);

  await page.goto(`/zh-CN/console/orders?q=${orderId}`);
  await hydrated(page);
  const tabs = page.getByRole('navigation', { name: '控制台', exact: true });
  // More pages to the right: the row fades out there.
  await expect(tabs).toHaveAttribute('data-more', /^(end|both)$/);
  expect(await tabs.evaluate((nav) => getComputedStyle(nav).maskImage)).toContain('linear-gradient');
  // The current page is scrolled into view.
  const current = tabs.locator('[aria-current="page"]');
  await expect(current).toHaveText('订单');
  await expect(current).toBeInViewport({ ratio: 1 });

  const item = page.getByTestId('order-item').first();
  await expect(item).toContainText('金色牌背');
  expect((await item.boundingBox())!.width).toBeGreaterThanOrEqual(150);
  await page.screenshot({ path: 'test-results/screens/console-orders-phone-zh-after.png', fullPage: true });

  await page.getByRole('button', { name: orderId }).click();
  const events = page.getByTestId('order-detail').getByTestId('order-events');
  await expect(events.locator('[data-event="created"]')).toContainText('订单已创建');
  await expect(events.locator('[data-event="operator_partial_refund"]')).toContainText('运营人员申请部分退款：已支付 → 已支付');

  await page.goto('/zh-CN/console/audit');
  await hydrated(page);
  const audit = page.getByRole('navigation', { name: '控制台', exact: true }).locator('[aria-current="page"]');
  await expect(audit).toHaveText('审计日志');
  await expect(audit).toBeInViewport({ ratio: 1 });
  await expect(tabs).toHaveAttribute('data-more', /^(start|both)$/);
  const entry = page.locator('[data-testid="audit-entry"][data-action="order.refund"]', { hasText: orderId });
  await expect(entry).toContainText('订单退款');
  await expect(entry).toContainText('退回部分金额 · 金额（最小货币单位）：50');
  await page.screenshot({ path: 'test-results/screens/console-audit-phone-zh-after.png', fullPage: true });
});

test('in Chinese the Console lists games, articles, their columns and pages by their Chinese titles, and finds them by them @db', async ({
  page,
  request,
  baseURL,
}) => {
  test.slow();
  const operator = await newMember(request, uniqueUsername('titlesop'), PASSWORD);
  await grantOperator(operator.userInfo.uid);
  await useSession(page.context(), baseURL!, operator.token);

  await page.goto('/zh-CN/console/games');
  await hydrated(page);
  await page.getByTestId('console-games-search').fill('纸牌');
  await expect(page.locator('[data-testid="console-game"][data-slug="solitaire"]')).toContainText('纸牌接龙');

  await page.goto('/zh-CN/console/articles');
  await hydrated(page);
  await page.getByRole('searchbox').fill('正式上线');
  const article = page.getByTestId('console-article').filter({ hasText: 'Playport 正式上线' });
  await expect(article).toHaveCount(1);
  await expect(article.getByTestId('article-list-column')).toHaveText('新闻');

  await page.goto('/zh-CN/console/pages');
  await hydrated(page);
  await expect(page.locator('[data-testid="console-page"][data-slug="about"]')).toContainText('关于 Playport');
  // In English, the same lists read in English.
  await page.goto('/console/pages');
  await hydrated(page);
  await expect(page.locator('[data-testid="console-page"][data-slug="about"]')).toContainText('About Playport');
});
