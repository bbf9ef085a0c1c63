import type { Page } from '@playwright/test';
import { newMember, uniqueUsername } from '../../support/accounts.ts';
import { useSession } from '../browser-session.ts';
import { expect as baseExpect, hostedGameFrame, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// A purchase is a round trip through the checkout window, the webhook and the page's poll.
const expect = baseExpect.configure({ timeout: 20_000 });

const PASSWORD = 'Harbour-Lantern-Tricky-9';

/** The SDK as a framed game sees it (sdk/v1/playport.d.ts). */
type GameWindow = { Playport: { pay(request: { sku: string }): Promise<{ status: string }> } };

const TEXTS = {
  en: {
    prefix: '',
    waiting: 'Waiting for the payment…',
    paid: 'Purchase complete: Gold card backs',
    declined: 'The payment did not go through. Nothing was charged.',
    cancelled: 'The purchase was cancelled.',
  },
  'zh-CN': { prefix: '/zh-CN', waiting: '正在等待付款…', paid: '购买成功：金色牌背', declined: '付款未成功，未产生任何扣款。', cancelled: '已取消购买。' },
};

/** A member on Solitaire's play page whose game asked to buy the gold card backs: the checkout window and the game's answer. */
async function buyGoldBacks(page: Page, request: import('@playwright/test').APIRequestContext, baseURL: string, prefix: string) {
  const member = await newMember(request, uniqueUsername('toaster'), PASSWORD);
  await useSession(page.context(), baseURL, member.token);
  await page.goto(`${prefix}/play/solitaire`);
  await hydrated(page);
  await expect(page.frameLocator('[data-testid="game-frame"]').locator('#backs')).toBeVisible();
  const frame = await hostedGameFrame(page, 'solitaire');
  const checkoutOpened = page.waitForEvent('popup');
  const answer = frame.evaluate(() => (window as unknown as GameWindow).Playport.pay({ sku: 'solitaire-gold-backs' }).then((r) => r.status));
  const checkout = await checkoutOpened;
  await hydrated(checkout);
  return { checkout, answer };
}

test.describe('after paying, the play page says how the purchase ended', { tag: '@db' }, () => {
  for (const [locale, text] of Object.entries(TEXTS)) {
    test(`a paid purchase is told by one toast, and the dialog says once that it waits (${locale})`, async ({ page, request, baseURL }) => {
      test.slow();
      const { checkout, answer } = await buyGoldBacks(page, request, baseURL!, text.prefix);
      const dialog = page.getByTestId('purchase-dialog');
      await expect(dialog).toContainText(text.waiting);
      expect((await dialog.innerText()).split(text.waiting)).toHaveLength(2);
      await checkout.getByRole('textbox').first().fill('4242 4242 4242 4242');
      await checkout.getByTestId('sandbox-pay').click();
      expect(await answer).toBe('paid');
      await expect(page.getByTestId('toast')).toHaveText([text.paid]);
      await expect(dialog).toHaveCount(0);
    });

    test(`a declined card ends the purchase at once, closes the checkout and stops asking about the order (${locale})`, async ({ page, request, baseURL }) => {
      test.slow();
      const { checkout, answer } = await buyGoldBacks(page, request, baseURL!, text.prefix);
      const closed = checkout.waitForEvent('close');
      await checkout.getByRole('textbox').first().fill('4000 0000 0000 0002');
      await checkout.getByTestId('sandbox-pay').click();
      // The checkout stays open on its own; the play page ends the purchase as soon as it sees the order failed.
      expect(await answer).toBe('declined');
      await closed;
      await expect(page.getByTestId('toast')).toHaveText([text.declined]);
      await expect(page.getByTestId('purchase-dialog')).toHaveCount(0);
      let polls = 0;
      page.on('request', (r) => {
        if (r.url().includes('/serve/api/game/orders/')) polls++;
      });
      // Three poll intervals (2 s each) pass without one more question about the failed order. A
      // controlled clock installed before the page loads stops its hydration check (it polls by animation frames).
      await page.waitForTimeout(6_500);
      expect(polls).toBe(0);
      // The player tries another card with a new purchase.
      const again = page.waitForEvent('popup');
      await page.frameLocator('[data-testid="game-frame"]').locator('#backs').click();
      const second = await again;
      await hydrated(second);
      await expect(page.getByTestId('purchase-dialog')).toBeVisible();
      await second.close();
    });

    test(`closing the purchase dialog tells the player it was cancelled (${locale})`, async ({ page, request, baseURL }) => {
      test.slow();
      const { answer } = await buyGoldBacks(page, request, baseURL!, text.prefix);
      await page
        .getByTestId('purchase-dialog')
        .getByRole('button', { name: locale === 'en' ? 'Close' : '关闭' })
        .click();
      expect(await answer).toBe('cancelled');
      await expect(page.getByTestId('toast')).toHaveText([text.cancelled]);
    });
  }
});
