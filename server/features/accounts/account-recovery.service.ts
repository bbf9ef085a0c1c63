import { randomBytes, randomInt } from 'node:crypto';
import type { MemberUpdate } from '#common/api/accounts.schema.ts';
import type { EmailStatus, PasswordReset, PasswordResetBody, ResetLink } from '#common/api/account-recovery.schema.ts';
import { DEFAULT_LOCALE, type Locale, localePath } from '#common/locales.ts';
import { assertAllowed } from '#server/adapters/rate-limits/rate-limiter.ts';
import { type Caller, type ClientFacts } from '#server/lib/caller.ts';
import { AppError, fieldError } from '#server/lib/app-error.ts';
import { isoNow } from '#server/lib/clock.ts';
import { clientSubject } from '#server/lib/network.ts';
import { sha256Hex } from '#server/lib/random.ts';
import type { MemberDataFile } from '../member-data/member-data.service.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import type { ErasedMember } from './account-deletion.service.ts';
import { ACCOUNT_LIMITS } from './account-limits.ts';
import { type AccountNoticesService, DEVICE_MEMORY_DAYS } from './account-notices.service.ts';
import type { AccountProfileService } from './account-profile.service.ts';
import type { AccountsDependencies } from './accounts-dependencies.ts';

/** How long a confirmation code and a reset link work (decision 146). */
export const EMAIL_CODE_MINUTES = 30;
export const RESET_LINK_MINUTES = 30;
/** Wrong codes that end a confirmation: 5 of a million. */
const EMAIL_CODE_TRIES = 5;
const MINUTE_MS = 60_000;

/**
 * Verified email and "Forgot password" (decision 146). A saved address gets a 6-digit code by mail
 * and counts as confirmed once the member types it (or opens the link holding it) while signed in;
 * only confirmed addresses receive reset links. Changing or removing a confirmed address needs the
 * account's password, or a fresh sign-in (ASVS 7.5.1). The answer to "Forgot password" never says
 * whether an account has the address; a reset ends every session of the account.
 */
export class AccountRecoveryService {
  readonly #deps: AccountsDependencies;
  readonly #profile: AccountProfileService;
  readonly #notices: AccountNoticesService;

  constructor(deps: AccountsDependencies, profile: AccountProfileService, notices: AccountNoticesService) {
    this.#deps = deps;
    this.#profile = profile;
    this.#notices = notices;
  }

  get #recovery() {
    const recovery = this.#deps.recovery;
    if (!recovery) throw new Error('account recovery is not configured');
    return recovery;
  }

  /**
   * Saves the address (null removes it). A new address is not confirmed: a member gets a code for
   * it; a guest keeps it unconfirmed (recovery is for members).
   */
  async saveEmail(caller: Caller, body: { email: string | null; currentPassword?: string; locale?: Locale }, client: ClientFacts): Promise<MemberUpdate> {
    const user = await this.#user(caller.userId);
    const unchanged = body.email === user.email;
    const confirmed = user.email_verified_at ? user.email : null;
    if (!unchanged && confirmed) await this.#profile.confirmIdentity(caller, body.currentPassword);
    if (!unchanged) {
      const locale = body.locale ?? DEFAULT_LOCALE;
      await this.#deps.users.update(user.id, { email: body.email, email_verified_at: null, mail_locale: locale, updated_at: isoNow(this.#deps.clock) });
      await this.#recovery.repository.removeVerification(user.id);
      // The address that was confirmed hears of it: whoever moved it may not be its owner.
      if (confirmed) await this.#notices.changed(user.id, 'email', client, { to: confirmed, locale: user.mail_locale });
      if (body.email && user.is_guest === 0) await this.#sendCode(user.id, body.email, locale, false);
    }
    return this.#profile.memberUpdate(user.id);
  }

  async emailStatus(caller: Caller): Promise<EmailStatus> {
    const user = await this.#user(caller.userId);
    const pending = await this.#recovery.repository.verificationOf(user.id);
    const live = pending && pending.email === user.email && pending.attempts < EMAIL_CODE_TRIES && pending.expires_at > isoNow(this.#deps.clock);
    return {
      email: user.email,
      verified: user.email_verified_at !== null,
      codeSentTo: live ? pending.email : null,
      codeExpiresAt: live ? pending.expires_at : null,
    };
  }

  /** A new code for the saved address (the first mail was lost, or the code ran out). */
  async requestCode(caller: Caller, locale: Locale = DEFAULT_LOCALE): Promise<EmailStatus> {
    const user = await this.#user(caller.userId);
    if (user.is_guest === 1) throw new AppError('account_not_secured');
    if (!user.email) throw fieldError({ email: ['accounts:email.required'] });
    if (user.email_verified_at) throw new AppError('conflict', { messageKey: 'accounts:email.alreadyVerified' });
    await this.#deps.users.update(user.id, { mail_locale: locale });
    await this.#sendCode(user.id, user.email, locale, true);
    return this.emailStatus(caller);
  }

  /** Confirms the saved address with the code of its mail. */
  async verifyEmail(caller: Caller, code: string): Promise<EmailStatus> {
    const user = await this.#user(caller.userId);
    const { repository } = this.#recovery;
    const pending = await repository.verificationOf(user.id);
    const now = isoNow(this.#deps.clock);
    if (!pending || pending.email !== user.email || pending.attempts >= EMAIL_CODE_TRIES || pending.expires_at <= now) {
      throw fieldError({ code: ['accounts:email.codeExpired'] });
    }
    const codeHash = codeHashOf(user.id, code);
    if (codeHash !== pending.code_hash) {
      await repository.countWrongCode(user.id, pending.code_hash);
      throw fieldError({ code: ['accounts:email.codeWrong'] });
    }
    const taken = await repository.transaction(async (unit) => {
      if (!(await repository.takeVerification(user.id, codeHash, unit))) return false;
      await this.#deps.users.update(user.id, { email_verified_at: now, updated_at: now }, unit);
      return true;
    });
    if (!taken) throw fieldError({ code: ['accounts:email.codeExpired'] });
    return this.emailStatus(caller);
  }

  /**
   * "Forgot password": a link to each member account whose confirmed address is `email`. Answers
   * the same whether there is one or not, and counts the request either way.
   */
  async forgotPassword(email: string, locale: Locale, client: ClientFacts): Promise<{ sent: true }> {
    const { limiter, users, clock } = this.#deps;
    assertAllowed(
      await limiter.consume(ACCOUNT_LIMITS.recoveryAddress, clientSubject(client.address)),
      await limiter.consume(ACCOUNT_LIMITS.recoveryEmail, email.toLowerCase()),
    );
    for (const member of await users.membersWithVerifiedEmail(email)) {
      const token = randomBytes(32).toString('base64url');
      const now = clock.now();
      await this.#recovery.repository.insertLink({
        tokenHash: sha256Hex(token),
        userId: member.id,
        purpose: 'reset',
        expiresAt: new Date(now.getTime() + RESET_LINK_MINUTES * MINUTE_MS).toISOString(),
        now: now.toISOString(),
      });
      const account = member.username ?? member.nickname ?? `#${member.id}`;
      const link = `${this.#recovery.publicOrigin}${localePath(locale, '/login/reset')}?key=${token}`;
      // To the address as the member saved it, not as typed here.
      await this.#recovery.mail.enqueue({
        to: member.email!,
        locale,
        template: 'reset-password',
        params: { nickname: member.nickname ?? account, account, link },
      });
    }
    return { sent: true };
  }

  /** What the reset page shows before the new password is typed; a used or expired link is refused. */
  async resetLink(token: string, client: ClientFacts): Promise<ResetLink> {
    const user = await this.#resetUser(token, client);
    return { account: user.username ?? user.nickname ?? `#${user.id}`, needsUsername: user.username === null };
  }

  /**
   * Sets the new password through a link (and the username, for an account that had none), uses
   * the link and every other of the account, and ends every session: whoever held one is out.
   */
  async resetPassword(body: PasswordResetBody, client: ClientFacts): Promise<PasswordReset> {
    const { users, hasher, passwordPolicy, clock, tokens } = this.#deps;
    const user = await this.#resetUser(body.token, client);
    const username = user.username ?? body.username;
    if (!username) throw fieldError({ username: ['accounts:username.required'] });
    const weakness = await passwordPolicy.problem(body.password, [username, user.nickname ?? '']);
    if (weakness) throw fieldError({ password: [weakness] });
    const normalized = username.toLowerCase();
    if (!user.username) {
      const owner = await users.findByUsername(normalized);
      if (owner && owner.id !== user.id) throw fieldError({ username: ['accounts:username.taken'] });
    }
    const passwordHash = await hasher.hash(body.password);
    const now = isoNow(clock);
    const { repository } = this.#recovery;
    const outcome = await repository.transaction(async (unit) => {
      if (!(await repository.useLink(sha256Hex(body.token), 'reset', user.id, now, unit))) return 'expired';
      if (user.username) {
        await users.update(user.id, { password_hash: passwordHash, updated_at: now }, unit);
        return 'done';
      }
      const saved = await users.setCredentials(user.id, { username, usernameNormalized: normalized, passwordHash, now }, unit);
      if (!saved) throw fieldError({ username: ['accounts:username.taken'] });
      return 'done';
    });
    if (outcome === 'expired') throw fieldError({ token: ['accounts:reset.linkExpired'] });
    const sessionsEnded = await tokens.endAllSessions(user.id);
    await this.#notices.changed(user.id, 'password', client);
    return { username, sessionsEnded };
  }

  /** The hourly clean-up of codes and links past their time, and of devices not signed in from for 180 days (decision 148). */
  removeExpired(): Promise<number> {
    const now = this.#deps.clock.now();
    const day = 24 * 3600 * 1000;
    return this.#recovery.repository.removeExpired(
      now.toISOString(),
      new Date(now.getTime() - day).toISOString(),
      new Date(now.getTime() - DEVICE_MEMORY_DAYS * day).toISOString(),
    );
  }

  /** The erasure's step (decision 147): the pending confirmation, the links and the devices go. */
  async eraseMember(member: ErasedMember, unit: UnitOfWork): Promise<void> {
    await this.#recovery.repository.eraseMember(member.id, unit);
  }

  /** Pending confirmation and reset links (when made, when used), for "Download my data". */
  async memberData(userId: number): Promise<MemberDataFile[]> {
    const held = await this.#recovery.repository.personalDataOf(userId);
    return held.verification.length + held.links.length + held.devices.length === 0 ? [] : [{ name: 'account-recovery.json', content: held }];
  }

  async #resetUser(token: string, client: ClientFacts) {
    assertAllowed(await this.#deps.limiter.consume(ACCOUNT_LIMITS.resetAddress, clientSubject(client.address)));
    const link = await this.#recovery.repository.liveLink(sha256Hex(token), 'reset', isoNow(this.#deps.clock));
    const user = link ? await this.#deps.users.findById(link.user_id) : undefined;
    if (!user || user.disabled_at) throw fieldError({ token: ['accounts:reset.linkExpired'] });
    return user;
  }

  async #sendCode(userId: number, email: string, locale: Locale, asked: boolean): Promise<void> {
    const counted = await this.#deps.limiter.consume(ACCOUNT_LIMITS.emailCodeAccount, String(userId));
    // A save past the limit still saves; only a code asked for again is refused.
    if (!counted.allowed) {
      if (asked) assertAllowed(counted);
      return;
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const now = this.#deps.clock.now();
    const { repository, mail, publicOrigin } = this.#recovery;
    const user = await this.#user(userId);
    await repository.startVerification({
      userId,
      email,
      codeHash: codeHashOf(userId, code),
      expiresAt: new Date(now.getTime() + EMAIL_CODE_MINUTES * MINUTE_MS).toISOString(),
      now: now.toISOString(),
    });
    const link = `${publicOrigin}${localePath(locale, '/user/profile/email')}?code=${code}`;
    await mail.enqueue({ to: email, locale, template: 'verify-email', params: { nickname: user.nickname ?? user.username ?? '', code, link } });
  }

  async #user(userId: number) {
    const user = await this.#deps.users.findById(userId);
    if (!user) throw new AppError('unauthenticated');
    return user;
  }
}

/** A code is hashed with its account: the same 6 digits of two accounts differ at rest. */
function codeHashOf(userId: number, code: string): string {
  return sha256Hex(`${userId}:${code}`);
}
