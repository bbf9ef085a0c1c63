import type { Page } from '@playwright/test';
import { makeZip } from '../../../server/testing/developer-games.ts';
import { newMember, uniqueUsername } from '../../support/accounts.ts';
import { grantOperator } from '../../support/operators.ts';
import { gameId as catalogueGameId, paidOrder } from '../../support/orders.ts';
import { newStudioWithDraftGame } from '../../support/studio.ts';
import { useSession } from '../browser-session.ts';
import { expect as baseExpect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// Text the pages put together in code (a label and its value, a list) uses the punctuation of the
// page's language: full-width in Chinese, ASCII in English (decision 121).
const expect = baseExpect.configure({ timeout: 15_000 });
const PASSWORD = 'Harbour-Lantern-Tricky-9';
const ASCII_PUNCTUATION_AFTER_HAN = /\p{Script=Han}[:,;]/u;

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await hydrated(page);
  await page.waitForLoadState('networkidle');
}

test.describe('Chinese punctuation in text built by the pages (decision 121)', { tag: '@db' }, () => {
  test("the Studio's list of what a game still needs is written with 、 in Chinese and commas in English", async ({ page, request, baseURL }) => {
    const { member, gameId } = await newStudioWithDraftGame(request, 'punct');
    await useSession(page.context(), baseURL!, member.token);
    await open(page, `/zh-CN/studio/games/${gameId}`);
    const missing = page.getByTestId('studio-game-form').locator('output').first();
    await expect(missing).toHaveText('提交构建版本前还需要：简介、描述、分类、缩略图。');

    await open(page, `/studio/games/${gameId}`);
    await expect(page.getByTestId('studio-game-form').locator('output').first()).toHaveText(
      'Still needed before a build can be submitted: a summary, a description, a category, a thumbnail.',
    );
  });

  test('a refused zip and a new Studio key are introduced with a full-width colon in Chinese', async ({ page, request, baseURL, problems }) => {
    problems.allow('status of 422');
    const { member, gameId } = await newStudioWithDraftGame(request, 'punct');
    await useSession(page.context(), baseURL!, member.token);

    await open(page, `/zh-CN/studio/games/${gameId}/builds`);
    await page.locator('input[type="file"]').setInputFiles({
      name: 'broken.zip',
      mimeType: 'application/zip',
      buffer: await makeZip([{ name: 'main.html', content: '<p>' }]),
    });
    await page.getByRole('button', { name: '上传' }).click();
    const heading = page.getByTestId('build-problems').locator('p').first();
    await expect(heading).toHaveText(/^此 zip 未被接受：/);
    await expect(heading).not.toHaveText(ASCII_PUNCTUATION_AFTER_HAN);

    await open(page, '/zh-CN/studio/keys');
    await page.getByLabel('密钥名称').fill('部署流水线');
    await page.getByTestId('key-create').click();
    await expect(page.getByTestId('key-shown').locator('span').first()).toHaveText('你的新密钥：部署流水线');

    await open(page, '/studio/keys');
    await page.getByLabel('Key name').fill('Deploy pipeline');
    await page.getByTestId('key-create').click();
    await expect(page.getByTestId('key-shown').locator('span').first()).toHaveText(/^[^：]+: Deploy pipeline$/);
  });

  test("an order's item in the Console is written with full-width brackets in Chinese", async ({ page, request, baseURL }) => {
    const buyer = await newMember(request, uniqueUsername('zhbuyer'), PASSWORD);
    const orderId = await paidOrder(request, buyer.token, await catalogueGameId(request, 'solitaire'), 'solitaire-gold-backs');
    const operator = await newMember(request, uniqueUsername('zhop'), PASSWORD);
    await grantOperator(operator.userInfo.uid);
    await useSession(page.context(), baseURL!, operator.token);
    await open(page, '/zh-CN/console/orders');
    await page.getByLabel('搜索订单').fill(orderId);
    await page.getByLabel('搜索订单').press('Enter');
    await page.getByRole('button', { name: orderId }).click();
    await expect(page.getByTestId('order-detail')).toContainText('（solitaire-gold-backs）· ');
    await expect(page.getByTestId('order-detail')).not.toContainText('(solitaire-gold-backs)');
  });
});
