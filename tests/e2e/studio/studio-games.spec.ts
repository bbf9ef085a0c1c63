import { randomBytes } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { conflictingClassLists } from '../../support/class-conflicts.ts';
import { afterDebounce } from '../accounts/helpers.ts';
import { useSession } from '../browser-session.ts';
import { expect as baseExpect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// Image decoding and several saves: seconds on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

/** No serious or critical axe violation and no contradicting Tailwind utilities on the page as it is (decisions 073, 078). */
async function expectAccessible(page: Page): Promise<void> {
  const classLists = await page.locator('[class]').evaluateAll((elements) => elements.map((element) => element.getAttribute('class') ?? ''));
  expect(conflictingClassLists(classLists)).toEqual([]);
  // A toast still fading in has the contrast of its half-way opacity: measure once animations end.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  expect(
    results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

/** Types into a field reached by the keyboard: focus moves to it, then the keys go in. */
async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  await field.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

test.describe('the Studio (decision 096)', { tag: '@db' }, () => {
  test('a new member opens a studio, creates a game with texts in both languages, a thumbnail, an item and a leaderboard, and finds it in the list', async ({
    page,
    request,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const member = await newMember(request, uniqueUsername('studio'), 'studio-journey-1');
    await useSession(page.context(), baseURL!, member.token);
    await page.goto('/studio');
    await hydrated(page);

    // No profile yet: the Studio asks for one first.
    const profile = page.getByTestId('studio-profile-form');
    await expect(page.getByRole('heading', { name: 'Create your studio' })).toBeVisible();
    await typeInto(page, profile.getByLabel('Studio name'), 'Harbour Lights');
    await page.keyboard.press('Tab');
    await page.keyboard.type('not-an-address');
    await page.keyboard.press('Enter');
    await expect(profile.getByTestId('field-error')).toHaveText('Enter an e-mail address where we can reach you.');
    await afterDebounce(page);
    await typeInto(page, profile.getByLabel('Contact e-mail'), 'team@harbour-lights.test');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Your games' })).toBeVisible();
    await expect(page.getByText('You have no games yet.')).toBeVisible();

    // A new game, by keyboard.
    await page.getByRole('link', { name: 'New game' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/studio/games/new');
    const slug = `harbour-${randomBytes(3).toString('hex')}`;
    const newGame = page.getByTestId('studio-new-game-form');
    await typeInto(page, newGame.getByLabel('Address'), slug);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Harbour Lights Run');
    await page.keyboard.press('Tab');
    await page.keyboard.type('港口灯火');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/studio\/games\/\d+$/);
    const gameId = Number(page.url().split('/').pop());
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Harbour Lights Run');

    const form = page.getByTestId('studio-game-form');
    await expect(form.getByText('Still needed before a build can be submitted')).toBeVisible();
    const english = form.getByRole('group', { name: 'English' });
    const chinese = form.getByRole('group', { name: 'Chinese (Simplified)' });
    await typeInto(page, english.getByLabel('Summary'), 'Carry the light home.');
    await page.keyboard.press('Tab');
    await page.keyboard.type('A short night run through the harbour.');
    await expect(chinese.getByLabel('Title')).toHaveValue('港口灯火');
    await typeInto(page, chinese.getByLabel('Summary'), '把灯带回家。');
    await page.keyboard.press('Tab');
    await page.keyboard.type('穿过港口的夜跑。');
    await form.getByRole('checkbox', { name: 'Puzzle' }).focus();
    await page.keyboard.press('Space');
    await expect(form.getByRole('checkbox', { name: 'Puzzle' })).toBeChecked();

    // The thumbnail goes through the image pipeline (a file chooser is the one thing the keyboard does not fill).
    const image = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#1d3557' } })
      .png()
      .toBuffer();
    await form.getByLabel('Thumbnail').setInputFiles({ name: 'thumb.png', mimeType: 'image/png', buffer: image });
    await expect(form.getByTestId('studio-image-thumbnail')).toHaveAttribute('src', /^\/uploads\/catalogue\/[0-9a-f]{20}\.webp$/);

    await form.getByRole('button', { name: 'Add item' }).focus();
    await page.keyboard.press('Enter');
    const item = form.getByRole('group', { name: 'Item 1' });
    await typeInto(page, item.getByLabel('Id (sku)'), 'lantern-oil');
    await typeInto(page, item.getByLabel('Price (in cents)'), '199');
    await typeInto(page, item.getByLabel('Name in English'), 'Lantern oil');
    await typeInto(page, item.getByLabel('Name in Chinese'), '灯油');

    await form.getByRole('button', { name: 'Add leaderboard' }).focus();
    await page.keyboard.press('Enter');
    const board = form.getByRole('group', { name: 'Leaderboard 1' });
    await typeInto(page, board.getByLabel('Id'), 'best-run');
    await typeInto(page, board.getByLabel('Name in English'), 'Best run');
    await typeInto(page, board.getByLabel('Name in Chinese'), '最佳成绩');
    // Which periods keep a best score, as the catalogue can say (decision 122): all time by default, this week too.
    const periods = board.getByRole('group', { name: 'Best scores kept' });
    await expect(periods.getByRole('checkbox', { name: 'All time' })).toBeChecked();
    await periods.getByRole('checkbox', { name: 'Weekly (ISO weeks)' }).focus();
    await page.keyboard.press('Space');

    // An achievement with its icon, uploaded as the game's other images are.
    await form.getByRole('button', { name: 'Add achievement' }).focus();
    await page.keyboard.press('Enter');
    const achievement = form.getByRole('group', { name: 'Achievement 1' });
    await typeInto(page, achievement.getByLabel('Id'), 'first-light');
    await typeInto(page, achievement.getByLabel('Name in English'), 'First light');
    await typeInto(page, achievement.getByLabel('Name in Chinese'), '第一盏灯');
    await typeInto(page, achievement.getByLabel('Description in English'), 'Carry a light home.');
    await typeInto(page, achievement.getByLabel('Description in Chinese'), '把一盏灯带回家。');
    const icon = await sharp({ create: { width: 128, height: 128, channels: 3, background: '#f4a261' } })
      .png()
      .toBuffer();
    await achievement.getByLabel('Icon').setInputFiles({ name: 'first-light.png', mimeType: 'image/png', buffer: icon });
    await expect(achievement.getByTestId('studio-image-achievement-0-icon')).toHaveAttribute('src', /^\/uploads\/catalogue\/[0-9a-f]{20}\.webp$/);

    await form.getByTestId('studio-game-save').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('toast').last()).toContainText('Details saved.');
    await expect(form.getByText('Still needed before a build can be submitted')).toBeHidden();
    await expectAccessible(page);

    // A changed title reaches the page's heading once saved.
    await typeInto(page, english.getByLabel('Title'), 'Harbour Lights');
    await form.getByTestId('studio-game-save').focus();
    await afterDebounce(page);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Harbour Lights');
    await typeInto(page, english.getByLabel('Title'), 'Harbour Lights Run');
    await afterDebounce(page);
    await form.getByTestId('studio-game-save').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Harbour Lights Run');

    // What the server kept, and that nobody else sees the draft.
    const saved = await call(request, 'GET', `/studio/games/${gameId}/`, { token: member.token });
    expect(saved.data).toMatchObject({
      slug,
      published: false,
      categories: ['puzzle'],
      i18n: { en: { title: 'Harbour Lights Run', summary: 'Carry the light home.' }, 'zh-CN': { title: '港口灯火', summary: '把灯带回家。' } },
      items: [{ sku: 'lantern-oil', price: 199, kind: 'permanent', i18n: { en: { name: 'Lantern oil' }, 'zh-CN': { name: '灯油' } } }],
      leaderboards: [{ id: 'best-run', periods: ['weekly', 'all-time'], i18n: { en: { name: 'Best run' }, 'zh-CN': { name: '最佳成绩' } } }],
      achievements: [{ id: 'first-light', icon: expect.stringMatching(/^\/uploads\/catalogue\/[0-9a-f]{20}\.webp$/) }],
    });
    expect((await call(request, 'GET', `/app/info/?slug=${slug}`)).status).toBe(404);
    for (const path of [`/app/${slug}`, `/play/${slug}`, `/qa/${slug}`]) expect((await request.get(path)).status(), path).toBe(404);
    expect(await (await request.get('/sitemap.xml')).text()).not.toContain(slug);

    // At phone width the form fits without sideways scrolling.
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Games' }).click();
    await expect(page).toHaveURL('/studio');
    const row = page.getByTestId('studio-game-list').getByRole('link', { name: /Harbour Lights Run/ });
    await expect(row).toContainText('Draft');
    await expect(row).toContainText(`/${slug}`);
    await expectAccessible(page);

    // The same Studio in Chinese: the list titles the game in Chinese, and the form speaks Chinese.
    await page.goto('/zh-CN/studio');
    await expect(page.getByTestId('studio-game-list').getByRole('link', { name: /港口灯火/ })).toContainText('草稿');
    await page.goto(`/zh-CN/studio/games/${gameId}`);
    await expect(page.getByRole('heading', { name: '游戏详情' })).toBeVisible();
    await expect(page.getByTestId('studio-game-form').getByRole('group', { name: '简体中文' }).getByLabel('标题')).toHaveValue('港口灯火');
    const kept = page.getByTestId('studio-game-form').getByRole('group', { name: '保留最佳成绩的周期' });
    await expect(kept.getByRole('checkbox', { name: '每周（ISO 周）' })).toBeChecked();
    await expect(kept.getByRole('checkbox', { name: '每日' })).not.toBeChecked();
  });
});
