import type { APIRequestContext } from '@playwright/test';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { afterDebounce } from '../accounts/helpers.ts';
import { useSession } from '../browser-session.ts';
import { expect as baseExpect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

const expect = baseExpect.configure({ timeout: 15_000 });

/** What the key gets on a Studio build call: 404 for a game that is not there when it is accepted, 401 when refused. */
async function keyStatus(request: APIRequestContext, key: string): Promise<number> {
  return (await request.get('/serve/api/studio/games/by-slug/no-such-game', { headers: { authorization: `Bearer ${key}` } })).status();
}

test.describe('Studio keys (decision 102)', { tag: '@db' }, () => {
  test('a developer makes a key by keyboard, copies it once, sees it listed, and revokes it; in Chinese at phone width', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    // Three page states in two languages: about 30 s on a busy runner, past the default limit.
    test.slow();
    const member = await newMember(request, uniqueUsername('keys'), 'studio-keys-journey-1');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await useSession(context, baseURL!, member.token);
    // Keys are for developers: a member is sent to make a studio profile first.
    await page.goto('/studio/keys');
    await expect(page.getByText('API keys are for developers: create your studio profile first.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Create studio profile' })).toHaveAttribute('href', '/studio/profile');
    await expect(page.getByTestId('key-create')).toHaveCount(0);
    const profile = { studioName: 'Pipeline Works', contactEmail: 'ci@pipeline.test' };
    expect((await call(request, 'PUT', '/studio/profile/', { token: member.token, body: profile })).status).toBe(200);
    await page.reload();
    await hydrated(page);
    await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
    await expect(page.getByTestId('key-count')).toHaveText('0 of 10 keys');

    // By keyboard: the name, then Enter.
    await page.getByLabel('Key name').focus();
    await page.keyboard.type('GitHub Actions');
    await page.keyboard.press('Enter');
    const value = page.getByTestId('key-value');
    await expect(value).toHaveText(/^pk_\d+_[A-Za-z0-9]{40}$/);
    const key = (await value.textContent())!;
    await expect(page.getByTestId('key-shown')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('key-copy')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('key-copy')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    const row = page.getByTestId('key-row').filter({ hasText: 'GitHub Actions' });
    await expect(row).toContainText('Never used');
    await expect(page.getByTestId('key-count')).toHaveText('1 of 10 keys');

    // The key works for the build calls; shown once: after a reload only its start is left.
    expect(await keyStatus(request, key)).toBe(404);
    await page.reload();
    await hydrated(page);
    await expect(page.getByTestId('key-value')).toHaveCount(0);
    expect(await page.content()).not.toContain(key);
    await expect(row).toContainText(`${key.split('_').slice(0, 2).join('_')}_…`);
    await expect(row).toContainText('Last used');

    // Revoked after a confirmation, by keyboard: it stops working at once.
    await row.getByRole('button', { name: 'Revoke key GitHub Actions' }).focus();
    await afterDebounce(page);
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('confirm-dialog');
    await expect(dialog).toContainText('“GitHub Actions” stops working at once');
    await dialog.getByTestId('confirm-accept').click();
    await expect(page.getByTestId('key-row')).toHaveCount(0);
    await expect(page.getByTestId('key-count')).toHaveText('0 of 10 keys');
    expect(await keyStatus(request, key)).toBe(401);

    // In Chinese at phone width: the same page, nothing wider than the screen.
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto('/zh-CN/studio/keys');
    await hydrated(page);
    await expect(page.getByRole('heading', { name: 'API 密钥' })).toBeVisible();
    await page.getByLabel('密钥名称').fill('部署流水线');
    await page.getByTestId('key-create').click();
    await expect(page.getByTestId('key-value')).toHaveText(/^pk_\d+_/);
    await expect(page.getByTestId('key-row').filter({ hasText: '部署流水线' })).toContainText('从未使用');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
