import type { Locator } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// SCREEN_PHASE names the screenshot (before / after a layout change), kept under test-results/screens.
const phase = process.env.SCREEN_PHASE ?? 'after';

/** Whether the price is cut: the button's content overflows it, or the price's text its own box or the button's. */
const priceClipped = (button: Locator) =>
  button.evaluate((el) => {
    const price = [...el.querySelectorAll('*')].find((node) => /\d/.test(node.textContent ?? '') && node.children.length === 0) ?? el;
    const outer = el.getBoundingClientRect();
    const inner = price.getBoundingClientRect();
    return (
      el.scrollWidth > el.clientWidth || price.scrollWidth > price.clientWidth || inner.left < outer.left || inner.right > outer.right || inner.width === 0
    );
  });

test.describe('Solitaire’s buy button on a phone', { tag: '@mobile' }, () => {
  for (const { path, price, name } of [
    { path: '/play/solitaire', price: '$1.99', name: 'Gold card backs' },
    { path: '/zh-CN/play/solitaire', price: 'US$1.99', name: '金色牌背' },
  ]) {
    test(`shows the whole price of the gold card backs (${path})`, async ({ page }) => {
      await page.goto(path);
      await hydrated(page);
      const buy = page.frameLocator('[data-testid="game-frame"]').locator('#backs');
      await expect(buy).toContainText(name);
      if (path === '/play/solitaire')
        await page
          .frameLocator('[data-testid="game-frame"]')
          .locator('header')
          .screenshot({ path: `test-results/screens/solitaire-buy-phone-${phase}.png` });
      await expect(buy).toContainText(price);
      expect(await priceClipped(buy)).toBe(false);
      await expect(buy).toBeInViewport({ ratio: 1 });
    });
  }
});
