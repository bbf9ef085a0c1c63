import { createHmac, randomBytes } from 'node:crypto';
import { DEFAULT_LOCALE, type Locale, LOCALE_CODES, localePath } from '#common/locales.ts';
import type { ClientFacts } from '#server/lib/caller.ts';
import { fieldError } from '#server/lib/app-error.ts';
import { isoNow } from '#server/lib/clock.ts';
import { clientSubject, networkOf } from '#server/lib/network.ts';
import { sha256Hex } from '#server/lib/random.ts';
import { browserAndSystem } from '#server/lib/user-agent.ts';
import { assertAllowed } from '#server/adapters/rate-limits/rate-limiter.ts';
import { ACCOUNT_NOTICE_TEXT, type AccountNotice } from './account-notice-texts.ts';
import { ACCOUNT_LIMITS } from './account-limits.ts';
import type { AccountsDependencies } from './accounts-dependencies.ts';

/** How long a notice's "this wasn't me" link works (decision 148). */
export const NOT_ME_LINK_DAYS = 7;
/** Devices not signed in from for this long are forgotten: a sign-in from one again is told. */
export const DEVICE_MEMORY_DAYS = 180;
const DAY_MS = 24 * 3600 * 1000;
const RESET_LINK_MS = 30 * 60_000;

/**
 * Notices by mail (decision 148) to a member's confirmed address: a sign-in from a browser, system
 * and network the account has not signed in from (in the last 180 days), and each change of the
 * password, email address, phone number, two-step sign-in or passkeys. Each carries a "this wasn't
 * me" link: it ends every session of the account and leads to choosing a new password. Without a
 * confirmed address nothing is sent.
 */
export class AccountNoticesService {
  readonly #deps: AccountsDependencies;

  constructor(deps: AccountsDependencies) {
    this.#deps = deps;
  }

  /**
   * A change to how the account signs in or is recovered; `to` sends to an address no longer the
   * account's (the old one), in the language it had (`locale`).
   */
  async changed(
    userId: number,
    what: Exclude<AccountNotice, 'sign-in'>,
    client: ClientFacts | null,
    options: { to?: string; locale?: string | null } = {},
  ): Promise<void> {
    await this.#send(userId, what, client, options);
  }

  /** Notes a member's sign-in, and tells the confirmed address when it came from a device the account had not used. */
  async signedIn(userId: number, client: ClientFacts): Promise<void> {
    const user = await this.#deps.users.findById(userId);
    if (!user || user.is_guest === 1 || !this.#deps.recovery) return;
    const { browser, system } = browserAndSystem(client.userAgent);
    const network = networkOf(client.address, 24, 48);
    const deviceHash = createHmac('sha256', this.#deps.appSecret).update(`${userId}\n${browser}\n${system}\n${network}`).digest('hex');
    const seen = await this.#deps.recovery.repository.noteDevice({ userId, deviceHash, label: labelOf(browser, system), now: isoNow(this.#deps.clock) });
    // The first sign-in of an account (its registration, or the first after this was introduced) is not news.
    if (!seen.known && seen.devicesBefore > 0) await this.#send(userId, 'sign-in', client, {});
  }

  /**
   * "This wasn't me": uses the notice's link, ends every session of the account, and answers a
   * fresh reset link's key, so the page goes on to choosing a new password.
   */
  async notMe(key: string, client: ClientFacts): Promise<{ resetKey: string; sessionsEnded: number }> {
    const { limiter, clock, tokens } = this.#deps;
    const recovery = this.#recovery;
    assertAllowed(await limiter.consume(ACCOUNT_LIMITS.resetAddress, clientSubject(client.address)));
    const now = clock.now();
    const link = await recovery.repository.liveLink(sha256Hex(key), 'not-me', now.toISOString());
    if (!link) throw fieldError({ key: ['accounts:reset.linkExpired'] });
    const resetKey = randomBytes(32).toString('base64url');
    const used = await recovery.repository.transaction(async (unit) => {
      if (!(await recovery.repository.useLink(sha256Hex(key), 'not-me', link.user_id, now.toISOString(), unit))) return false;
      await recovery.repository.insertLink(
        {
          tokenHash: sha256Hex(resetKey),
          userId: link.user_id,
          purpose: 'reset',
          expiresAt: new Date(now.getTime() + RESET_LINK_MS).toISOString(),
          now: now.toISOString(),
        },
        unit,
      );
      return true;
    });
    if (!used) throw fieldError({ key: ['accounts:reset.linkExpired'] });
    return { resetKey, sessionsEnded: await tokens.endAllSessions(link.user_id) };
  }

  async #send(userId: number, what: AccountNotice, client: ClientFacts | null, options: { to?: string; locale?: string | null }): Promise<void> {
    const recovery = this.#deps.recovery;
    const user = await this.#deps.users.findById(userId);
    if (!recovery || !user) return;
    const address = options.to ?? (user.email_verified_at ? user.email : null);
    if (!address) return;
    const wanted = options.to ? options.locale : user.mail_locale;
    const locale: Locale = LOCALE_CODES.includes(wanted as Locale) ? (wanted as Locale) : DEFAULT_LOCALE;
    const key = randomBytes(32).toString('base64url');
    const now = this.#deps.clock.now();
    await recovery.repository.insertLink({
      tokenHash: sha256Hex(key),
      userId,
      purpose: 'not-me',
      expiresAt: new Date(now.getTime() + NOT_ME_LINK_DAYS * DAY_MS).toISOString(),
      now: now.toISOString(),
    });
    const { browser, system } = browserAndSystem(client?.userAgent);
    await recovery.mail.enqueue({
      to: address,
      locale,
      template: 'account-notice',
      params: {
        nickname: user.nickname ?? user.username ?? '',
        what: ACCOUNT_NOTICE_TEXT[locale][what],
        when: now.toISOString().slice(0, 16).replace('T', ' '),
        device: client ? labelOf(browser, system) : '—',
        link: `${recovery.publicOrigin}${localePath(locale, '/login/not-me')}?key=${key}`,
      },
    });
  }

  get #recovery() {
    const recovery = this.#deps.recovery;
    if (!recovery) throw new Error('account recovery is not configured');
    return recovery;
  }
}

function labelOf(browser: string | null, system: string | null): string {
  return [browser ?? '?', system ?? '?'].join(' / ');
}
