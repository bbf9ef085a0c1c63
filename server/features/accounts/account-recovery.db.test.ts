import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailStandIn } from '#server/testing/mail-stand-in.ts';
import { ManualClock } from '#server/testing/clocks.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { testPlayers, type TestPlayer } from '#server/testing/test-players.ts';

const PASSWORD = 'Harbour-Lantern-Tricky-9';
const NEW_PASSWORD = 'Quarry-Velvet-Puzzle-41';
// The field messages as the API answers them (English by default).
const CODE_WRONG = 'That code is not right. Check the 6 digits of the latest mail.';
const CODE_EXPIRED = 'This code can no longer be used. Send a new code.';
const LINK_EXPIRED = 'This link can no longer be used: it works once, for 30 minutes. Ask for a new one.';

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1]!;
const keyIn = (text: string) => /\/login\/reset\?key=([A-Za-z0-9_-]{43})/.exec(text)![1]!;
const notMeKeyIn = (text: string) => /\/login\/not-me\?key=([A-Za-z0-9_-]{43})/.exec(text)![1]!;
const address = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const CHROME_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Verified email and "Forgot password" (decision 146), through the API, with mail delivered to a real SMTP server on loopback. */
describe('verified email and password recovery', () => {
  let api: TestApi;
  let smtp: Awaited<ReturnType<typeof startMailStandIn>>;
  const clock = new ManualClock('2026-11-29T10:00:00.000Z');
  const { newGuest, newMember } = testPlayers(() => api, 61);
  let client = 0;
  /** Each test's calls come from an address of their own: the recovery limits count per client. */
  const nextAddress = () => `10.62.0.${++client}`;

  beforeAll(async () => {
    smtp = await startMailStandIn();
    api = await openTestApi({ SMTP_URL: smtp.smtpUrl }, { clock });
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.stop();
  });

  /** Delivers the outbox and answers the newest message to `to`. */
  async function lastMailTo(to: string) {
    await api.services.mail.sendDue();
    const mail = smtp.received.find((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.text.includes(to)));
    if (!mail) throw new Error(`no mail to ${to}`);
    return { subject: mail.subject ?? '', text: mail.text ?? '', language: mail.headers.get('content-language') };
  }
  const mailsTo = async (to: string) => {
    await api.services.mail.sendDue();
    return smtp.received.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.text.includes(to))).length;
  };
  const signIn = (username: string, from: string, password = PASSWORD) =>
    api.call('POST', '/username/login/', { body: { username, password }, address: from, headers: { 'user-agent': CHROME_ON_WINDOWS } });
  const status = async (player: TestPlayer) => (await api.call('GET', '/member/email/status/', { token: player.token })).json().data;

  async function verifiedMember(tag: string) {
    const member = await newMember();
    const email = address(tag);
    expect((await api.call('PATCH', '/member/email/', { token: member.token, body: { email } })).statusCode).toBe(200);
    const code = codeIn((await lastMailTo(email)).text);
    expect((await api.call('POST', '/member/email/verify/', { token: member.token, body: { code } })).statusCode).toBe(200);
    const username = (await api.call('GET', '/member/profile/', { token: member.token })).json().data.username as string;
    return { member, email, username };
  }

  it('confirms a saved address with the code of the mail, once, and counts wrong codes', async () => {
    const member = await newMember();
    const email = address('confirm');
    await api.call('PATCH', '/member/email/', { token: member.token, body: { email, locale: 'zh-CN' } });
    const mail = await lastMailTo(email);
    expect(mail.language).toBe('zh-CN');
    expect(mail.text).toContain('/zh-CN/user/profile/email?code=');
    const code = codeIn(mail.text);
    expect(await status(member)).toMatchObject({ email, verified: false, codeSentTo: email });
    // The code is kept hashed.
    const row = await api.database.db.selectFrom('email_verifications').selectAll().where('user_id', '=', member.userInfo.uid).executeTakeFirstOrThrow();
    expect(row.code_hash).not.toContain(code);

    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await api.call('POST', '/member/email/verify/', { token: member.token, body: { code: wrong } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().data.errors.code).toEqual([CODE_WRONG]);
    expect((await api.call('POST', '/member/email/verify/', { token: member.token, body: { code: 'abc' } })).statusCode).toBe(422);

    const confirmed = await api.call('POST', '/member/email/verify/', { token: member.token, body: { code } });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().data).toMatchObject({ email, verified: true, codeSentTo: null });
    const again = await api.call('POST', '/member/email/verify/', { token: member.token, body: { code } });
    expect(again.json().data.errors.code).toEqual([CODE_EXPIRED]);
  });

  it('ends a code after five wrong ones, after 30 minutes, and when the address changes', async () => {
    const member = await newMember();
    const first = address('tries');
    await api.call('PATCH', '/member/email/', { token: member.token, body: { email: first } });
    const code = codeIn((await lastMailTo(first)).text);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await api.call('POST', '/member/email/verify/', { token: member.token, body: { code: wrong } });
    const late = await api.call('POST', '/member/email/verify/', { token: member.token, body: { code } });
    expect(late.json().data.errors.code).toEqual([CODE_EXPIRED]);

    // A new code, then 31 minutes.
    expect((await api.call('POST', '/member/email/code/', { token: member.token, body: {} })).statusCode).toBe(200);
    const second = codeIn((await lastMailTo(first)).text);
    clock.advance(31 * 60_000);
    expect((await api.call('POST', '/member/email/verify/', { token: member.token, body: { code: second } })).json().data.errors.code).toEqual([CODE_EXPIRED]);

    // A code sent to one address never confirms another.
    await api.call('POST', '/member/email/code/', { token: member.token, body: {} });
    const third = codeIn((await lastMailTo(first)).text);
    await api.call('PATCH', '/member/email/', { token: member.token, body: { email: address('other') } });
    await api.services.mail.sendDue();
    expect((await api.call('POST', '/member/email/verify/', { token: member.token, body: { code: third } })).statusCode).toBe(422);
    expect((await status(member)).verified).toBe(false);
  });

  it('asks for the password to change or remove a confirmed address; a guest gets no code', async () => {
    const { member, email } = await verifiedMember('change');
    const without = await api.call('PATCH', '/member/email/', { token: member.token, body: { email: address('thief') } });
    expect(without.statusCode).toBe(422);
    expect(without.json().data.errors.currentPassword).toBeDefined();
    const wrongPassword = await api.call('PATCH', '/member/email/', { token: member.token, body: { email: '', currentPassword: 'not-it-at-all' } });
    expect(wrongPassword.json().error).toBe('password_incorrect');
    expect(await status(member)).toMatchObject({ email, verified: true });
    // Saving the same address again changes nothing and needs nothing.
    expect((await api.call('PATCH', '/member/email/', { token: member.token, body: { email } })).statusCode).toBe(200);
    const changed = await api.call('PATCH', '/member/email/', { token: member.token, body: { email: address('new'), currentPassword: PASSWORD } });
    expect(changed.statusCode).toBe(200);
    expect((await status(member)).verified).toBe(false);

    const guest = await newGuest();
    const guestEmail = address('guest');
    await api.call('PATCH', '/member/email/', { token: guest.token, body: { email: guestEmail } });
    expect(await mailsTo(guestEmail)).toBe(0);
    expect((await api.call('POST', '/member/email/code/', { token: guest.token, body: {} })).json().error).toBe('account_not_secured');
  });

  it('mails a single-use reset link to a confirmed address, answers the same for an unknown one, and ends every session', async () => {
    const { member, email, username } = await verifiedMember('reset');
    const otherSession = (await api.call('POST', '/username/login/', { body: { username, password: PASSWORD } })).json().data.token as string;
    const from = nextAddress();

    const known = await api.call('POST', '/username/password/forgot/', { body: { email: email.toUpperCase() }, address: from });
    const unknown = await api.call('POST', '/username/password/forgot/', { body: { email: address('nobody') }, address: from });
    expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
    expect(unknown.body).toBe(known.body);
    const mail = await lastMailTo(email);
    expect(mail.text).toContain(username);
    const key = keyIn(mail.text);
    const stored = await api.database.db.selectFrom('password_resets').select('token_hash').where('user_id', '=', member.userInfo.uid).execute();
    expect(stored.map((r) => r.token_hash).join()).not.toContain(key);

    const check = await api.call('POST', '/username/password/reset/check/', { body: { token: key }, address: from });
    expect(check.json().data).toEqual({ account: username, needsUsername: false });
    const weak = await api.call('POST', '/username/password/reset/', { body: { token: key, password: 'password1' }, address: from });
    expect(weak.statusCode).toBe(422);
    const reset = await api.call('POST', '/username/password/reset/', { body: { token: key, password: NEW_PASSWORD }, address: from });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().data).toEqual({ username, sessionsEnded: 2 });

    for (const token of [member.token, otherSession]) expect((await api.call('GET', '/member/profile/', { token })).statusCode).toBe(401);
    expect((await api.call('POST', '/username/login/', { body: { username, password: PASSWORD } })).statusCode).toBe(401);
    expect((await api.call('POST', '/username/login/', { body: { username, password: NEW_PASSWORD } })).statusCode).toBe(200);

    const reused = await api.call('POST', '/username/password/reset/', { body: { token: key, password: 'Another-Long-Phrase-77' }, address: from });
    expect(reused.json().data.errors.token).toEqual([LINK_EXPIRED]);
    const garbage = await api.call('POST', '/username/password/reset/check/', { body: { token: 'x\u0000y' }, address: from });
    expect(garbage.statusCode).toBe(422);
  });

  it('lets one of two resets sent at once with the same link through', async () => {
    const { email } = await verifiedMember('race');
    const from = nextAddress();
    await api.call('POST', '/username/password/forgot/', { body: { email }, address: from });
    const key = keyIn((await lastMailTo(email)).text);
    const answers = await Promise.all(
      ['Race-Lantern-Tricky-31', 'Race-Harbour-Quiet-47'].map((password) =>
        api.call('POST', '/username/password/reset/', { body: { token: key, password }, address: from }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 422]);
  });

  it('lets a link run out after 30 minutes, and a newer link use up the older ones', async () => {
    const { email } = await verifiedMember('expiry');
    const from = nextAddress();
    await api.call('POST', '/username/password/forgot/', { body: { email }, address: from });
    const first = keyIn((await lastMailTo(email)).text);
    await api.call('POST', '/username/password/forgot/', { body: { email }, address: from });
    const second = keyIn((await lastMailTo(email)).text);
    expect(second).not.toBe(first);
    expect((await api.call('POST', '/username/password/reset/', { body: { token: second, password: NEW_PASSWORD }, address: from })).statusCode).toBe(200);
    const older = await api.call('POST', '/username/password/reset/check/', { body: { token: first }, address: from });
    expect(older.json().data.errors.token).toEqual([LINK_EXPIRED]);

    await api.call('POST', '/username/password/forgot/', { body: { email }, address: from });
    const third = keyIn((await lastMailTo(email)).text);
    clock.advance(31 * 60_000);
    expect((await api.call('POST', '/username/password/reset/check/', { body: { token: third }, address: from })).statusCode).toBe(422);
  });

  it('recovers an account without a username (social or passkey sign-in only): the reset chooses one', async () => {
    const { member, email } = await verifiedMember('social');
    // As a social sign-in leaves it: a member without username or password.
    await api.database.db
      .updateTable('users')
      .set({ username: null, username_normalized: null, password_hash: null })
      .where('id', '=', member.userInfo.uid)
      .execute();
    const from = nextAddress();
    await api.call('POST', '/username/password/forgot/', { body: { email }, address: from });
    const key = keyIn((await lastMailTo(email)).text);
    expect((await api.call('POST', '/username/password/reset/check/', { body: { token: key }, address: from })).json().data.needsUsername).toBe(true);
    const missing = await api.call('POST', '/username/password/reset/', { body: { token: key, password: NEW_PASSWORD }, address: from });
    expect(missing.json().data.errors.username).toBeDefined();
    const username = `rec${Date.now().toString(36)}`;
    expect((await api.call('POST', '/username/password/reset/', { body: { token: key, password: NEW_PASSWORD, username }, address: from })).statusCode).toBe(
      200,
    );
    expect((await api.call('POST', '/username/login/', { body: { username, password: NEW_PASSWORD } })).statusCode).toBe(200);
  });

  it('sends nothing to a guest or an unconfirmed address, and limits requests per address whether or not an account has it', async () => {
    const guest = await newGuest();
    const guestEmail = address('guestreset');
    await api.call('PATCH', '/member/email/', { token: guest.token, body: { email: guestEmail } });
    const member = await newMember();
    const unconfirmed = address('unconfirmed');
    await api.call('PATCH', '/member/email/', { token: member.token, body: { email: unconfirmed } });
    await api.services.mail.sendDue();
    const before = smtp.received.length;
    for (const email of [guestEmail, unconfirmed]) {
      expect((await api.call('POST', '/username/password/forgot/', { body: { email }, address: nextAddress() })).statusCode).toBe(200);
    }
    expect(await mailsTo(guestEmail)).toBe(0);
    await api.services.mail.sendDue();
    expect(smtp.received.length).toBe(before);

    for (const email of [address('limited'), (await verifiedMember('limited')).email]) {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await api.call('POST', '/username/password/forgot/', { body: { email }, address: nextAddress() })).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
    }
    const bad = await api.call('POST', '/username/password/forgot/', { body: { email: 'not an address' }, address: nextAddress() });
    expect(bad.statusCode).toBe(422);
  });

  describe('notices (decision 148)', () => {
    it('tells the confirmed address of a sign-in from a new device; "this wasn\'t me" ends every session and leads to a new password', async () => {
      const { member, email, username } = await verifiedMember('newdevice');
      const before = await mailsTo(email);
      // The first device an account signs in from is not news, nor is the same one again.
      expect((await signIn(username, '10.63.1.10')).statusCode).toBe(200);
      expect((await signIn(username, '10.63.1.11')).statusCode).toBe(200);
      expect(await mailsTo(email)).toBe(before);
      // Another network: a notice, naming the browser.
      const stranger = (await signIn(username, '10.63.2.10')).json().data.token as string;
      expect(await mailsTo(email)).toBe(before + 1);
      const notice = await lastMailTo(email);
      expect(notice.subject).toBe('Playport account notice');
      expect(notice.text).toContain('signed in to your Playport account from a device or network it had not used before');
      expect(notice.text).toContain('Chrome / Windows');

      const key = notMeKeyIn(notice.text);
      const notMe = await api.call('POST', '/username/not-me/', { body: { key }, address: nextAddress() });
      expect(notMe.statusCode).toBe(200);
      const { resetKey, sessionsEnded } = notMe.json().data;
      expect(sessionsEnded).toBe(4);
      for (const token of [member.token, stranger]) expect((await api.call('GET', '/member/profile/', { token })).statusCode).toBe(401);
      const again = await api.call('POST', '/username/not-me/', { body: { key }, address: nextAddress() });
      expect(again.json().data.errors.key).toEqual([LINK_EXPIRED]);
      // The reset it leads to works like one from "Forgot password", and is itself told.
      const reset = await api.call('POST', '/username/password/reset/', { body: { token: resetKey, password: NEW_PASSWORD }, address: nextAddress() });
      expect(reset.statusCode).toBe(200);
      expect((await lastMailTo(email)).text).toContain('The password of your Playport account was changed.');
    });

    it('tells of a changed password, and of a moved address at the old address, in the language the address was saved in; nothing without a confirmed address', async () => {
      const member = await newMember();
      const email = address('notices');
      await api.call('PATCH', '/member/email/', { token: member.token, body: { email, locale: 'zh-CN' } });
      await api.call('POST', '/member/email/verify/', { token: member.token, body: { code: codeIn((await lastMailTo(email)).text) } });

      const changed = await api.call('PATCH', '/member/password/', { token: member.token, body: { password: NEW_PASSWORD, currentPassword: PASSWORD } });
      expect(changed.statusCode).toBe(200);
      const notice = await lastMailTo(email);
      expect(notice.language).toBe('zh-CN');
      expect(notice.text).toContain('你的 Playport 账号密码已更改。');
      expect(notice.text).toContain('/zh-CN/login/not-me?key=');

      const token = changed.json().data.token as string;
      const moved = await api.call('PATCH', '/member/email/', { token, body: { email: address('moved'), currentPassword: NEW_PASSWORD, locale: 'en' } });
      expect(moved.statusCode).toBe(200);
      expect((await lastMailTo(email)).text).toContain('电子邮箱已更改或删除');

      // Unconfirmed now: a further change is told to nobody.
      const count = smtp.received.length;
      await api.call('PATCH', '/member/password/', { token: moved.json().data.token ?? token, body: { password: PASSWORD, currentPassword: NEW_PASSWORD } });
      await api.services.mail.sendDue();
      expect(smtp.received.length).toBe(count);
    });

    it('asks a member for the password to change a saved phone number, and tells the confirmed address', async () => {
      const { member, email } = await verifiedMember('phone');
      expect((await api.call('PATCH', '/member/phone/', { token: member.token, body: { phone: '+442079460958' } })).statusCode).toBe(200);
      const without = await api.call('PATCH', '/member/phone/', { token: member.token, body: { phone: '+8613800138000' } });
      expect(without.statusCode).toBe(422);
      expect(without.json().data.errors.currentPassword).toBeDefined();
      const wrong = await api.call('PATCH', '/member/phone/', { token: member.token, body: { phone: '', currentPassword: 'not-it-at-all' } });
      expect(wrong.json().error).toBe('password_incorrect');
      expect((await api.call('GET', '/member/profile/', { token: member.token })).json().data.phone).toBe('+442079460958');
      const changed = await api.call('PATCH', '/member/phone/', { token: member.token, body: { phone: '+8613800138000', currentPassword: PASSWORD } });
      expect(changed.statusCode).toBe(200);
      expect((await lastMailTo(email)).text).toContain('The phone number of your Playport account was changed.');
      // A guest's number is no credential: it changes without more.
      const guest = await newGuest();
      await api.call('PATCH', '/member/phone/', { token: guest.token, body: { phone: '+442079460958' } });
      expect((await api.call('PATCH', '/member/phone/', { token: guest.token, body: { phone: '+8613800138000' } })).statusCode).toBe(200);
    });
  });
});
