import { CodeChallengeMethod, generateCodeVerifier, OAuth2Client, OAuth2RequestError, OAuth2Tokens } from 'arctic';
import { createRemoteJWKSet, importPKCS8, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import type { OAuthPlatform } from '#common/social-platforms.ts';
import type { OAuthProviderConfig } from '#server/config.ts';
import { type FlowSecrets, type IdentityProvider, type ProviderProfile, ProviderRefusal } from './identity-provider.ts';

interface Endpoints {
  authorization: string;
  token: string;
  /** The profile call of providers without ID tokens (Discord, Facebook, X), or OpenID Connect userinfo. */
  profile: string | null;
  jwks: string | null;
  /** The ID token issuers accepted. */
  issuers: string[];
}

interface ProviderSpec {
  scopes: string[];
  /** PKCE where the provider documents it (RFC 7636); the others rely on the state and its bindings. */
  pkce: boolean;
  /** An OpenID Connect provider: its ID token is verified and names the account. */
  idToken: boolean;
  /** Apple answers with a cross-site POST when it is asked for the name or email. */
  formPost: boolean;
  /** How the client authenticates at the token endpoint: HTTP Basic, or client_id and client_secret in the body. */
  clientAuth: 'basic' | 'post';
  endpoints: Endpoints;
  /** The account from the profile call's answer (providers without ID tokens). */
  profileOf?: (body: unknown) => ProviderProfile | null;
  /** Apple names the person only in its first answer's `user` field, never in the ID token. */
  nameFromAnswer?: (user: string | undefined) => string | null;
}

const FACEBOOK_GRAPH = 'https://graph.facebook.com/v21.0';

// The providers' answers, parsed (never cast). An account id must be there; a name or an email
// in another shape than a non-empty string is read as absent, as before.
const optionalText = z.unknown().optional().transform(text);
const DiscordUser = z.object({ id: z.string(), username: optionalText, global_name: optionalText, email: optionalText, verified: z.unknown().optional() });
const FacebookUser = z.object({ id: z.string(), name: optionalText, email: optionalText });
const XUser = z.object({ data: z.object({ id: z.string(), name: optionalText, username: optionalText }) });
const TokenAnswer = z.looseObject({ access_token: z.string() });
const TokenError = z.object({ error: z.string() });
const IdTokenClaims = z.object({ sub: z.string(), name: optionalText, email: optionalText, email_verified: z.unknown().optional() });
const AppleUser = z.object({ name: z.object({ firstName: optionalText, lastName: optionalText }).optional().catch(undefined) });
const DiscoveryDocument = z.object({
  issuer: z.string().min(1),
  authorization_endpoint: z.string().min(1),
  token_endpoint: z.string().min(1),
  userinfo_endpoint: z.string().optional(),
  jwks_uri: z.string().optional(),
});

/** Each provider's documented endpoints and ways (decision 063). */
const PROVIDERS: Record<OAuthPlatform, ProviderSpec> = {
  google: {
    scopes: ['openid', 'profile', 'email'],
    pkce: true,
    idToken: true,
    formPost: false,
    clientAuth: 'basic',
    endpoints: {
      authorization: 'https://accounts.google.com/o/oauth2/v2/auth',
      token: 'https://oauth2.googleapis.com/token',
      profile: null,
      jwks: 'https://www.googleapis.com/oauth2/v3/certs',
      issuers: ['https://accounts.google.com', 'accounts.google.com'],
    },
  },
  apple: {
    scopes: ['name', 'email'],
    pkce: false,
    idToken: true,
    formPost: true,
    clientAuth: 'post',
    nameFromAnswer: appleUserName,
    endpoints: {
      authorization: 'https://appleid.apple.com/auth/authorize',
      token: 'https://appleid.apple.com/auth/token',
      profile: null,
      jwks: 'https://appleid.apple.com/auth/keys',
      issuers: ['https://appleid.apple.com'],
    },
  },
  discord: {
    scopes: ['identify', 'email'],
    pkce: true,
    idToken: false,
    formPost: false,
    clientAuth: 'basic',
    endpoints: {
      authorization: 'https://discord.com/oauth2/authorize',
      token: 'https://discord.com/api/oauth2/token',
      profile: 'https://discord.com/api/users/@me',
      jwks: null,
      issuers: [],
    },
    profileOf: (body) => {
      const user = DiscordUser.safeParse(body).data;
      return user ? { id: user.id, name: user.global_name ?? user.username, email: user.verified === true ? user.email : null } : null;
    },
  },
  facebook: {
    scopes: ['public_profile', 'email'],
    pkce: false,
    idToken: false,
    formPost: false,
    clientAuth: 'post',
    endpoints: {
      authorization: 'https://www.facebook.com/v21.0/dialog/oauth',
      token: `${FACEBOOK_GRAPH}/oauth/access_token`,
      profile: `${FACEBOOK_GRAPH}/me?fields=id,name,email`,
      jwks: null,
      issuers: [],
    },
    profileOf: (body) => {
      const user = FacebookUser.safeParse(body).data;
      return user ? { id: user.id, name: user.name, email: user.email } : null;
    },
  },
  x: {
    scopes: ['users.read', 'tweet.read'],
    pkce: true,
    idToken: false,
    formPost: false,
    clientAuth: 'basic',
    endpoints: {
      authorization: 'https://x.com/i/oauth2/authorize',
      token: 'https://api.x.com/2/oauth2/token',
      profile: 'https://api.x.com/2/users/me',
      jwks: null,
      issuers: [],
    },
    profileOf: (body) => {
      const user = XUser.safeParse(body).data?.data;
      return user ? { id: user.id, name: user.name ?? user.username, email: null } : null;
    },
  },
};

const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * One configured OAuth provider: builds its authorization URL and turns the code it returns into
 * the account that signed in, checking the ID token (signature by the provider's keys, issuer,
 * audience, expiry, nonce) where the provider issues one.
 */
export class OAuthProvider implements IdentityProvider {
  readonly platform: OAuthPlatform;
  readonly #spec: ProviderSpec;
  readonly #config: OAuthProviderConfig;
  readonly #redirectUri: string;
  #endpoints: Promise<Endpoints> | null = null;
  #jwks: ReturnType<typeof createRemoteJWKSet> | null = null;

  constructor(platform: OAuthPlatform, config: OAuthProviderConfig, publicOrigin: string) {
    this.platform = platform;
    this.#spec = PROVIDERS[platform];
    this.#config = config;
    // Exact: the provider compares it with the registered one character for character.
    this.#redirectUri = `${publicOrigin}/oauth/${platform}/callback`;
  }

  get redirectUri(): string {
    return this.#redirectUri;
  }

  /** New secrets for a flow: a PKCE verifier where the provider takes one, and the ID token's nonce. */
  newSecrets(nonce: string): FlowSecrets {
    return { codeVerifier: this.#spec.pkce ? generateCodeVerifier() : null, nonce };
  }

  async authorizationUrl(state: string, secrets: FlowSecrets): Promise<string> {
    const endpoints = await this.#resolveEndpoints();
    const client = new OAuth2Client(this.#config.clientId, null, this.#redirectUri);
    const url = secrets.codeVerifier
      ? client.createAuthorizationURLWithPKCE(endpoints.authorization, state, CodeChallengeMethod.S256, secrets.codeVerifier, this.#spec.scopes)
      : client.createAuthorizationURL(endpoints.authorization, state, this.#spec.scopes);
    if (this.#spec.idToken) url.searchParams.set('nonce', secrets.nonce);
    if (this.#spec.formPost) url.searchParams.set('response_mode', 'form_post');
    return url.href;
  }

  /** The account behind an authorization code; throws ProviderRefusal when anything does not hold. */
  async profile(code: string, secrets: FlowSecrets, answer: { user?: string | undefined } = {}): Promise<ProviderProfile> {
    const profile = await this.#profile(code, secrets);
    return !profile.name && this.#spec.nameFromAnswer ? { ...profile, name: this.#spec.nameFromAnswer(answer.user) } : profile;
  }

  async #profile(code: string, secrets: FlowSecrets): Promise<ProviderProfile> {
    const endpoints = await this.#resolveEndpoints();
    const tokens = await this.#exchange(endpoints, code, secrets);
    if (this.#spec.idToken) return this.#verifiedIdToken(endpoints, tokens, secrets.nonce);
    if (!endpoints.profile || !this.#spec.profileOf) throw new ProviderRefusal(`${this.platform} has no profile endpoint`);
    const response = await fetch(endpoints.profile, {
      headers: { authorization: `Bearer ${tokens.accessToken()}`, accept: 'application/json' },
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    }).catch((cause: unknown) => {
      throw new ProviderRefusal(`${this.platform} profile call failed`, { cause });
    });
    if (!response.ok) throw new ProviderRefusal(`${this.platform} profile call answered ${response.status}`);
    const profile = this.#spec.profileOf(await response.json().catch(() => null));
    if (!profile) throw new ProviderRefusal(`${this.platform} profile has no account id`);
    return profile;
  }

  async #exchange(endpoints: Endpoints, code: string, secrets: FlowSecrets): Promise<OAuth2Tokens> {
    try {
      if (this.#spec.clientAuth === 'basic') {
        const client = new OAuth2Client(this.#config.clientId, this.#config.clientSecret, this.#redirectUri);
        return await client.validateAuthorizationCode(endpoints.token, code, secrets.codeVerifier);
      }
      return await this.#postTokenRequest(endpoints.token, code, secrets.codeVerifier);
    } catch (cause) {
      if (cause instanceof ProviderRefusal) throw cause;
      const detail = cause instanceof OAuth2RequestError ? `${cause.code}${cause.description ? `: ${cause.description}` : ''}` : String(cause);
      throw new ProviderRefusal(`${this.platform} refused the code (${detail})`, { cause });
    }
  }

  /** The token request with the client's credentials in the body (Apple and Facebook take no HTTP Basic). */
  async #postTokenRequest(tokenEndpoint: string, code: string, codeVerifier: string | null): Promise<OAuth2Tokens> {
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.#redirectUri,
      client_id: this.#config.clientId,
      client_secret: this.#config.apple ? await appleClientSecret(this.#config.clientId, this.#config.apple) : this.#config.clientSecret!,
    });
    if (codeVerifier) body.set('code_verifier', codeVerifier);
    const response = await fetch(tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
    const json: unknown = await response.json().catch(() => null);
    const tokens = TokenAnswer.safeParse(json);
    if (!response.ok || !tokens.success) {
      throw new ProviderRefusal(`${this.platform} token endpoint answered ${response.status} ${TokenError.safeParse(json).data?.error ?? ''}`.trim());
    }
    return new OAuth2Tokens(tokens.data);
  }

  async #verifiedIdToken(endpoints: Endpoints, tokens: OAuth2Tokens, nonce: string): Promise<ProviderProfile> {
    let idToken: string;
    try {
      idToken = tokens.idToken();
    } catch (cause) {
      throw new ProviderRefusal(`${this.platform} sent no ID token`, { cause });
    }
    this.#jwks ??= createRemoteJWKSet(new URL(endpoints.jwks!), { timeoutDuration: PROVIDER_TIMEOUT_MS });
    const { payload } = await jwtVerify(idToken, this.#jwks, {
      issuer: endpoints.issuers,
      audience: this.#config.clientId,
      algorithms: ['RS256', 'ES256'],
      requiredClaims: ['sub', 'exp', 'iat'],
      clockTolerance: 60,
    }).catch((cause: unknown) => {
      throw new ProviderRefusal(`${this.platform} ID token refused: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    });
    if (payload.nonce !== nonce) throw new ProviderRefusal(`${this.platform} ID token has another nonce`);
    const parsed = IdTokenClaims.safeParse(payload);
    if (!parsed.success) throw new ProviderRefusal(`${this.platform} ID token has no subject`);
    const claims = parsed.data;
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    return { id: claims.sub, name: claims.name, email: verified ? claims.email : null };
  }

  /** The provider's endpoints, or those of the issuer configured in its place (read once from its discovery document). */
  #resolveEndpoints(): Promise<Endpoints> {
    if (!this.#config.issuerUrl) return Promise.resolve(this.#spec.endpoints);
    this.#endpoints ??= discover(this.#config.issuerUrl, this.#spec).catch((cause: unknown) => {
      this.#endpoints = null;
      throw new ProviderRefusal(`${this.platform} issuer ${this.#config.issuerUrl} could not be read`, { cause });
    });
    return this.#endpoints;
  }
}

async function discover(issuerUrl: string, spec: ProviderSpec): Promise<Endpoints> {
  const response = await fetch(`${issuerUrl.replace(/\/+$/, '')}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`discovery answered ${response.status}`);
  const parsed = DiscoveryDocument.safeParse(await response.json());
  if (!parsed.success) throw new Error('discovery document lacks issuer or endpoints');
  const doc = parsed.data;
  // OpenID Connect Discovery 1.0, section 4.3: the document must name the issuer it was read from,
  // or a document served elsewhere could name endpoints and keys of its choosing. Trailing slashes aside.
  if (doc.issuer.replace(/\/+$/, '') !== issuerUrl.replace(/\/+$/, '')) throw new Error(`discovery document names another issuer, ${doc.issuer}`);
  return {
    authorization: doc.authorization_endpoint,
    token: doc.token_endpoint,
    profile: spec.idToken ? null : (doc.userinfo_endpoint ?? null),
    jwks: doc.jwks_uri ?? null,
    issuers: [doc.issuer],
  };
}

/**
 * Apple's client secret: a JWT signed with the team's private key (ES256), issued by the team to
 * Apple for this client id, valid for 5 minutes (Apple allows up to 6 months; short is safer).
 */
export async function appleClientSecret(clientId: string, apple: NonNullable<OAuthProviderConfig['apple']>): Promise<string> {
  const key = await importPKCS8(apple.privateKey, 'ES256');
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: apple.keyId })
    .setIssuer(apple.teamId)
    .setSubject(clientId)
    .setAudience('https://appleid.apple.com')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key);
}

/** The name Apple sends in the callback's `user` field, only on the first sign-in. */
function appleUserName(user: string | undefined): string | null {
  if (!user) return null;
  try {
    const parsed = AppleUser.safeParse(JSON.parse(user)).data;
    const name = [parsed?.name?.firstName, parsed?.name?.lastName].filter(Boolean).join(' ');
    return name || null;
  } catch {
    return null;
  }
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}
