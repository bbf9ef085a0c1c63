import type { ErasedMember } from '../accounts/account-deletion.service.ts';
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { renderSVG } from 'uqr';
import type { TwoFactorSetUp, TwoFactorStatus } from '#common/api/two-factor.schema.ts';
import { assertAllowed, rateLimitError, type RateLimiter, type RateRule } from '#server/adapters/rate-limits/rate-limiter.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { AppError, fieldError, refusal } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { safeEqual, sha256Hex } from '#server/lib/random.ts';
import { SecretBox } from '#server/lib/secret-box.ts';
import type { MemberDataFile } from '../member-data/member-data.service.ts';
import { acceptedStep, base32, newTotpSecret, otpauthUri } from './totp.ts';
import type { TwoFactorRepository } from './two-factor.repository.ts';

/** Wrong codes one account may be sent in a window, at sign-in and at set-up together; then 429 until it passes. */
export const TWO_FACTOR_CODES: RateRule = { name: 'two-factor-codes', limit: 5, windowSeconds: 15 * 60 };
/** How long the sign-in's second step waits for its code after the password. */
const TICKET_SECONDS = 5 * 60;
const RECOVERY_CODES = 10;

/** What the two-step sign-in needs of the accounts feature. */
export interface TwoFactorAccounts {
  /** The name the authenticator app shows for the account (its username, else its nickname), or null for a guest. */
  memberName(userId: number): Promise<string | null>;
  /** The caller proves it is them again: the current password, or without one a sign-in of the last minutes (ASVS 7.5.1). */
  confirmIdentity(caller: Caller, currentPassword: string | undefined): Promise<void>;
  /** Tells the member's confirmed address of the change (decision 148). */
  noticeChange(userId: number, what: 'two-factor-on' | 'two-factor-off'): Promise<void>;
}

/**
 * Two-step sign-in with an authenticator app (decision 145; RFC 6238): a member turns it on with a
 * QR code and their first code, gets ten single-use recovery codes, and from then on a password
 * sign-in asks for a code. A code works once; wrong codes are limited like passwords.
 */
export class TwoFactorService {
  readonly #repository: TwoFactorRepository;
  readonly #accounts: TwoFactorAccounts;
  readonly #limiter: RateLimiter;
  readonly #clock: Clock;
  readonly #box: SecretBox;
  readonly #ticketKey: Buffer;
  readonly #issuer: string;

  constructor(deps: {
    repository: TwoFactorRepository;
    accounts: TwoFactorAccounts;
    limiter: RateLimiter;
    clock: Clock;
    appSecret: string;
    previousSecrets: readonly string[];
    productName: string;
  }) {
    this.#repository = deps.repository;
    this.#accounts = deps.accounts;
    this.#limiter = deps.limiter;
    this.#clock = deps.clock;
    this.#box = new SecretBox(deps.appSecret, deps.previousSecrets, 'two-factor');
    this.#ticketKey = Buffer.from(hkdfSync('sha256', deps.appSecret, 'playport', 'two-factor-ticket', 32));
    this.#issuer = deps.productName;
  }

  async status(caller: Caller): Promise<TwoFactorStatus> {
    const row = await this.#repository.secretOf(caller.userId);
    const enabled = Boolean(row?.confirmed_at);
    return { enabled, enabledAt: row?.confirmed_at ?? null, recoveryCodesLeft: enabled ? await this.#repository.recoveryCodesLeft(caller.userId) : 0 };
  }

  /** Whether it is on: a password sign-in of this account asks for a code (the Console shows it; never the secret). */
  async required(userId: number): Promise<boolean> {
    return Boolean((await this.#repository.secretOf(userId))?.confirmed_at);
  }

  /** Starts turning it on: a new secret, as a QR code and as text, waiting for its first code. */
  async beginSetUp(caller: Caller): Promise<TwoFactorSetUp> {
    const name = await this.#accounts.memberName(caller.userId);
    if (name === null) throw new AppError('account_not_secured');
    if (await this.required(caller.userId)) throw refusal('two_factor_on');
    const secret = newTotpSecret();
    if (!(await this.#repository.startSetUp(caller.userId, this.#box.seal(secret, String(caller.userId)), isoNow(this.#clock)))) throw refusal('two_factor_on');
    const uri = otpauthUri(this.#issuer, name, secret);
    const svg = renderSVG(uri, { border: 2 });
    return { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  /** Turns it on with the first code from the app; answers the ten recovery codes, shown this once. */
  async confirmSetUp(caller: Caller, code: string): Promise<{ recoveryCodes: string[] }> {
    const row = await this.#repository.secretOf(caller.userId);
    if (!row) throw refusal('two_factor_off');
    if (row.confirmed_at) throw refusal('two_factor_on');
    const counter = String(caller.userId);
    assertAllowed(await this.#limiter.peek(TWO_FACTOR_CODES, counter));
    const now = this.#clock.now();
    const step = acceptedStep(this.#secretOf(row), code.replaceAll(/\s/g, ''), now, row.last_step);
    const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
    const taken =
      step !== null &&
      (await this.#repository.transaction(async (unit) => {
        if (!(await this.#repository.takeStep(caller.userId, step, now.toISOString(), unit))) return false;
        await this.#saveRecoveryCodes(caller.userId, codes, unit);
        return true;
      }));
    if (!taken) {
      await this.#failedCode(counter);
      throw fieldError({ code: ['accounts:twoFactor.codeWrong'] });
    }
    await this.#limiter.reset(TWO_FACTOR_CODES, counter);
    await this.#accounts.noticeChange(caller.userId, 'two-factor-on');
    return { recoveryCodes: codes };
  }

  /** Turns it off, after the current password or a fresh sign-in (ASVS 7.5.1). */
  async disable(caller: Caller, currentPassword: string | undefined): Promise<TwoFactorStatus> {
    await this.#accounts.confirmIdentity(caller, currentPassword);
    if (!(await this.#repository.remove(caller.userId))) throw refusal('two_factor_off');
    await this.#accounts.noticeChange(caller.userId, 'two-factor-off');
    return this.status(caller);
  }

  /** New recovery codes in place of the old ones, after the current password or a fresh sign-in. */
  async newRecoveryCodes(caller: Caller, currentPassword: string | undefined): Promise<{ recoveryCodes: string[] }> {
    await this.#accounts.confirmIdentity(caller, currentPassword);
    if (!(await this.required(caller.userId))) throw refusal('two_factor_off');
    const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
    await this.#repository.transaction((unit) => this.#saveRecoveryCodes(caller.userId, codes, unit));
    return { recoveryCodes: codes };
  }

  /** The ticket a right password earns: it names the account and expires; the code completes the sign-in. */
  ticketFor(userId: number): string {
    const expires = Math.floor(this.#clock.now().getTime() / 1000) + TICKET_SECONDS;
    return `${userId}.${expires}.${this.#ticketSignature(userId, expires)}`;
  }

  /**
   * The second step of a sign-in: the ticket of the first and a code from the app (or a recovery
   * code). Answers the account; a ticket that does not hold is 401, a wrong code 400, too many 429.
   */
  async verifySignIn(ticket: string, code: string): Promise<{ userId: number; usedRecoveryCode: boolean }> {
    const userId = this.#ticketUser(ticket);
    if (userId === null) throw new AppError('credentials_invalid', { messageKey: 'accounts:twoFactor.ticketExpired' });
    const counter = String(userId);
    assertAllowed(await this.#limiter.peek(TWO_FACTOR_CODES, counter));
    const row = await this.#repository.secretOf(userId);
    if (!row?.confirmed_at) throw new AppError('credentials_invalid', { messageKey: 'accounts:twoFactor.ticketExpired' });
    const typed = code.replaceAll(/[\s-]/g, '').toLowerCase();
    const now = this.#clock.now();
    let usedRecoveryCode = false;
    let ok = false;
    if (/^\d{6}$/.test(typed)) {
      const step = acceptedStep(this.#secretOf(row), typed, now, row.last_step);
      ok = step !== null && (await this.#repository.takeStep(userId, step, null));
    } else if (/^[a-z2-7]{10}$/.test(typed)) {
      ok = usedRecoveryCode = await this.#repository.useRecoveryCode(userId, sha256Hex(typed), now.toISOString());
    }
    if (!ok) {
      await this.#failedCode(counter);
      throw new AppError('sign_in_code_invalid', { messageKey: 'accounts:twoFactor.codeWrong' });
    }
    await this.#limiter.reset(TWO_FACTOR_CODES, counter);
    return { userId, usedRecoveryCode };
  }

  /** An operator removes it (a member who lost the phone and the codes), with `record` (the audit entry) in the same unit of work. */
  async removeForOperator(userId: number, record: (unit: UnitOfWork) => Promise<void>): Promise<void> {
    const removed = await this.#repository.transaction(async (unit) => {
      if (!(await this.#repository.remove(userId, unit))) return false;
      await record(unit);
      return true;
    });
    if (!removed) throw refusal('two_factor_off');
  }

  /** The account erasure's step (decision 147): the member's rows of this feature's tables go, in the erasure's unit of work. */
  async eraseMember(member: ErasedMember, unit: UnitOfWork): Promise<void> {
    await this.#repository.eraseMember(member.id, unit);
  }

  /** The member's file in "Download my data" (decision 144): whether it is on and since when, never the secret or the codes. */
  async memberData(userId: number): Promise<MemberDataFile[]> {
    const row = await this.#repository.secretOf(userId);
    if (!row?.confirmed_at) return [];
    return [
      { name: 'two-step-sign-in.json', content: { enabled_at: row.confirmed_at, recovery_codes_left: await this.#repository.recoveryCodesLeft(userId) } },
    ];
  }

  #secretOf(row: { user_id: number; secret_sealed: string }): string {
    const opened = this.#box.open(row.secret_sealed, String(row.user_id));
    if (!opened) throw new Error('a two-factor secret no key opens');
    return opened.plain;
  }

  async #saveRecoveryCodes(userId: number, codes: string[], unit: UnitOfWork): Promise<void> {
    const rows = codes.map((code) => ({ id: base32(randomBytes(10)), code_hash: sha256Hex(code.replace('-', '')) }));
    await this.#repository.replaceRecoveryCodes(userId, rows, isoNow(this.#clock), unit);
  }

  async #failedCode(counter: string): Promise<void> {
    const state = await this.#limiter.consume(TWO_FACTOR_CODES, counter);
    if (!state.allowed) throw rateLimitError(state);
  }

  #ticketSignature(userId: number, expires: number): string {
    return createHmac('sha256', this.#ticketKey).update(`${userId}.${expires}`).digest('base64url');
  }

  #ticketUser(ticket: string): number | null {
    const match = /^(\d{1,12})\.(\d{1,12})\.([\w-]{43})$/.exec(ticket);
    if (!match) return null;
    const [userId, expires] = [Number(match[1]), Number(match[2])];
    if (expires * 1000 < this.#clock.now().getTime()) return null;
    return safeEqual(match[3]!, this.#ticketSignature(userId, expires)) ? userId : null;
  }
}

/** "abcde-fghij": ten characters of base32 (50 bits), easy to copy and type. */
function recoveryCode(): string {
  const text = base32(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}
