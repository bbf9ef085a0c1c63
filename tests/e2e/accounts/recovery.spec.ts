import { MAIL_INBOX } from '../../../playwright.config.ts';
import { expect as baseExpect, test } from '../fixtures.ts';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { useSession } from '../browser-session.ts';
import { afterDebounce } from './helpers.ts';
import { hydrated } from '../shell/helpers.ts';

// Argon2 hashing and the mail sender's 5-second rounds take seconds on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });
const PASSWORD = 'Harbour-Lantern-Tricky-9';
const NEW_PASSWORD = 'Quarry-Velvet-Puzzle-41';

interface ReceivedMail {
  to: string;
  subject: string;
  language: string;
  text: string;
}

/** Waits for the `count`-th mail to `to` at the local SMTP server, and answers the newest. */
async function mailTo(to: string, count = 1): Promise<ReceivedMail> {
  let found: ReceivedMail[] = [];
  await baseExpect
    .poll(
      async () => {
        const all = (await (await fetch(`${MAIL_INBOX}/messages`)).json()) as ReceivedMail[];
        found = all.filter((m) => m.to.includes(to));
        return found.length;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(count);
  return found[0]!;
}

const linkIn = (mail: ReceivedMail) => /https?:\/\/\S+/.exec(mail.text)![0];

test.describe('verified email and password recovery (decision 146)', { tag: '@db' }, () => {
  test('a member confirms an address from the mail, forgets the password, and chooses a new one from the mail in Chinese: every session ends', async ({
    page,
    context,
    request,
    baseURL,
    problems,
  }) => {
    test.slow();
    problems.allow('status of 401');
    // The used link, opened again, is refused by the API (and the page says so).
    problems.allow('status of 422');
    const username = uniqueUsername('recover');
    const email = `${username}@example.com`;
    const member = await newMember(request, username, PASSWORD);
    await useSession(context, baseURL!, member.token);

    // The address is saved, and a mail with a code and a link is sent to it.
    await page.goto('/user/profile/email');
    await expect(page).toHaveTitle('Email | Playport');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('email-confirm-form')).toContainText(`We sent a 6-digit code to ${email}`);
    const confirmMail = await mailTo(email);
    expect(confirmMail.subject).toMatch(/^Your Playport code: \d{6}$/);
    // The link of the mail confirms it.
    await page.goto(linkIn(confirmMail));
    await expect(page.getByTestId('email-verified')).toBeVisible();
    await expect(page).toHaveURL('/user/profile/email');
    // A confirmed address is changed only with the password.
    await expect(page.getByLabel('Current password')).toBeVisible();

    // Signed out, the member forgot the password: the sign-in page leads to the request, in Chinese.
    await context.clearCookies();
    await page.goto('/zh-CN/login');
    await hydrated(page);
    await page.getByRole('link', { name: '忘记密码？' }).click();
    await expect(page).toHaveURL('/zh-CN/login/forgot');
    await expect(page).toHaveTitle('忘记密码 | Playport');
    await page.getByLabel('邮箱', { exact: true }).fill(email.toUpperCase());
    await page.getByTestId('forgot-submit').click();
    await expect(page.getByTestId('forgot-sent')).toContainText(email.toUpperCase());
    const resetMail = await mailTo(email, 2);
    expect(resetMail.language).toBe('zh-CN');
    expect(resetMail.subject).toBe('为你的 Playport 账号设置新密码');
    expect(resetMail.text).toContain(username);

    const link = linkIn(resetMail);
    expect(link).toContain('/zh-CN/login/reset?key=');
    await page.goto(link);
    await expect(page).toHaveTitle('设置新密码 | Playport');
    await expect(page.getByTestId('reset-form')).toContainText(username);
    await page.getByLabel('新密码').fill(NEW_PASSWORD);
    await page.getByTestId('reset-submit').click();
    await expect(page.getByTestId('reset-done')).toContainText(username);

    // The session the member had is over, the old password is refused, the new one signs in.
    expect((await call(request, 'GET', '/member/profile/', { token: member.token })).status).toBe(401);
    await page.getByTestId('reset-sign-in').click();
    await expect(page).toHaveURL('/zh-CN/login');
    const form = page.getByTestId('password-sign-in');
    await form.locator('input[name="username"]').fill(username);
    await form.locator('input[name="password"]').fill(NEW_PASSWORD);
    await page.getByTestId('password-sign-in-submit').click();
    await expect(page).toHaveURL('/zh-CN/user');

    // The link worked once.
    await afterDebounce(page);
    await page.goto(link);
    await expect(page.getByTestId('reset-expired')).toBeVisible();
  });

  test('a changed password is told to the confirmed address; its "this wasn\'t me" link signs out everywhere and leads to a new password', async ({
    page,
    context,
    request,
    baseURL,
    problems,
  }) => {
    test.slow();
    problems.allow('status of 401');
    const username = uniqueUsername('notme');
    const email = `${username}@example.com`;
    const member = await newMember(request, username, PASSWORD);
    // A confirmed address, through the API as the email page does it.
    await call(request, 'PATCH', '/member/email/', { token: member.token, body: { email } });
    const code = /\b(\d{6})\b/.exec((await mailTo(email)).text)![1];
    expect((await call(request, 'POST', '/member/email/verify/', { token: member.token, body: { code } })).status).toBe(200);

    // Someone with the session changes the password.
    const changed = await call<{ token: string }>(request, 'PATCH', '/member/password/', {
      token: member.token,
      body: { password: NEW_PASSWORD, currentPassword: PASSWORD },
    });
    expect(changed.status).toBe(200);
    const notice = await mailTo(email, 2);
    expect(notice.subject).toBe('Playport account notice');
    expect(notice.text).toContain('The password of your Playport account was changed.');

    // The owner opens the link: nothing happens until the button (mail scanners open links too).
    await useSession(context, baseURL!, changed.data.token);
    await page.goto(linkIn(notice));
    await expect(page).toHaveTitle('This wasn’t me | Playport');
    expect((await call(request, 'GET', '/member/profile/', { token: changed.data.token })).status).toBe(200);
    await page.getByTestId('not-me-submit').click();
    await expect(page).toHaveURL(/\/login\/reset\?key=/);
    expect((await call(request, 'GET', '/member/profile/', { token: changed.data.token })).status).toBe(401);
    await page.getByLabel('New password').fill('Another-Long-Phrase-77');
    await page.getByTestId('reset-submit').click();
    await expect(page.getByTestId('reset-done')).toContainText(username);
    expect((await call(request, 'POST', '/username/login/', { body: { username, password: 'Another-Long-Phrase-77' } })).status).toBe(200);
  });
});

test.describe('password recovery with the installed app (decision 146)', { tag: '@db' }, () => {
  // The service worker answers navigations from its copies: a reset link must still reach the page and the API.
  test.use({ serviceWorkers: 'allow' });

  test('a reset link opened where the worker controls the page chooses the new password', async ({ page, request }) => {
    test.slow();
    const username = uniqueUsername('swreset');
    const email = `${username}@example.com`;
    const member = await newMember(request, username, PASSWORD);
    await call(request, 'PATCH', '/member/email/', { token: member.token, body: { email } });
    const code = /\b(\d{6})\b/.exec((await mailTo(email)).text)![1];
    await call(request, 'POST', '/member/email/verify/', { token: member.token, body: { code } });

    await page.goto('/login');
    await hydrated(page);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) await new Promise((done) => navigator.serviceWorker.addEventListener('controllerchange', done, { once: true }));
    });
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByTestId('forgot-submit').click();
    await expect(page.getByTestId('forgot-sent')).toBeVisible();
    await page.goto(linkIn(await mailTo(email, 2)));
    expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByTestId('reset-submit').click();
    await expect(page.getByTestId('reset-done')).toContainText(username);
    expect((await call(request, 'POST', '/username/login/', { body: { username, password: NEW_PASSWORD } })).status).toBe(200);
    // The worker kept no copy under the link's address: the key stays out of the device's caches.
    const kept = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const entry of await (await caches.open(name)).keys()) urls.push(entry.url);
      return urls;
    });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.filter((url) => url.includes('key='))).toEqual([]);
  });
});
