import type { ErasedMember } from '../accounts/account-deletion.service.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import type { MemberDataFile } from '../member-data/member-data.service.ts';
import { randomBytes } from 'node:crypto';
import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { Session } from '#common/api/accounts.schema.ts';
import type {
  AuthenticationResponseBody,
  CeremonyOptions,
  Passkey,
  PasskeyCreated,
  PasskeyDeleted,
  PasskeyList,
  RegistrationResponseBody,
} from '#common/api/passkeys.schema.ts';
import { AppError } from '#server/lib/app-error.ts';
import { type Caller, type ClientFacts, tokenName } from '#server/lib/caller.ts';
import { isoNow } from '#server/lib/clock.ts';
import { type SignInDependencies, SignInService } from '#server/lib/sign-in-service.ts';
import { clientSubject } from '#server/lib/network.ts';
import { assertAllowed, type RateRule } from '#server/adapters/rate-limits/rate-limiter.ts';
import type { AccessTokensService } from '../accounts/access-tokens.service.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { GuestMergeService } from '../accounts/guest-merge.service.ts';
import type { SignInFailuresService } from '../accounts/sign-in-failures.service.ts';
import { passkeyName } from './passkey-names.ts';
import type { ChallengeRow, CredentialRow, PasskeysRepository } from './passkeys.repository.ts';
import type { ConversionsService } from '../tracking/conversions.service.ts';

/** A ceremony must be finished within this time, and its challenge works once (decision 062). */
const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** COSE algorithms offered, in order of preference: Ed25519, ES256, RS256. */
const ALGORITHMS = [-8, -7, -257];

export const PASSKEY_LIMITS = {
  /** Ceremonies started per client: each stores a challenge until it is used or expires. */
  optionsAddress: { name: 'passkey-options-address', limit: 120, windowSeconds: 15 * 60 },
  /** Failed passkey sign-ins per client. */
  loginAddress: { name: 'passkey-login-address', limit: 30, windowSeconds: 15 * 60 },
} satisfies Record<string, RateRule>;

export interface PasskeysDependencies extends SignInDependencies {
  repository: PasskeysRepository;
  accounts: Pick<AccountsService, 'userInfo' | 'ensurePasskeyHandle' | 'markSecured' | 'notices'>;
  tokens: Pick<AccessTokensService, 'issue' | 'rotate'>;
  guestMerge: Pick<GuestMergeService, 'mergeCallerInto'>;
  relyingParty: { rpId: string; rpName: string; origins: string[] };
  conversions?: Pick<ConversionsService, 'registration'>;
  /** Where a refused sign-in with a registered passkey is recorded for operators (decision 098). */
  signInFailures?: Pick<SignInFailuresService, 'record'>;
}

/**
 * Passkeys (WebAuthn): registering one for the signed-in account, signing in with one, listing,
 * renaming and deleting them. Challenges live in the database, so any instance can finish a
 * ceremony another started; each is bound to the session that started it and works once.
 */
export class PasskeysService extends SignInService<PasskeysDependencies> {
  readonly #rp: { rpId: string; rpName: string; origins: string[] };

  constructor(deps: PasskeysDependencies) {
    super(deps);
    this.#rp = deps.relyingParty;
  }

  /** Options for navigator.credentials.create(): the account's handle, its passkeys excluded. */
  async registrationOptions(caller: Caller, client: ClientFacts): Promise<CeremonyOptions> {
    assertAllowed(await this.limiter.consume(PASSKEY_LIMITS.optionsAddress, clientSubject(client.address)));
    const user = await this.accounts.userInfo(caller.userId);
    const handle = (await this.repository.userHandle(caller.userId)) ?? (await this.accounts.ensurePasskeyHandle(caller.userId, newUserHandle()));
    const existing = await this.repository.listForUser(caller.userId);
    const label = user.nickname ?? `ID:${user.uid}`;
    const options = await generateRegistrationOptions({
      rpName: this.#rp.rpName,
      rpID: this.#rp.rpId,
      userID: Buffer.from(handle, 'base64url'),
      userName: label,
      userDisplayName: label,
      attestationType: 'none',
      excludeCredentials: existing.map((c) => ({ id: c.credential_id, transports: transportsOf(c) })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      supportedAlgorithmIDs: ALGORITHMS,
      timeout: CHALLENGE_TTL_MS,
    });
    await this.#saveChallenge(options.challenge, 'passkey-create', caller.userId, caller.tokenId);
    return { data: options as unknown as Record<string, unknown> };
  }

  /**
   * Checks the authenticator's answer and stores the passkey. A guest becomes a member in place;
   * either way the session rotates, as for any new way to sign in: the answer carries the new token.
   */
  async register(caller: Caller, body: RegistrationResponseBody, client: ClientFacts): Promise<PasskeyCreated> {
    const challenge = await this.#takeChallenge(body.response.clientDataJSON, 'passkey-create', caller.userId, caller.tokenId);
    const verification = await verifyRegistrationResponse({
      response: body as Parameters<typeof verifyRegistrationResponse>[0]['response'],
      expectedChallenge: challenge,
      expectedOrigin: this.#rp.origins,
      expectedRPID: this.#rp.rpId,
      requireUserVerification: false,
      supportedAlgorithmIDs: ALGORITHMS,
    }).catch((cause: unknown) => {
      throw refused('passkeys:errors.registrationRefused', cause);
    });
    if (!verification.verified) throw refused('passkeys:errors.registrationRefused');
    const info = verification.registrationInfo;
    const now = isoNow(this.clock);
    // A guest's first passkey makes it a member (a registration).
    const wasGuest = this.conversions !== null && (await this.accounts.userInfo(caller.userId)).isGuest;
    const credential = {
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: body.response.transports ?? info.credential.transports ?? [],
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      aaguid: info.aaguid,
      name: passkeyName(info.aaguid, client.userAgent),
    };
    // A passkey is a way to sign in: a guest becomes a member in the same transaction (the same uid, nothing lost).
    const row = await this.repository.transaction(async (unit) => {
      const added = await this.repository.addCredential(caller.userId, credential, now, unit);
      if (added) await this.accounts.markSecured(caller.userId, now, unit);
      return added;
    });
    if (!row) throw new AppError('passkey_already_registered', { messageKey: 'passkeys:errors.alreadyRegistered' });
    const { token } = await this.tokens.rotate(caller.userId, tokenName('passkey', client));
    if (wasGuest) this.conversions?.registration(caller.userId, client);
    else await this.accounts.notices.changed(caller.userId, 'passkey-added', client);
    return { token, userInfo: await this.accounts.userInfo(caller.userId), passkey: toPasskey(row) };
  }

  /** Options for navigator.credentials.get(): no credentials listed, for a discoverable passkey. */
  async authenticationOptions(caller: Caller | null, client: ClientFacts): Promise<CeremonyOptions> {
    assertAllowed(await this.limiter.consume(PASSKEY_LIMITS.optionsAddress, clientSubject(client.address)));
    const options = await generateAuthenticationOptions({
      rpID: this.#rp.rpId,
      allowCredentials: [],
      userVerification: 'preferred',
      timeout: CHALLENGE_TTL_MS,
    });
    await this.#saveChallenge(options.challenge, 'passkey-login', null, caller?.tokenId ?? null);
    return { data: options as unknown as Record<string, unknown> };
  }

  /**
   * Signs in with a passkey: the challenge of this session, a registered credential whose
   * account the user handle names, a valid signature and a counter that did not go backwards.
   * A guest caller is merged into that account (GuestMergeService).
   */
  async signIn(caller: Caller | null, body: AuthenticationResponseBody, client: ClientFacts): Promise<Session> {
    const where = clientSubject(client.address);
    assertAllowed(await this.limiter.peek(PASSKEY_LIMITS.loginAddress, where));
    // The registered passkey the attempt named, once known: its refusal is recorded against its account.
    let known: { user_id: number; name: string | null; credential_id: string } | undefined;
    try {
      const challenge = await this.#takeChallenge(body.response.clientDataJSON, 'passkey-login', null, caller?.tokenId ?? null);
      const credential = await this.repository.findByCredentialId(body.id);
      if (!credential) throw refused('passkeys:errors.unknownPasskey');
      known = credential;
      const owner = body.response.userHandle ? await this.repository.userIdByHandle(body.response.userHandle) : undefined;
      if (owner !== credential.user_id) throw refused('passkeys:errors.wrongAccount');
      const verification = await verifyAuthenticationResponse({
        response: body as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
        expectedChallenge: challenge,
        expectedOrigin: this.#rp.origins,
        expectedRPID: this.#rp.rpId,
        credential: {
          id: credential.credential_id,
          publicKey: Buffer.from(credential.public_key, 'base64url'),
          counter: credential.counter,
          transports: transportsOf(credential),
        },
        requireUserVerification: false,
      }).catch((cause: unknown) => {
        throw refused('passkeys:errors.signInRefused', cause);
      });
      if (!verification.verified) throw refused('passkeys:errors.signInRefused');
      await this.repository.markUsed(credential.id, verification.authenticationInfo.newCounter, isoNow(this.clock));
      await this.guestMerge.mergeCallerInto(caller, credential.user_id);
      const { token } = await this.tokens.issue(credential.user_id, tokenName('passkey', client));
      await this.accounts.notices.signedIn(credential.user_id, client);
      return { token, userInfo: await this.accounts.userInfo(credential.user_id) };
    } catch (error) {
      if (error instanceof AppError && error.code !== 'rate_limited') {
        await this.limiter.consume(PASSKEY_LIMITS.loginAddress, where);
        // Only with a registered passkey (an unknown one names no account), and only after a valid
        // challenge of this session, under the per-client limit above: an attacker cannot fill the
        // table with made-up credentials, and the repository keeps 50 rows per passkey at most.
        if (known)
          await this.signInFailures?.record({
            userId: known.user_id,
            identifier: `passkey ${known.name ?? known.credential_id.slice(0, 16)}`,
            method: 'passkey',
            address: client.address,
          });
      }
      throw error;
    }
  }

  /** Deletes ceremony challenges nobody finished; run on a schedule, off the request path. */
  removeExpiredChallenges(): Promise<number> {
    return this.repository.deleteExpiredChallenges(isoNow(this.clock));
  }

  async list(caller: Caller): Promise<PasskeyList> {
    return { items: (await this.repository.listForUser(caller.userId)).map(toPasskey) };
  }

  async rename(caller: Caller, id: number, name: string): Promise<Passkey> {
    const row = await this.repository.rename(caller.userId, id, name);
    if (!row) throw notFound();
    return toPasskey(row);
  }

  /** Deletes one of the caller's passkeys, unless it is the account's only way to sign in. */
  async remove(caller: Caller, id: number, client: ClientFacts): Promise<PasskeyDeleted> {
    const passkeys = await this.repository.listForUser(caller.userId);
    if (!passkeys.some((c) => c.id === id)) throw notFound();
    if (passkeys.length === 1 && !(await this.repository.hasOtherSignIn(caller.userId))) {
      throw new AppError('last_sign_in_method', { messageKey: 'passkeys:errors.lastSignIn' });
    }
    if (!(await this.repository.remove(caller.userId, id))) throw notFound();
    await this.accounts.notices.changed(caller.userId, 'passkey-removed', client);
    return { userInfo: await this.accounts.userInfo(caller.userId) };
  }

  async #saveChallenge(challenge: string, purpose: ChallengeRow['purpose'], userId: number | null, tokenId: number | null): Promise<void> {
    const now = this.clock.now();
    await this.repository.saveChallenge(
      { challenge, purpose, userId, tokenId, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString() },
      now.toISOString(),
    );
  }

  /**
   * The challenge the browser signed, taken out of the store (so it works once), checked to be
   * unexpired and issued to this account and session. Any failure is the same refusal.
   */
  async #takeChallenge(clientDataJSON: string, purpose: ChallengeRow['purpose'], userId: number | null, tokenId: number | null): Promise<string> {
    const challenge = challengeOf(clientDataJSON);
    const row = challenge ? await this.repository.takeChallenge(challenge, purpose) : undefined;
    const fresh = row && row.expiresAt > isoNow(this.clock);
    // A sign-in started before the page had a session (the autofill starts at once, the guest
    // session a moment later) may be finished by the session made meanwhile; one started by a
    // session only by that session.
    const sameSession = row && (row.tokenId === tokenId || (purpose === 'passkey-login' && row.tokenId === null));
    if (!row || !fresh || row.userId !== userId || !sameSession) throw refused('passkeys:errors.challenge');
    return row.challenge;
  }

  /** The account erasure's step (decision 147): the member's rows of this feature's tables go, in the erasure's unit of work. */
  async eraseMember(member: ErasedMember, unit: UnitOfWork): Promise<void> {
    await this.repository.eraseMember(member.id, unit);
  }

  /** The member's passkeys in "Download my data" (decision 144). */
  async memberData(userId: number): Promise<MemberDataFile[]> {
    const passkeys = await this.repository.personalDataOf(userId);
    return [{ name: 'passkeys.json', content: passkeys.map((passkey) => ({ ...passkey, backed_up: Boolean(passkey.backed_up) })) }];
  }
}

/** 32 random bytes (WebAuthn allows 1 to 64): the account's handle, never its uid. */
function newUserHandle(): string {
  return randomBytes(32).toString('base64url');
}

/** The challenge in the browser's client data, or null when it is not the JSON it should be. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(data.challenge) ? data.challenge : null;
  } catch {
    return null;
  }
}

function transportsOf(row: CredentialRow): string[] {
  try {
    return JSON.parse(row.transports ?? '[]') as string[];
  } catch {
    return [];
  }
}

function toPasskey(row: CredentialRow): Passkey {
  return { id: row.id, name: row.name ?? 'Passkey', createdAt: row.created_at, lastUsedAt: row.last_used_at, backedUp: row.backed_up === 1 };
}

function refused(messageKey: string, cause?: unknown): AppError {
  return new AppError('bad_request', { messageKey, cause });
}

function notFound(): AppError {
  return new AppError('not_found', { messageKey: 'passkeys:errors.notFound' });
}
