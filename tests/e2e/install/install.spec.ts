import type { Page } from '@playwright/test';
import { recordTracking } from '../browser-session.ts';
import { expect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

/**
 * What Chromium fires when the portal is installable (simulated: a headless browser never offers
 * it); the offer's prompt, once called, sets `window.prompted`.
 */
async function offerInstallation(page: Page): Promise<void> {
  await page.evaluate(() => {
    const offer = new Event('beforeinstallprompt', { cancelable: true }) as Event & { prompt: () => Promise<void>; userChoice: Promise<{ outcome: string }> };
    offer.prompt = async () => {
      (window as unknown as { prompted: boolean }).prompted = true;
    };
    offer.userChoice = Promise.resolve({ outcome: 'accepted' });
    window.dispatchEvent(offer);
  });
}

test.describe('installable app and campaign attribution', () => {
  test('the install button appears only when the browser offers installation, and an install is tracked', async ({ page }) => {
    const tracked = await recordTracking(page);
    await page.goto('/');
    await hydrated(page);
    await expect(page.getByTestId('install-button')).toHaveCount(0);

    await offerInstallation(page);
    const button = page.getByTestId('install-button');
    await expect(button).toBeVisible();
    await expect(button).toHaveAccessibleName('Install app');
    await button.click();
    expect(await page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(true);
    await expect(button).toHaveCount(0);

    await page.evaluate(() => window.dispatchEvent(new Event('appinstalled')));
    expect((await tracked()).filter((e) => e.event === 'pwa-install')).toHaveLength(1);
  });

  test('a phone is offered installation too: in the user drawer, once the browser offers it @mobile', async ({ page, isMobile }) => {
    test.skip(!isMobile, 'the phone layout');
    await page.goto('/zh-CN');
    await hydrated(page);
    await offerInstallation(page);
    // The browser's own prompt is held back, so the page must offer it where a phone can reach it.
    await page.getByTestId('user-drawer-trigger').click();
    const offer = page.getByTestId('user-drawer').getByTestId('install-offer');
    await expect(offer).toBeVisible();
    await expect(offer).toContainText('离线也能玩');
    await offer.getByRole('button', { name: '安装应用' }).click();
    expect(await page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(true);
    await expect(page.getByTestId('user-drawer')).toBeHidden();
    // The offer is used up.
    await page.getByTestId('user-drawer-trigger').click();
    await expect(page.getByTestId('user-drawer')).toBeVisible();
    await expect(page.getByTestId('install-offer')).toHaveCount(0);
  });

  test('Chromium finds the portal installable in both locales (what Lighthouse is asked too: npm run lighthouse)', async ({ page }) => {
    const cdp = await page.context().newCDPSession(page);
    // The test's browser context is incognito, which Chromium names too: it is not the page's doing.
    const errors = async () =>
      (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito');
    const ids = new Set<string>();
    for (const [path, locale] of [
      ['/', 'en'],
      ['/zh-CN', 'zh-CN'],
    ] as const) {
      await page.goto(path);
      await hydrated(page);
      await expect.poll(errors).toEqual([]);
      // The manifest as Chromium read it: this locale's, without errors, complete.
      const { url, errors: manifestErrors, manifest, data } = await cdp.send('Page.getAppManifest', {});
      expect(new URL(url).searchParams.get('locale')).toBe(locale);
      expect(manifestErrors).toEqual([]);
      expect(new URL(manifest.startUrl!).pathname).toBe(locale === 'en' ? '/pwa' : '/zh-CN/pwa');
      expect(new URL(manifest.scope!).pathname).toMatch(locale === 'en' ? /^\/$/ : /^\/zh-CN\/?$/);
      expect(manifest.shortcuts?.length).toBeGreaterThanOrEqual(3);
      expect(new Set(manifest.screenshots?.map((shot) => shot.formFactor))).toEqual(new Set(['kWide', 'kNarrow'])); // Chromium's names for wide and narrow
      // Chromium does not report icon purposes: the manifest's own text does.
      expect((JSON.parse(data!) as { icons: Array<{ purpose?: string }> }).icons.some((icon) => icon.purpose?.includes('maskable'))).toBe(true);
      ids.add(manifest.id!);
    }
    // One app in both languages.
    expect(ids.size).toBe(1);
    // A page without the manifest is not (the check can fail).
    await page.goto('/offline/en.html');
    await expect.poll(errors).toContain('no-manifest');
  });

  test('a first visit from a campaign creates its guest with the campaign tags', async ({ page }) => {
    const guestCreated = page.waitForRequest((request) => request.url().includes('/serve/api/guest/login/') && request.method() === 'POST');
    await page.goto('/?utm_source=facebook&utm_medium=paid%20social&utm_campaign=launch');
    const headers = (await guestCreated).headers();
    expect({ source: headers['utm-source'], medium: headers['utm-medium'], campaign: headers['utm-campaign'] }).toEqual({
      source: 'facebook',
      medium: 'paid%20social',
      campaign: 'launch',
    });
  });
});
