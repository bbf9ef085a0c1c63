import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#server/testing/clocks.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { testPlayers, type TestPlayer } from '#server/testing/test-players.ts';
import { totpCode, totpStep } from './totp.ts';

const PASSWORD = 'Harbour-Lantern-Tricky-9';

/** Two-step sign-in (decision 145) through the API, on a clock the test moves. */
describe('two-step sign-in', () => {
  let api: TestApi;
  const clock = new ManualClock('2026-11-29T10:00:05.000Z');
  const { newGuest, newMember } = testPlayers(() => api, 59);
  beforeAll(async () => {
    api = await openTestApi({}, { clock });
  });
  afterAll(() => api?.close());

  const usernameOf = async (player: TestPlayer) => (await api.call('GET', '/member/profile/', { token: player.token })).json().data.username as string;
  const login = (username: string, password = PASSWORD) => api.call('POST', '/username/login/', { body: { username, password } });
  const second = (ticket: string, code: string) => api.call('POST', '/username/login/two-factor/', { body: { ticket, code } });
  const codeNow = (secret: string, offset = 0) => totpCode(secret, totpStep(clock.now()) + offset);

  /** A member with two-step sign-in on: their key, recovery codes and username. */
  async function memberWithTwoFactor() {
    const member = await newMember();
    const setUp = await api.call('POST', '/user/two-factor/set-up', { token: member.token });
    expect(setUp.statusCode).toBe(201);
    const { secret, uri, qrCode } = setUp.json().data;
    expect(uri).toContain(`secret=${secret}`);
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const confirmed = await api.call('POST', '/user/two-factor/confirm', { token: member.token, body: { code: codeNow(secret) } });
    expect(confirmed.statusCode).toBe(200);
    const recoveryCodes = confirmed.json().data.recoveryCodes as string[];
    return { member, secret: secret as string, recoveryCodes, username: await usernameOf(member) };
  }

  it('is turned on with a code of the app, and keeps the key sealed and the recovery codes hashed', async () => {
    const { member, secret, recoveryCodes } = await memberWithTwoFactor();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect((await api.call('GET', '/user/two-factor/', { token: member.token })).json().data).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    const row = await api.database.db.selectFrom('two_factor_secrets').selectAll().where('user_id', '=', member.userInfo.uid).executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(secret);
    const hashes = await api.database.db.selectFrom('two_factor_recovery_codes').select('code_hash').where('user_id', '=', member.userInfo.uid).execute();
    expect(hashes.map((h) => h.code_hash).join()).not.toContain(recoveryCodes[0]!.replace('-', ''));
    // On already: a second set-up is refused, and nothing changes.
    const again = await api.call('POST', '/user/two-factor/set-up', { token: member.token });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'conflict', reason: 'two_factor_on' });
  });

  it('refuses a guest, a wrong first code, and five wrong codes in a row', async () => {
    const guest = await newGuest();
    expect((await api.call('POST', '/user/two-factor/set-up', { token: guest.token })).json().error).toBe('account_not_secured');
    const member = await newMember();
    const { secret } = (await api.call('POST', '/user/two-factor/set-up', { token: member.token })).json().data;
    const wrong = codeNow(secret) === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 5; attempt++) {
      const refused = await api.call('POST', '/user/two-factor/confirm', { token: member.token, body: { code: wrong } });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().data.errors.code).toBeDefined();
    }
    // Held back after five: the right code too, until the window passes.
    expect((await api.call('POST', '/user/two-factor/confirm', { token: member.token, body: { code: codeNow(secret) } })).statusCode).toBe(429);
    expect((await api.call('GET', '/user/two-factor/', { token: member.token })).json().data.enabled).toBe(false);
  });

  it('asks for a code after the right password, and signs in only with one, each code once', async () => {
    const { member, secret, username } = await memberWithTwoFactor();
    const first = await login(username);
    expect(first.statusCode).toBe(401);
    expect(first.json()).toMatchObject({ error: 'unauthenticated', reason: 'two_factor_required', data: { ticket: expect.any(String) } });
    expect(first.json().data.token).toBeUndefined();
    // A wrong password never gets a ticket.
    expect((await login(username, 'Wrong-Password-123')).json()).toMatchObject({ error: 'credentials_invalid', data: null });

    const ticket = first.json().data.ticket as string;
    clock.advance(30_000);
    const code = codeNow(secret);
    const signedIn = await second(ticket, code);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().data.userInfo.uid).toBe(member.userInfo.uid);
    expect((await api.call('GET', '/member/info/', { token: signedIn.json().data.token })).statusCode).toBe(200);
    // The same code again, on the same ticket: refused (a code works once).
    expect((await second(ticket, code)).json().error).toBe('sign_in_code_invalid');
    // The code of the next step works.
    expect((await second(ticket, codeNow(secret, 1))).statusCode).toBe(200);
  });

  it('signs in with a recovery code once, and refuses an altered, another member’s or an expired ticket', async () => {
    const { secret, recoveryCodes, username } = await memberWithTwoFactor();
    const other = await memberWithTwoFactor();
    const ticket = (await login(username)).json().data.ticket as string;
    expect((await second(ticket, recoveryCodes[3]!.toUpperCase())).statusCode).toBe(200);
    expect((await second(ticket, recoveryCodes[3]!)).json().error).toBe('sign_in_code_invalid');

    // The other member's ticket with this member's code, and a ticket with its account changed: no.
    const otherTicket = (await login(other.username)).json().data.ticket as string;
    clock.advance(30_000);
    expect((await second(otherTicket, codeNow(secret))).json().error).toBe('sign_in_code_invalid');
    const [, ...rest] = ticket.split('.');
    const forged = [String(Number(ticket.split('.')[0]) + 1), ...rest].join('.');
    expect((await second(forged, codeNow(other.secret))).statusCode).toBe(401);
    // Five minutes later the ticket is gone: the password again.
    clock.advance(5 * 60_000 + 1000);
    expect((await second(ticket, codeNow(secret))).statusCode).toBe(401);
  });

  it('holds the second step back after five wrong codes, the right one too', async () => {
    const { secret, username } = await memberWithTwoFactor();
    const ticket = (await login(username)).json().data.ticket as string;
    clock.advance(30_000);
    const wrong = codeNow(secret) === '123456' ? '654321' : '123456';
    for (let attempt = 1; attempt <= 5; attempt++) expect((await second(ticket, wrong)).statusCode).toBe(400);
    expect((await second(ticket, codeNow(secret))).statusCode).toBe(429);
    clock.advance(15 * 60_000 + 1000);
    const fresh = (await login(username)).json().data.ticket as string;
    expect((await second(fresh, codeNow(secret))).statusCode).toBe(200);
  });

  it('signs in once when the same code is sent twice at once', async () => {
    const { secret, username } = await memberWithTwoFactor();
    const ticket = (await login(username)).json().data.ticket as string;
    clock.advance(30_000);
    const code = codeNow(secret);
    const answers = await Promise.all([second(ticket, code), second(ticket, code), second(ticket, code)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400, 400]);
  });

  it('is turned off only with the current password, or a fresh sign-in for an account without one', async () => {
    const { member, username } = await memberWithTwoFactor();
    const missing = await api.call('POST', '/user/two-factor/disable', { token: member.token, body: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().data.errors.currentPassword).toBeDefined();
    expect((await api.call('POST', '/user/two-factor/disable', { token: member.token, body: { currentPassword: 'Not-The-Password-1' } })).json().error).toBe(
      'password_incorrect',
    );
    const off = await api.call('POST', '/user/two-factor/disable', { token: member.token, body: { currentPassword: PASSWORD } });
    expect(off.statusCode).toBe(200);
    expect(off.json().data).toMatchObject({ enabled: false, recoveryCodesLeft: 0 });
    expect((await login(username)).statusCode).toBe(200);

    // An account that signs in without a password (as with a passkey only): a session of the last 10 minutes stands in for it.
    const passwordless = await memberWithTwoFactor();
    await api.database.db.updateTable('users').set({ password_hash: null }).where('id', '=', passwordless.member.userInfo.uid).execute();
    clock.advance(11 * 60_000);
    const stale = await api.call('POST', '/user/two-factor/disable', { token: passwordless.member.token, body: {} });
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ error: 'forbidden', reason: 'reauthentication_required' });
    expect((await api.call('GET', '/user/two-factor/', { token: passwordless.member.token })).json().data.enabled).toBe(true);
    const { token: fresh } = await api.services.tokens.issue(passwordless.member.userInfo.uid, 'passkey test');
    expect((await api.call('POST', '/user/two-factor/disable', { token: fresh, body: {} })).statusCode).toBe(200);
  });

  it('gives new recovery codes in place of the old ones', async () => {
    const { member, recoveryCodes, username } = await memberWithTwoFactor();
    const renewed = await api.call('POST', '/user/two-factor/recovery-codes', { token: member.token, body: { currentPassword: PASSWORD } });
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json().data.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    const ticket = (await login(username)).json().data.ticket as string;
    expect((await second(ticket, recoveryCodes[0]!)).statusCode).toBe(400);
    expect((await second(ticket, fresh[0]!)).statusCode).toBe(200);
  });
});
