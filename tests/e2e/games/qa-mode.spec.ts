import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { conflictingClassLists } from '../../support/class-conflicts.ts';
import { settledUser } from '../accounts/helpers.ts';
import { expect as baseExpect, hostedGameFrame, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// A purchase is a round trip through the checkout window, the webhook and the page's poll.
const expect = baseExpect.configure({ timeout: 20_000 });

/** The SDK as a framed game sees it (sdk/v1/playport.d.ts). */
type GameWindow = { Playport: { version: string; data: { get(key: string): Promise<unknown> } } };

function logLine(page: Page, method: string, outcome?: string) {
  const line = page.getByTestId('qa-log').locator(`[data-testid="qa-log-entry"][data-method="${method}"]`);
  return outcome ? line.and(page.locator(`[data-outcome="${outcome}"]`)) : line;
}

test.describe('the QA mode of the game SDK', () => {
  test('2048 in QA mode: the log shows its sign-in and cloud save as they happen, errors by code; a restart and a new guest start it over @db', async ({
    page,
    request,
  }) => {
    test.slow();
    await page.goto('/qa/2048');
    await hydrated(page);
    await expect(page.getByTestId('qa-label')).toHaveText('QA mode');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    const guest = await settledUser(page, request);
    await expect(page.getByTestId('qa-player')).toHaveText(`Guest #${guest.userInfo.uid}`);
    await expect(page.getByTestId('qa-payments')).toHaveAttribute('data-provider', 'sandbox');

    // The game's own calls, answered, with what they answered.
    await expect(logLine(page, 'login', 'ok')).toHaveCount(1);
    await expect(logLine(page, 'login')).toContainText(`"uid":${guest.userInfo.uid}`);
    await expect(logLine(page, 'data.get', 'ok')).toContainText('data.get({"key":"progress"})');
    await expect(logLine(page, 'playport:game-loaded')).toHaveCount(1);

    // A move saves the game: data.set is logged with its parameters once the portal answered.
    const frame = await hostedGameFrame(page, '2048');
    await page.locator('[data-testid="game-frame"]').focus();
    for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown']) await page.keyboard.press(key);
    await expect(logLine(page, 'data.set', 'ok').first()).toContainText('"key":"progress"');

    // A refused call shows its code; the runtime is the package's version.
    const version = await frame.evaluate(async () => {
      const sdk = (window as unknown as GameWindow).Playport;
      await sdk.data.get('not a key!').catch(() => undefined);
      return sdk.version;
    });
    await expect(logLine(page, 'data.get', 'validation')).toHaveCount(1);
    expect(version).toBe('1.2.0');

    // Cleared, then restarted: the game signs in again in a fresh frame.
    await page.getByTestId('qa-clear').click();
    // Cleared: the calls before are gone (a save the moves still had waiting may be logged after).
    await expect(page.getByTestId('qa-log')).not.toContainText('data.get');
    await expect(page.getByTestId('qa-log')).not.toContainText('login');
    await page.getByTestId('qa-restart').click();
    await expect(logLine(page, 'login', 'ok')).toHaveCount(1);

    // A new guest: another account, and the game's login answers it.
    await page.getByTestId('qa-clear').click();
    await page.getByTestId('qa-new-guest').click();
    const next = await settledUser(page, request, guest.token);
    expect(next.userInfo.uid).not.toBe(guest.userInfo.uid);
    await expect(page.getByTestId('qa-player')).toHaveText(`Guest #${next.userInfo.uid}`);
    await expect(logLine(page, 'login', 'ok')).toContainText(`"uid":${next.userInfo.uid}`);
  });

  test('Solitaire in QA mode: a throw-away test member buys the gold backs in the sandbox, and the log shows the purchase and its event @db', async ({
    page,
    request,
  }) => {
    test.slow();
    await page.goto('/qa/solitaire');
    await hydrated(page);
    const guest = await settledUser(page, request);
    await expect(logLine(page, 'getConfig', 'ok')).toContainText('"sku":"solitaire-gold-backs"');

    // A test member, made through the API a guest secures the account with; the game restarts as that member.
    await page.getByTestId('qa-clear').click();
    await page.getByTestId('qa-new-member').click();
    await expect(page.getByTestId('qa-player')).toHaveAttribute('data-member', 'true');
    await expect(page.getByTestId('qa-credentials')).toContainText(/username qa_[a-z0-9]{10}, password qa-/);
    const member = await settledUser(page, request, guest.token);
    expect(member.userInfo.isGuest).toBe(false);
    // The restarted game asks for its items (Solitaire asks again when it hears of the new player).
    await expect(logLine(page, 'getConfig', 'ok').first()).toBeVisible();

    // The game's own buy button: the sandbox checkout, a test card, paid.
    const buy = page.frameLocator('[data-testid="game-frame"]').locator('#backs');
    await expect(buy).toHaveText('Gold card backs · $1.99');
    const checkoutOpened = page.waitForEvent('popup');
    await buy.click();
    const checkout = await checkoutOpened;
    await expect(logLine(page, 'pay', 'pending')).toContainText('pay({"sku":"solitaire-gold-backs"})');
    // The pay button answers once the checkout is hydrated.
    await hydrated(checkout);
    await checkout.getByLabel('Card number').fill('4242 4242 4242 4242');
    const closed = checkout.waitForEvent('close');
    await checkout.getByTestId('sandbox-pay').click();
    await closed;

    await expect(logLine(page, 'pay', 'ok')).toContainText('"status":"paid"');
    await expect(logLine(page, 'purchase')).toContainText('"sku":"solitaire-gold-backs"');
    await expect(logLine(page, 'purchase')).toHaveAttribute('data-kind', 'event');
    await expect(buy).toHaveText('Green backs');
  });

  test('in Chinese the panel speaks Chinese; the SDK package serves its runtime and nothing else of the package', async ({ page, request }) => {
    await page.goto('/zh-CN/qa/2048');
    await hydrated(page);
    await expect(page.getByTestId('qa-label')).toHaveText('QA 模式');
    await expect(page.getByRole('complementary', { name: 'QA 面板' })).toBeVisible();
    await expect(page.getByTestId('qa-log').locator('[data-method="login"]')).toHaveCount(1);

    const runtime = await request.get('/sdk/v1/playport.js');
    expect(runtime.status()).toBe(200);
    expect(await runtime.text()).toContain("version: '1.2.0'");
    expect((await request.get('/sdk/v1/playport.d.ts')).status()).toBe(200);
    for (const path of ['/sdk/package.json', '/sdk/CHANGELOG.md', '/sdk/README.md']) expect((await request.get(path)).status(), path).toBe(404);
  });

  test('the QA page is usable by keyboard, passes axe, and fits a 320 px screen', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto('/qa/2048');
    await hydrated(page);
    await expect(page.getByTestId('qa-log').locator('[data-method="login"]')).toHaveCount(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

    // From the panel's first control onwards, Tab reaches each button, and Enter works one.
    await page.getByRole('link', { name: 'Open the play page' }).focus();
    const reached: string[] = [];
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
    }
    expect(reached).toEqual(expect.arrayContaining(['New guest', 'New test member', 'Restart game', 'Clear log']));
    await page.getByTestId('qa-clear').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('qa-log')).toHaveText('No calls yet.');

    const classLists = await page.locator('[class]').evaluateAll((elements) => elements.map((element) => element.getAttribute('class') ?? ''));
    expect(conflictingClassLists(classLists)).toEqual([]);
    const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
    expect(
      results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id),
    ).toEqual([]);
  });
});
