import type { ErasedMember } from '../accounts/account-deletion.service.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import type { MemberDataFile } from '../member-data/member-data.service.ts';
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { NicknameSchema } from '#common/api/accounts.schema.ts';
import { PHONE_CODE_PATTERN, type PhoneCodeSent, type SocialMessage, type SocialSession, type UnbindResult } from '#common/api/social.schema.ts';
import { FLOW_ID_PATTERN, isOAuthPlatform, OAUTH_PLATFORMS, type OAuthPlatform, type SocialPlatform } from '#common/social-platforms.ts';
import { AppError } from '#server/lib/app-error.ts';
import { type Caller, type ClientFacts, tokenName } from '#server/lib/caller.ts';
import { isoNow } from '#server/lib/clock.ts';
import { type SignInDependencies, SignInService } from '#server/lib/sign-in-service.ts';
import { clientSubject } from '#server/lib/network.ts';
import { safeEqual, sha256Hex } from '#server/lib/random.ts';
import { assertAllowed, type RateRule } from '#server/adapters/rate-limits/rate-limiter.ts';
import type { AccessTokensService } from '../accounts/access-tokens.service.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { GuestMergeService } from '../accounts/guest-merge.service.ts';
import { type IdentityProvider, type ProviderProfile, ProviderRefusal } from '#server/adapters/identity/identity-provider.ts';
import { type CodeSender, CodeSendFailure } from '#server/adapters/whatsapp/code-sender.ts';
import type { SocialRepository } from './social.repository.ts';
import type { SignInFailuresService } from '../accounts/sign-in-failures.service.ts';
import type { ConversionsService } from '../tracking/conversions.service.ts';

/** A pop-up flow must come back within this time (the provider's own sign-in page included). */
const FLOW_TTL_MS = 10 * 60 * 1000;
/** WhatsApp codes: six digits, five minutes, single use, five guesses (the issue's rules). */
const PHONE_CODE_TTL_MS = 5 * 60 * 1000;
const PHONE_CODE_ATTEMPTS = 5;

export const SOCIAL_LIMITS = {
  /** Pop-up flows started per client: each stores a row until it is used or expires. */
  flowAddress: { name: 'social-flow-address', limit: 120, windowSeconds: 15 * 60 },
  /** Refused sign-ins and bindings per client (a forged state, a wrong code): charged before each attempt, given back unless refused. */
  refusedAddress: { name: 'social-refused-address', limit: 30, windowSeconds: 15 * 60 },
  /** WhatsApp codes sent to one number: each is a message its owner receives. */
  codeNumber: { name: 'whatsapp-code-number', limit: 5, windowSeconds: 60 * 60 },
  /** WhatsApp codes asked for by one client, to any numbers: each message costs money. */
  codeAddress: { name: 'whatsapp-code-address', limit: 20, windowSeconds: 60 * 60 },
} satisfies Record<string, RateRule>;

export interface SocialDependencies extends SignInDependencies {
  repository: SocialRepository;
  accounts: Pick<AccountsService, 'userInfo' | 'secureGuest' | 'createMember' | 'notices'>;
  tokens: Pick<AccessTokensService, 'issue' | 'rotate' | 'verify'>;
  guestMerge: Pick<GuestMergeService, 'mergeCallerInto'>;
  /** The configured OAuth providers: the others are not offered. */
  providers: Partial<Record<OAuthPlatform, IdentityProvider>>;
  /** The WhatsApp code sender, or null when WhatsApp is not offered. */
  whatsapp: CodeSender | null;
  /** Keys the WhatsApp code hashes. */
  secret: string;
  /** A nickname for a new member whose provider shares no usable name. */
  newNickname: () => string;
  conversions?: Pick<ConversionsService, 'registration'>;
  /** Where wrong WhatsApp codes are noted for operators (decision 098). */
  signInFailures?: Pick<SignInFailuresService, 'recordPhone' | 'record'>;
}

/** Where a pop-up flow starts: the flow the page made, the browser's session cookie and its flow cookie. */
export interface FlowStart {
  platform: string;
  flowId: string | null;
  sessionToken: string | null;
  browserKey: string;
}

/**
 * Social sign-in (decision 063): the pop-up flows of the OAuth providers and WhatsApp codes;
 * signing in with them, binding them to the account, unbinding. A state works once, only for the
 * session and browser that started it, and only within 10 minutes.
 */
export class SocialService extends SignInService<SocialDependencies> {
  readonly #providers: Partial<Record<OAuthPlatform, IdentityProvider>>;
  readonly #whatsapp: CodeSender | null;
  readonly #secret: string;
  readonly #newNickname: () => string;

  constructor(deps: SocialDependencies) {
    super(deps);
    this.#providers = deps.providers;
    this.#whatsapp = deps.whatsapp;
    this.#secret = deps.secret;
    this.#newNickname = deps.newNickname;
  }

  /** Clears the WhatsApp code limit of a member's number (an operator lifting a lock-out, decision 098). */
  async clearPhoneLimits(phone: string): Promise<void> {
    await this.limiter.reset(SOCIAL_LIMITS.codeNumber, phone);
  }

  /** The platforms offered, in the lists' order: configured providers, then WhatsApp when it has a sender. */
  platforms(): SocialPlatform[] {
    const oauth: SocialPlatform[] = OAUTH_PLATFORMS.filter((platform) => this.#providers[platform]);
    return this.#whatsapp ? [...oauth, 'whatsapp'] : oauth;
  }

  /**
   * Starts a pop-up flow (the /oauth/{platform}/link page): a state, a PKCE verifier and a nonce
   * stored with the session and browser that asked; answers the provider's authorization URL.
   */
  async startFlow(start: FlowStart, client: ClientFacts): Promise<string> {
    const provider = isOAuthPlatform(start.platform) ? this.#providers[start.platform] : undefined;
    if (!provider) throw new AppError('not_found', { messageKey: 'social:errors.unavailable' });
    if (!start.flowId || !FLOW_ID_PATTERN.test(start.flowId)) throw new AppError('bad_request', { messageKey: 'social:errors.openFromPortal' });
    assertAllowed(await this.limiter.consume(SOCIAL_LIMITS.flowAddress, clientSubject(client.address)));
    const caller = start.sessionToken ? await this.tokens.verify(start.sessionToken) : null;
    const state = randomBytes(32).toString('base64url');
    const secrets = provider.newSecrets(randomBytes(24).toString('base64url'));
    const url = await provider.authorizationUrl(state, secrets).catch((cause: unknown) => {
      throw new AppError('unavailable', { messageKey: 'social:errors.providerDown', cause });
    });
    const now = this.clock.now();
    await this.repository.saveFlow(
      {
        stateHash: sha256Hex(state),
        platform: provider.platform,
        flowId: start.flowId,
        browserHash: sha256Hex(start.browserKey),
        tokenId: caller?.tokenId ?? null,
        codeVerifier: secrets.codeVerifier,
        nonce: secrets.nonce,
        expiresAt: new Date(now.getTime() + FLOW_TTL_MS).toISOString(),
      },
      now.toISOString(),
    );
    return url;
  }

  /** The flow id of the page that started the flow a state names (the callback page answers it only); null for an unknown state. */
  async flowIdOf(state: string | null): Promise<string | null> {
    if (!state || !/^[A-Za-z0-9_-]{16,128}$/.test(state)) return null;
    const flow = await this.repository.peekFlow(sha256Hex(state));
    return flow && flow.expiresAt > isoNow(this.clock) ? flow.flowId : null;
  }

  /**
   * Signs in with a provider account (login "force"). Nobody has it yet: a guest becomes that
   * member in place (same uid, nothing lost, session rotated); anyone else gets a new member
   * account. A member has it: the caller is signed in as that member, and a guest caller is
   * merged into it (GuestMergeService).
   */
  async signIn(caller: Caller | null, platform: SocialPlatform, body: SocialMessage, client: ClientFacts, browserKey: string | null): Promise<SocialSession> {
    const profile = await this.#confirmed(caller, platform, body, client, browserKey);
    const now = isoNow(this.clock);
    const existing = await this.repository.findAccount(platform, profile.id);
    if (existing) {
      try {
        await this.guestMerge.mergeCallerInto(caller, existing.user_id);
        return await this.#session(existing.user_id, 'issue', platform, client);
      } catch (error) {
        // The provider proved the account, so the refusal (a disabled account) is the member's to see
        // in the Console; nobody without that provider account can cause one.
        if (error instanceof AppError && error.code === 'account_disabled')
          await this.signInFailures?.record({ userId: existing.user_id, identifier: `${platform} ${profile.id}`, method: platform, address: client.address });
        throw error;
      }
    }
    const nickname = nicknameOf(profile);
    if (caller && (await this.repository.isGuest(caller.userId))) {
      const bound = await this.#bind(caller.userId, bindingOf(platform, profile, nickname), now);
      if (bound === 'bound') {
        this.conversions?.registration(caller.userId, client);
        return this.#session(caller.userId, 'rotate', platform, client);
      }
    }
    const campaign = client.campaign && Object.keys(client.campaign).length > 0 ? JSON.stringify(client.campaign) : null;
    const created = await this.#createMember(bindingOf(platform, profile, nickname), nickname ?? this.#newNickname(), now, campaign);
    // Taken meanwhile by a sign-in from another tab: that account is the one.
    const userId = created === 'taken' ? (await this.repository.findAccount(platform, profile.id))!.user_id : created;
    return this.#session(userId, 'issue', platform, client);
  }

  /**
   * Binds a provider account to the caller's account. Refused when it is bound to another member
   * (they sign in with it instead) or the caller has another account of that platform bound. A
   * guest becomes a member; either way the session rotates, as for any new way to sign in.
   */
  async link(caller: Caller, platform: SocialPlatform, body: SocialMessage, client: ClientFacts, browserKey: string | null): Promise<SocialSession> {
    const profile = await this.#confirmed(caller, platform, body, client, browserKey);
    const existing = await this.repository.findAccount(platform, profile.id);
    if (existing && existing.user_id !== caller.userId)
      throw new AppError('social_account_taken', { messageKey: 'social:errors.boundToOther', values: { platform: platformName(platform) } });
    if (!existing) {
      const bound = await this.#bind(caller.userId, bindingOf(platform, profile, nicknameOf(profile)), isoNow(this.clock));
      if (bound === 'taken') {
        const now = await this.repository.findAccount(platform, profile.id);
        throw new AppError('social_account_taken', {
          messageKey: now && now.user_id !== caller.userId ? 'social:errors.boundToOther' : 'social:errors.platformTaken',
          values: { platform: platformName(platform) },
        });
      }
    }
    return this.#session(caller.userId, 'rotate', platform, client);
  }

  /**
   * Binds a provider account to a user and, in the same unit of work, makes a guest a member (same
   * uid, nothing lost) with the provider's name when the guest has only the generated one. Answers
   * `taken` when the provider account or the user's slot for this platform is taken meanwhile
   * (the unique constraints decide, so two instances cannot both bind it).
   */
  async #bind(userId: number, account: Binding, now: string): Promise<'bound' | 'taken'> {
    try {
      await this.repository.transaction(async (unit) => {
        await this.repository.insertBinding(userId, account, now, unit);
        await this.accounts.secureGuest(userId, account.nickname, now, unit);
      });
      return 'bound';
    } catch (error) {
      if (await this.repository.isBindConflict(userId, account.platform, account.providerUserId)) return 'taken';
      throw error;
    }
  }

  /** A new member account made by a social sign-in, with the provider account bound; `taken` when another tab bound it first. */
  async #createMember(account: Binding, nickname: string, now: string, campaign: string | null): Promise<number | 'taken'> {
    try {
      return await this.repository.transaction(async (unit) => {
        const userId = await this.accounts.createMember({ nickname, campaign, now }, unit);
        await this.repository.insertBinding(userId, account, now, unit);
        return userId;
      });
    } catch (error) {
      if (await this.repository.findAccount(account.platform, account.providerUserId)) return 'taken';
      throw error;
    }
  }

  /** Removes the caller's binding of a platform, unless it is the account's last way to sign in. */
  async unbind(caller: Caller, platform: SocialPlatform): Promise<UnbindResult> {
    const result = await this.repository.unbind(caller.userId, platform);
    if (result === 'missing') throw new AppError('not_found', { messageKey: 'social:errors.notBound', values: { platform: platformName(platform) } });
    if (result === 'last') throw new AppError('last_sign_in_method', { messageKey: 'social:errors.lastSignIn', values: { platform: platformName(platform) } });
    return { userInfo: await this.accounts.userInfo(caller.userId) };
  }

  /** Sends a 6-digit code to a WhatsApp number; a new code replaces the number's earlier one. */
  async sendPhoneCode(phone: string, client: ClientFacts): Promise<PhoneCodeSent> {
    if (!this.#whatsapp) throw new AppError('not_found', { messageKey: 'social:errors.unavailable' });
    assertAllowed(
      await this.limiter.consume(SOCIAL_LIMITS.codeAddress, clientSubject(client.address)),
      await this.limiter.consume(SOCIAL_LIMITS.codeNumber, phone),
    );
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const now = this.clock.now();
    await this.repository.savePhoneCode(
      { phone, codeHash: this.#phoneCodeHash(phone, code), expiresAt: new Date(now.getTime() + PHONE_CODE_TTL_MS).toISOString() },
      now.toISOString(),
    );
    try {
      await this.#whatsapp.send(phone, code);
    } catch (error) {
      await this.repository.deletePhoneCode(phone);
      throw new AppError('unavailable', { messageKey: 'social:whatsapp.sendFailed', cause: error instanceof CodeSendFailure ? error : undefined });
    }
    return { expiresInSeconds: PHONE_CODE_TTL_MS / 1000 };
  }

  /** Deletes flows and codes that expired unused; run on a schedule, off the request path. */
  removeExpired(): Promise<number> {
    return this.repository.deleteExpired(isoNow(this.clock));
  }

  /** The provider account the message proves, or a refusal; refusals count against the client. */
  async #confirmed(
    caller: Caller | null,
    platform: SocialPlatform,
    body: SocialMessage,
    client: ClientFacts,
    browserKey: string | null,
  ): Promise<ProviderProfile> {
    if (body.platform !== undefined && body.platform !== platform) throw new AppError('bad_request', { messageKey: 'social:errors.platformMismatch' });
    const where = clientSubject(client.address);
    // Charged before the attempt and given back when it was not refused: attempts sent at once
    // cannot all pass a count read before any of them was added to it.
    assertAllowed(await this.limiter.consume(SOCIAL_LIMITS.refusedAddress, where));
    try {
      const profile = platform === 'whatsapp' ? await this.#phoneProfile(body) : await this.#providerProfile(caller, platform, body, browserKey);
      await this.limiter.refund(SOCIAL_LIMITS.refusedAddress, where);
      return profile;
    } catch (error) {
      if (!(error instanceof AppError) || error.code === 'rate_limited' || error.code === 'unavailable')
        await this.limiter.refund(SOCIAL_LIMITS.refusedAddress, where);
      if (error instanceof AppError && error.code === 'sign_in_code_invalid' && platform === 'whatsapp' && body.phone)
        await this.signInFailures?.recordPhone(body.phone, client.address);
      throw error;
    }
  }

  /**
   * The state taken out of the store (so it and its code work once), unexpired, for this platform,
   * this session and this browser; then the provider's confirmation of the code.
   */
  async #providerProfile(caller: Caller | null, platform: OAuthPlatform, body: SocialMessage, browserKey: string | null): Promise<ProviderProfile> {
    const provider = this.#providers[platform];
    if (!provider) throw new AppError('not_found', { messageKey: 'social:errors.unavailable' });
    const flow = body.state ? await this.repository.takeFlow(sha256Hex(body.state)) : undefined;
    const valid =
      flow &&
      flow.expiresAt > isoNow(this.clock) &&
      flow.platform === platform &&
      flow.tokenId === (caller?.tokenId ?? null) &&
      browserKey !== null &&
      safeEqual(flow.browserHash, sha256Hex(browserKey)) &&
      (body.flow === undefined || body.flow === flow.flowId);
    if (!valid) throw new AppError('bad_request', { messageKey: 'social:errors.state' });
    try {
      return await provider.profile(body.code, { codeVerifier: flow.codeVerifier, nonce: flow.nonce }, { user: body.user });
    } catch (error) {
      if (error instanceof ProviderRefusal)
        throw new AppError('bad_request', { messageKey: 'social:errors.providerRefused', values: { platform: platformName(platform) }, cause: error });
      throw error;
    }
  }

  /** The WhatsApp number a right code proves: the code is taken (single use); wrong guesses count. */
  async #phoneProfile(body: SocialMessage): Promise<ProviderProfile> {
    if (!this.#whatsapp) throw new AppError('not_found', { messageKey: 'social:errors.unavailable' });
    const phone = body.phone;
    if (!phone) throw new AppError('validation', { messageKey: 'social:whatsapp.phoneMissing' });
    const code = body.code.trim();
    // The guess is counted before it is checked (one atomic update): guesses at once cannot share an attempt.
    const stored = PHONE_CODE_PATTERN.test(code) ? await this.repository.takePhoneCodeAttempt(phone, PHONE_CODE_ATTEMPTS, isoNow(this.clock)) : undefined;
    if (!stored) throw new AppError('sign_in_code_invalid', { messageKey: 'social:whatsapp.codeWrong' });
    const hash = this.#phoneCodeHash(phone, code);
    if (!safeEqual(stored.codeHash, hash)) {
      if (stored.attempts >= PHONE_CODE_ATTEMPTS) await this.repository.deleteSpentPhoneCode(phone, stored.codeHash, PHONE_CODE_ATTEMPTS);
      throw new AppError('sign_in_code_invalid', { messageKey: 'social:whatsapp.codeWrong' });
    }
    if (!(await this.repository.takePhoneCode(phone, hash))) throw new AppError('sign_in_code_invalid', { messageKey: 'social:whatsapp.codeWrong' });
    return { id: phone, name: null, email: null };
  }

  #phoneCodeHash(phone: string, code: string): string {
    return createHmac('sha256', this.#secret).update(`whatsapp-code:${phone}:${code}`).digest('hex');
  }

  async #session(userId: number, how: 'issue' | 'rotate', platform: SocialPlatform, client: ClientFacts): Promise<SocialSession> {
    const { token } =
      how === 'rotate' ? await this.tokens.rotate(userId, tokenName(platform, client)) : await this.tokens.issue(userId, tokenName(platform, client));
    if (how === 'issue') await this.accounts.notices.signedIn(userId, client);
    return { data: { token, userInfo: await this.accounts.userInfo(userId) } };
  }

  /** The account erasure's step (decision 147): the member's rows of this feature's tables go, in the erasure's unit of work. */
  async eraseMember(member: ErasedMember, unit: UnitOfWork): Promise<void> {
    await this.repository.eraseMember(member.id, unit);
  }

  /** The member's bound provider accounts in "Download my data" (decision 144). */
  async memberData(userId: number): Promise<MemberDataFile[]> {
    return [{ name: 'social-accounts.json', content: await this.repository.personalDataOf(userId) }];
  }
}

/** The provider's name as a nickname when it is a valid one. */
function nicknameOf(profile: ProviderProfile): string | null {
  if (!profile.name) return null;
  const parsed = NicknameSchema.safeParse(profile.name.slice(0, 24));
  return parsed.success && parsed.data ? parsed.data : null;
}

/** A provider account as a binding records it, with the name a guest takes from it. */
interface Binding {
  platform: string;
  providerUserId: string;
  displayName: string | null;
  email: string | null;
  nickname: string | null;
}

function bindingOf(platform: SocialPlatform, profile: ProviderProfile, nickname: string | null): Binding {
  return { platform, providerUserId: profile.id, displayName: profile.name, email: profile.email, nickname };
}

const PLATFORM_NAMES: Record<SocialPlatform, string> = {
  google: 'Google',
  apple: 'Apple',
  discord: 'Discord',
  facebook: 'Facebook',
  x: 'X',
  whatsapp: 'WhatsApp',
};

export function platformName(platform: SocialPlatform): string {
  return PLATFORM_NAMES[platform];
}
