import type { Locator, Page } from '@playwright/test';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { grantOperator } from '../../support/operators.ts';
import { openRunDatabase } from '../../support/run-database.ts';
import { newStudioWithDraftGame } from '../../support/studio.ts';
import { settledUser } from '../accounts/helpers.ts';
import { useSession } from '../browser-session.ts';
import { expect as baseExpect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// After a refused form, focus goes to the first field in error (or the form's message), never to the
// page's body or a dialog's frame, and the field says why (decision 121).
const expect = baseExpect.configure({ timeout: 15_000 });
const PASSWORD = 'Harbour-Lantern-Tricky-9';

const LOCALES = [
  {
    locale: 'en',
    prefix: '',
    taken: 'This username is already taken.',
    reasonRequired: 'Give a reason the developer can act on.',
    reasonShort: 'Give a reason of at least 3 characters.',
  },
  {
    locale: 'zh-CN',
    prefix: '/zh-CN',
    taken: '该用户名已被占用。',
    reasonRequired: '请给出开发者可以据此修改的原因。',
    reasonShort: '请填写至少 3 个字符的原因。',
  },
] as const;

/** The field has focus, is marked invalid and is described by `message`. */
async function expectFocusedInError(field: Locator, message: string | RegExp): Promise<void> {
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(typeof message === 'string' ? new RegExp(escape(message)) : message);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await hydrated(page);
  await page.waitForLoadState('networkidle');
}

test.describe('focus after a refusal (decision 121)', { tag: '@db' }, () => {
  for (const { locale, prefix, taken, reasonShort } of LOCALES) {
    test(`create account refused (${locale}): focus goes to the taken username, then to a weak password`, async ({ page, request, problems }) => {
      problems.allow('status of 422');
      const existing = uniqueUsername('taken');
      await newMember(request, existing, PASSWORD);
      await page.goto(`${prefix}/login?mode=create`);
      await settledUser(page, request);
      const form = page.getByTestId('create-account');
      const username = form.locator('input[name="username"]');
      const password = form.locator('input[name="new-password"]');
      await username.fill(existing);
      await password.fill(PASSWORD);
      await form.getByTestId('create-account-submit').click();
      await expectFocusedInError(username, taken);
      await expect(password).not.toHaveAttribute('aria-invalid', 'true');

      // The browser's own check of a short password refuses before any call: focus goes there too.
      await username.fill(uniqueUsername('fresh'));
      await password.fill('short');
      await form.getByTestId('create-account-submit').click();
      await expect(password).toBeFocused();
      await expect(password).toHaveAttribute('aria-invalid', 'true');
      await expect(form.getByTestId('field-error')).toHaveCount(1);
    });

    test(`the purchase dialog's create account refused (${locale}): focus goes to the field, not the dialog`, async ({ page, request, problems }) => {
      test.slow();
      problems.allow('status of 422');
      const existing = uniqueUsername('taken');
      await newMember(request, existing, PASSWORD);
      await page.goto(`${prefix}/play/solitaire`);
      await hydrated(page);
      await settledUser(page, request);
      await page.frameLocator('[data-testid="game-frame"]').locator('#backs').click();
      const secure = page.getByTestId('purchase-secure');
      await expect(secure.getByTestId('create-account')).toBeVisible();
      const username = secure.locator('input[name="username"]');
      await username.fill(existing);
      await secure.locator('input[name="new-password"]').fill(PASSWORD);
      await secure.getByTestId('create-account-submit').click();
      await expectFocusedInError(username, taken);
    });

    test(`a Studio save refused (${locale}): focus goes to the field in error`, async ({ page, request, baseURL, problems }) => {
      problems.allow('status of 422');
      const { member, gameId } = await newStudioWithDraftGame(request, 'focus');
      await useSession(page.context(), baseURL!, member.token);
      await open(page, `${prefix}/studio/games/${gameId}`);
      const form = page.getByTestId('studio-game-form');
      const title = form.locator('input[name="title-en"]');
      await title.fill('');
      await form.getByTestId('studio-game-save').click();
      await expectFocusedInError(title, /./);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('title-en');
    });

    test(`a Console reason dialog refused (${locale}): focus goes to the reason, not the dialog`, async ({ page, request, baseURL }) => {
      const operator = await newMember(request, uniqueUsername('op'), PASSWORD);
      await grantOperator(operator.userInfo.uid);
      const someoneName = uniqueUsername('someone');
      const someone = await newMember(request, someoneName, PASSWORD);
      await useSession(page.context(), baseURL!, operator.token);
      await open(page, `${prefix}/console/members?q=${someoneName}`);
      await page.getByRole('button', { name: `#${someone.userInfo.uid}` }).click();
      await page.getByTestId('member-detail').getByTestId('disable-open').click();
      const dialog = page.getByTestId('member-dialog');
      const reason = dialog.getByTestId('reason-input');
      await reason.fill('no');
      await dialog.getByTestId('reason-confirm').click();
      await expectFocusedInError(reason, reasonShort);
      await expect(dialog).toBeVisible();
    });

    test(`a Console reject without a reason (${locale}): focus goes to the reason`, async ({ page, request, baseURL, problems }) => {
      problems.allow('status of 422');
      const { member: developer, gameId } = await newStudioWithDraftGame(request, 'focus');
      const operator = await newMember(request, uniqueUsername('op'), PASSWORD);
      await grantOperator(operator.userInfo.uid);
      const database = await openRunDatabase();
      const now = new Date().toISOString();
      await database.db
        .insertInto('game_builds')
        .values({
          app_id: gameId,
          version: 1,
          status: 'submitted',
          reason: null,
          uploaded_by: developer.userInfo.uid,
          reviewed_by: null,
          entry_path: 'index.html',
          file_count: 1,
          total_bytes: 10,
          archive_bytes: 10,
          created_at: now,
          submitted_at: now,
          reviewed_at: null,
        })
        .execute();
      await database.close();
      const game = await call<{ slug: string }>(request, 'GET', `/studio/games/${gameId}/`, { token: developer.token });

      await useSession(page.context(), baseURL!, operator.token);
      await open(page, `${prefix}/console/reviews`);
      const review = page.getByTestId(`review-${game.data.slug}`);
      const reason = review.locator('textarea[name="reason"]');
      const reject = review.getByRole('button', { name: locale === 'en' ? 'Reject' : '拒绝' });
      await reject.click();
      await expectFocusedInError(reason, reasonRequired(locale));
      // Blanks are no reason either; the build stays in the queue.
      await reason.fill('   ');
      await reject.focus();
      await page.keyboard.press('Enter');
      await expectFocusedInError(reason, reasonRequired(locale));
      await expect(review).toBeVisible();
    });
  }
});

function reasonRequired(locale: string): string {
  return LOCALES.find((entry) => entry.locale === locale)!.reasonRequired;
}
