import { newMember, uniqueUsername } from '../../support/accounts.ts';
import { catalogueSamples, inVariant, LOCALE_VARIANTS } from '../../support/site.ts';
import { useSession } from '../browser-session.ts';
import { expect, test } from '../fixtures.ts';
import { hydrated } from './helpers.ts';

// Statuses, titles, languages, alternates and layouts of every route in every locale variant are
// checked over HTTP (tests/pages/routes.spec.ts). The browser adds what HTML alone cannot show:
// which parts of each layout a phone and a desktop display, and that every page hydrates cleanly.

type Layout = 'default' | 'auth' | 'empty';

async function expectLayout(page: import('@playwright/test').Page, layout: Layout, mobile: boolean) {
  const header = page.getByTestId('site-header');
  if (layout === 'default') {
    await expect(header).toBeVisible();
    await expect(page.getByTestId('header-nav')).toBeVisible({ visible: !mobile });
    await expect(page.getByTestId('bottom-bar')).toBeVisible({ visible: mobile });
    await expect(page.getByTestId('site-footer')).toBeVisible({ visible: !mobile });
  } else if (layout === 'auth') {
    await expect(page.getByTestId('auth-header')).toBeVisible();
    await expect(header).toHaveCount(0);
    await expect(page.getByTestId('bottom-bar')).toHaveCount(0);
  } else {
    await expect(header).toHaveCount(0);
    await expect(page.getByTestId('bottom-bar')).toHaveCount(0);
    await expect(page.getByTestId('site-footer')).toHaveCount(0);
  }
}

const ROUTES = [
  '/',
  '/pwa',
  '/login',
  '/settings',
  '/test',
  '/app/{app}',
  '/play/{app}',
  '/user',
  '/about',
  '/terms',
  '/cookie-policy',
  '/privacy-policy',
  '/account-deletion',
  '/article/news',
  '/article/news/esports',
  '/article/news/1001',
  '/article/post/1001',
  '/categories',
  '/categories/{category}',
  '/user/profile',
  '/user/profile/email',
  '/user/profile/phone',
  '/user/profile/avatar',
  '/user/profile/social',
  '/user/profile/passkey',
  '/user/profile/sessions',
  '/user/profile/nickname',
  '/user/profile/password',
  '/user/profile/data',
  '/user/profile/two-factor',
  '/user/profile/delete',
];

test.describe('routes in the browser', () => {
  test('each layout shows and hides its parts on a phone and a desktop @mobile', async ({ page, request, isMobile }) => {
    const { app } = await catalogueSamples(request);
    for (const [path, layout] of [
      ['/about', 'default'],
      ['/zh-CN/login', 'auth'],
      [`/play/${app}`, 'empty'],
    ] as const) {
      await page.goto(path);
      await expectLayout(page, layout, isMobile);
    }
  });

  // In two halves, so that two workers share the walk.
  for (const half of [0, 1]) {
    test(`every route hydrates without a console error or a failed request, signed in as a member (${half + 1} of 2)`, async ({
      page,
      context,
      request,
      baseURL,
    }) => {
      test.slow();
      const { app, category } = await catalogueSamples(request);
      const member = await newMember(request, uniqueUsername('walker'), 'route-walker-42');
      await useSession(context, baseURL!, member.token);
      // Each route in one locale variant, taking the variants in turn.
      for (const [index, route] of ROUTES.entries()) {
        if (index % 2 !== half) continue;
        const url = inVariant(LOCALE_VARIANTS[index % LOCALE_VARIANTS.length]!, route.replace('{app}', app).replace('{category}', category));
        const response = await page.goto(url);
        expect(response?.status(), url).toBe(200);
        await hydrated(page);
        await expect(page.getByTestId('not-found'), url).toHaveCount(0);
      }
    });
  }
});
