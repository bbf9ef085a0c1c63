import type { APIRequestContext } from '@playwright/test';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { gameId } from '../../support/orders.ts';
import { expect as baseExpect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// A payment is a round trip through the webhook.
const expect = baseExpect.configure({ timeout: 20_000 });

const PASSWORD = 'Harbour-Lantern-Tricky-9';

/** A member's unpaid order of Solitaire's gold card backs, and the address of its sandbox checkout. */
async function unpaidOrder(request: APIRequestContext, prefix: string) {
  const member = await newMember(request, uniqueUsername('carder'), PASSWORD);
  const order = await call<{ id: string }>(request, 'POST', `/game/pay/${await gameId(request, 'solitaire')}`, {
    token: member.token,
    body: { sku: 'solitaire-gold-backs', idempotencyKey: `e2e${Date.now()}${Math.random().toString(36).slice(2)}` },
  });
  expect(order.status, order.message).toBe(201);
  const checkout = await call<{ url: string; token: string }>(request, 'POST', '/payment/xsolla/create/', {
    token: member.token,
    body: { order_id: order.data.id },
  });
  const status = async () => (await call<{ status: string }>(request, 'GET', `/game/orders/${order.data.id}`, { token: member.token })).data.status;
  return { url: prefix + checkout.data.url.replace(/^\/zh-CN/, ''), token: checkout.data.token, status };
}

test.describe('the sandbox checkout', { tag: '@db' }, () => {
  for (const { prefix, required } of [
    { prefix: '', required: 'Enter the card number.' },
    { prefix: '/zh-CN', required: '请输入卡号。' },
  ]) {
    test(`an empty card number is refused at its field and changes nothing (${prefix || 'en'})`, async ({ page, request, problems }) => {
      // The browser logs the refusal the page then shows.
      problems.allow('status of 422');
      const { url, token, status } = await unpaidOrder(request, prefix);
      expect(await status()).toBe('pending');
      await page.goto(url);
      await hydrated(page);
      await page.getByTestId('sandbox-pay').click();
      const card = page.getByTestId('sandbox-card');
      await expect(card.getByTestId('field-error')).toHaveText(required);
      await expect(card.getByRole('textbox').first()).toHaveAttribute('aria-invalid', 'true');
      await expect(card.getByTestId('form-alert')).toHaveCount(0);
      expect(await status()).toBe('pending');

      // Through the API: a 422 in the envelope, naming the field; spaces alone are no card either.
      const refused = await call<{ errors: Record<string, string[]> }>(request, 'POST', '/payment/sandbox/pay/', {
        body: { token, card: '   ' },
        headers: prefix ? { locale: 'zh-CN' } : {},
      });
      expect(refused.status).toBe(422);
      expect(refused.data.errors.card).toEqual([required]);
      expect(await status()).toBe('pending');

      // A card typed after the refusal pays.
      await card.getByRole('textbox').first().fill('4242 4242 4242 4242');
      await page.getByTestId('sandbox-pay').click();
      await expect(page.getByTestId('sandbox-paid')).toBeVisible();
      await expect.poll(status).toBe('paid');
    });
  }

  test('a card number typed while the page still loads is kept and pays', async ({ page, request }) => {
    const { url, status } = await unpaidOrder(request, '');
    // The page's scripts wait until the card is typed into the server-rendered field.
    let release!: () => void;
    const typed = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\.js(\?|$)/, async (route) => {
      await typed;
      await route.continue();
    });
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    const field = page.getByLabel('Card number');
    await field.fill('4242 4242 4242 4242');
    expect(await page.evaluate(() => Object.keys(document.body).some((key) => key.startsWith('__reactFiber')))).toBe(false);
    release();
    await hydrated(page);
    // The page's own first calls (its CSRF cookie) are done before the press, as a person's would be.
    await page.waitForLoadState('networkidle');
    await expect(field).toHaveValue('4242 4242 4242 4242');
    await page.getByTestId('sandbox-pay').click();
    await expect(page.getByTestId('sandbox-paid')).toBeVisible();
    await expect.poll(status).toBe('paid');
  });
});
