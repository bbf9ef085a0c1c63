import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { grantOperator } from '../../support/operators.ts';
import { PRODUCT } from '../../support/site.ts';
import { useSession } from '../browser-session.ts';
import { expect, test } from '../fixtures.ts';
import { hydrated } from './helpers.ts';

// The ways in for studios and operators (decision 120): the footer's "For developers" for everyone
// (on a phone, the foot of the account drawer), the account menu's Studio for a member with a
// studio profile and Console for an operator, each in the page's language.

const PASSWORD = 'Harbour-Lantern-Tricky-9';

test.describe('the ways in for studios and operators', () => {
  test('desktop: the footer leads to the developers’ page, in both languages', async ({ page, isMobile }) => {
    test.skip(isMobile, 'the footer is a desktop one');
    await page.goto('/zh-CN');
    await hydrated(page);
    await page.getByTestId('site-footer').getByRole('link', { name: '开发者专区' }).click();
    await expect(page).toHaveURL('/zh-CN/page/developers');
    await expect(page).toHaveTitle(`在 ${PRODUCT} 发布你的游戏 | ${PRODUCT}`);
    await page.goto('/');
    await hydrated(page);
    await page.getByTestId('site-footer').getByRole('link', { name: 'For developers' }).click();
    await expect(page).toHaveURL('/page/developers');
    await expect(page).toHaveTitle(`Publish your game on ${PRODUCT} | ${PRODUCT}`);
  });

  test('desktop: the account menu names the Studio once the member has a studio profile, and the Console once an operator', async ({
    page,
    request,
    baseURL,
    isMobile,
  }) => {
    test.skip(isMobile, 'the popover is the desktop account menu');
    test.slow();
    const member = await newMember(request, uniqueUsername('waysin'), PASSWORD);
    await useSession(page.context(), baseURL!, member.token);
    const menuItems = async () => {
      await page.getByTestId('user-menu-trigger').click();
      const items = page.getByTestId('user-menu').getByTestId('user-menu-items').getByRole('link');
      return items;
    };

    // A member without a studio: neither entry.
    await page.goto('/');
    await hydrated(page);
    await expect(await menuItems()).toHaveText(['Profile', 'Social accounts', 'Switch account', 'Settings']);
    await page.keyboard.press('Escape');

    // With a studio profile: the Studio, in the page's language.
    expect(
      (await call(request, 'PUT', '/studio/profile/', { token: member.token, body: { studioName: 'Harbour Works', contactEmail: 'team@harbour.test' } }))
        .status,
    ).toBe(200);
    await page.goto('/zh-CN');
    await hydrated(page);
    await expect(await menuItems()).toHaveText(['个人资料', '社交账号', '切换账号', '开发者工作室', '设置']);
    await page.getByTestId('user-menu').getByRole('link', { name: '开发者工作室' }).click();
    await expect(page).toHaveURL('/zh-CN/studio');
    await expect(page.getByTestId('user-menu')).toBeHidden();

    // An operator too: the Console, which opens.
    await grantOperator(member.userInfo.uid);
    await page.goto('/');
    await hydrated(page);
    await expect(await menuItems()).toHaveText(['Profile', 'Social accounts', 'Switch account', 'Studio', 'Console', 'Settings']);
    await page.getByTestId('user-menu').getByRole('link', { name: 'Console' }).click();
    await expect(page).toHaveURL('/console');
    await expect(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
    // Its overview counts what waits for review, each count a way to the reviews (decision 122).
    const overview = page.getByTestId('console-overview');
    await expect(overview.getByRole('link', { name: /^Builds waiting for review/ })).toHaveAttribute('href', '/console/reviews');
    await expect(overview.getByRole('link', { name: /^Game changes waiting for review/ })).toHaveAttribute('href', '/console/reviews');
    await expect(page.getByTestId('overview-buildsWaiting')).toHaveText(/^\d+$/);
    await page.goto('/zh-CN/console');
    await expect(page.getByTestId('console-overview').getByText('待审核的版本')).toBeVisible();
    await expect(page.getByTestId('console-overview').getByText('待审核的游戏修改')).toBeVisible();
  });

  test('phone: the account drawer ends with the developers’ page, and names the Studio for a member with a studio profile @mobile', async ({
    page,
    request,
    baseURL,
    isMobile,
  }) => {
    test.skip(!isMobile, 'the drawer is the phone’s account menu');
    test.slow();
    // A visitor: the drawer's foot leads to the developers' page.
    await page.goto('/zh-CN');
    await hydrated(page);
    await page.getByTestId('user-drawer-trigger').click();
    const drawer = page.getByTestId('user-drawer');
    await expect(drawer.getByTestId('user-menu-items').getByRole('link')).toHaveText(['设置']);
    await drawer.getByRole('link', { name: '开发者专区' }).click();
    await expect(page).toHaveURL('/zh-CN/page/developers');
    await expect(drawer).toBeHidden();

    // A member with a studio profile: the Studio among the account's entries.
    const member = await newMember(request, uniqueUsername('waysinm'), PASSWORD);
    expect(
      (await call(request, 'PUT', '/studio/profile/', { token: member.token, body: { studioName: 'Harbour Works', contactEmail: 'team@harbour.test' } }))
        .status,
    ).toBe(200);
    await useSession(page.context(), baseURL!, member.token);
    await page.goto('/');
    await hydrated(page);
    await page.getByTestId('user-drawer-trigger').click();
    await expect(drawer.getByTestId('user-menu-items').getByRole('link')).toHaveText(['Profile', 'Social accounts', 'Switch account', 'Studio', 'Settings']);
    await drawer.getByRole('link', { name: 'Studio' }).click();
    await expect(page).toHaveURL('/studio');
  });
});
