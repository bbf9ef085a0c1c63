import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { useSession } from '../browser-session.ts';
import { settledUser } from '../accounts/helpers.ts';
import { expect, test } from '../fixtures.ts';
import { hydrated } from './helpers.ts';

const PASSWORD = 'Harbour-Lantern-Tricky-9';

// What a first-time visitor meets, in both languages: names, titles and the shell around pages.
test.describe('a new visitor’s first pages', () => {
  test('a guest who arrives on a Chinese page gets a Chinese nickname, also in the sign-in sentence', async ({ page, request }) => {
    await page.goto('/zh-CN/login');
    await hydrated(page);
    const guest = await settledUser(page, request);
    expect(guest.userInfo.nickname).toMatch(/^\p{Script=Han}{3,5}\d{4}$/u);
    await expect(page.getByTestId('login-intro')).toContainText(`你正以游客账号 ${guest.userInfo.nickname} 在此设备上游玩`);
  });

  test('the create-account link leads to a page named for it', async ({ page }) => {
    await page.goto('/login?mode=create');
    await hydrated(page);
    await expect(page).toHaveTitle(/^Create account \|/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create account');
    await page.goto('/zh-CN/login?mode=create');
    await expect(page).toHaveTitle(/^创建账号 \|/);
    await page.goto('/login');
    await expect(page).toHaveTitle(/^Sign in \|/);
  });

  test('the not-found page’s header names the visitor', async ({ page, request, context, baseURL, problems }) => {
    problems.allow('status of 404');
    const member = await newMember(request, uniqueUsername('lost'), PASSWORD);
    await useSession(context, baseURL!, member.token);
    await page.goto('/no-such-page');
    await expect(page.getByTestId('not-found')).toBeVisible();
    await expect(page.getByTestId('header-user-name')).toHaveText(member.userInfo.nickname!);
  });

  test('a long nickname ends in an ellipsis in the header, whole in its tooltip and the menu button’s name', async ({ page, request, context, baseURL }) => {
    test.slow();
    const member = await newMember(request, uniqueUsername('long'), PASSWORD);
    const nickname = 'Maximiliana Wolkenstein';
    expect((await call(request, 'PATCH', '/member/nickname/', { token: member.token, body: { nickname } })).status).toBe(200);
    await useSession(context, baseURL!, member.token);
    await page.goto('/user');
    await hydrated(page);
    const name = page.getByTestId('header-user-name');
    await expect(name).toHaveText(nickname);
    await expect(name).toHaveAttribute('title', nickname);
    await expect(name).toHaveCSS('text-overflow', 'ellipsis');
    await expect(page.getByTestId('user-menu-trigger')).toHaveAccessibleName(new RegExp(nickname));
  });

  test('on a phone, the consent banner sits above the bottom navigation @mobile', async ({ page, isMobile }) => {
    test.skip(!isMobile, 'the phone layout');
    await page.goto('/zh-CN?utm_source=facebook&utm_campaign=spring');
    await hydrated(page);
    const banner = await page.getByTestId('consent-banner').boundingBox();
    const bar = await page.getByTestId('bottom-bar').boundingBox();
    expect(banner && bar).toBeTruthy();
    // The banner ends above where the bar begins: every navigation link stays reachable.
    expect(banner!.y + banner!.height).toBeLessThanOrEqual(bar!.y);
    await page.getByTestId('bottom-bar').getByRole('link').nth(2).click();
    await expect(page).toHaveURL(/\/zh-CN\/article\/news/);
  });

  test('Solitaire’s score boxes keep each label on one line on a 390 px phone in Chinese', async ({ page, request }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    test.slow();
    await page.goto('/zh-CN/play/solitaire');
    await hydrated(page);
    await settledUser(page, request);
    const game = page.frameLocator('[data-testid="game-frame"]');
    // With the shop's button shown (its price), the header is at its fullest.
    await expect(game.locator('#backs')).toHaveText(/^金色牌背 · /, { timeout: 20_000 });
    for (const box of await game.locator('.stat small, .stat b').all()) {
      const { height, lineHeight } = await box.evaluate((el) => ({
        height: el.getBoundingClientRect().height,
        lineHeight: parseFloat(getComputedStyle(el).lineHeight),
      }));
      expect(height, (await box.textContent()) ?? '').toBeLessThan(lineHeight * 1.5);
    }
  });

  test('a Chinese play page spaces the game’s Latin title: 玩 2048', async ({ page }) => {
    await page.goto('/zh-CN/play/2048');
    await expect(page).toHaveTitle(/^玩 2048 \|/);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /畅玩 2048，/);
  });

  test('a news card without a date shows no separator for it', async ({ page }) => {
    // Articles loaded with "load more" come from the API; one arrives without a date.
    await page.route('**/serve/api/article/list/**', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.data.items = body.data.items.map((item: { publishedAt: string }, index: number) => (index === 0 ? { ...item, publishedAt: '' } : item));
      await route.fulfill({ response, json: body });
    });
    await page.goto('/article/news');
    await hydrated(page);
    const cards = page.getByTestId('article-card');
    const before = await cards.count();
    await page.getByTestId('load-more').click();
    await expect.poll(() => cards.count()).toBeGreaterThan(before);
    const undated = cards.nth(before).getByTestId('article-card-meta');
    await expect(undated.locator('time')).toHaveCount(0);
    // Column, then reading time: one separator between the two, none dangling.
    expect((await undated.innerText()).split('·').length - 1).toBe(1);
  });

  test('the manifest’s theme colour is the light theme’s, as the pages’ light-scheme theme-color is', async ({ page, request }) => {
    await page.goto('/');
    const light = await page.locator('meta[name="theme-color"][media="(prefers-color-scheme: light)"]').getAttribute('content');
    for (const locale of ['en', 'zh-CN']) {
      const manifest = await (await request.get(`/api/manifest/webmanifest.json?locale=${locale}`)).json();
      expect(manifest.theme_color.toLowerCase()).toBe(light!.toLowerCase());
    }
  });
});
