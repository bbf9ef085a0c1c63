import { newMember, uniqueUsername } from '../../support/accounts.ts';
import { paidOrder } from '../../support/orders.ts';
import { giveCatalogueGameToNewStudio, openRunDatabase } from '../../support/run-database.ts';
import { useSession } from '../browser-session.ts';
import { expect as baseExpect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

const expect = baseExpect.configure({ timeout: 15_000 });

test.describe('the Studio’s Earnings pages (decision 149)', { tag: '@db' }, () => {
  test('a studio with a sale sees its pending balance, the open month and its statement, in English and Chinese', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    test.slow();
    const studio = await newMember(request, uniqueUsername('earn'), 'earnings-pages-journey-1');
    const gameId = await giveCatalogueGameToNewStudio(studio.userInfo.uid, { name: 'Ledger Works', contactEmail: 'money@ledger.test' });
    const database = await openRunDatabase();
    try {
      const now = new Date().toISOString();
      await database.db
        .insertInto('app_items')
        .values({
          app_id: gameId,
          sku: `earn-gems-${gameId}`,
          price_minor: 500,
          currency: 'USD',
          names: JSON.stringify({ en: 'Gem pouch', 'zh-CN': '宝石袋' }),
          kind: 'consumable',
          active: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
    } finally {
      await database.close();
    }
    const buyer = await newMember(request, uniqueUsername('earnbuy'), 'earnings-pages-buyer-1');
    await paidOrder(request, buyer.token, gameId, `earn-gems-${gameId}`);

    await useSession(context, baseURL!, studio.token);
    await page.goto('/studio/earnings');
    await hydrated(page);
    await expect(page.getByRole('heading', { name: 'Earnings', level: 2 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Earnings' })).toHaveAttribute('aria-current', 'page');
    const balances = page.getByLabel('Balances in USD');
    // $5.00 at 70% less 70% of the sandbox's 5% fee: 350 - 17 = $3.33, all of it in the hold.
    await expect(balances).toContainText('Pending$3.33');
    await expect(balances).toContainText('Available$0.00');
    await expect(page.getByText(/pending for 30 days/)).toBeVisible();
    await expect(page.getByText(/Your share: 70%/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Payouts' })).toHaveAttribute('href', '/studio/earnings/payouts');
    const month = now().slice(0, 7);
    await page
      .getByRole('link', { name: new RegExp(`^Statement for .* in USD$`) })
      .first()
      .click();
    await expect(page).toHaveURL(`/studio/earnings/USD/${month}`);
    await expect(page.getByRole('heading', { level: 2, name: /^Statement for .* · USD$/ })).toBeVisible();
    await expect(page.getByText(/^Open: it closes at the end of the month/)).toBeVisible();
    const sales = page.getByRole('row').filter({ hasText: 'Gem pouch' }).first();
    await expect(sales).toContainText('Sales');
    await expect(sales).toContainText('$5.00');
    await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible();

    await page.goto(`/zh-CN/studio/earnings/USD/${month}`);
    await hydrated(page);
    await expect(page.getByText('宝石袋').first()).toBeVisible();
    await page.goto('/zh-CN/studio/earnings');
    await expect(page.getByRole('heading', { name: '收入', level: 2 })).toBeVisible();
  });
});

const now = () => new Date().toISOString();
