import { createHash, createPrivateKey, createPublicKey, hkdfSync, type KeyObject, randomBytes } from 'node:crypto';
import { createLocalJWKSet, type JWK, jwtVerify, SignJWT } from 'jose';

/** A game token lives long enough for the game's backend to check it after the game starts. */
export const GAME_TOKEN_TTL_SECONDS = 10 * 60;

/** The DER prefix of an Ed25519 private key in PKCS #8 (RFC 8410): 16 fixed bytes, then the 32-byte seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface GameTokenClaims {
  userId: number;
  appId: number;
  nickname: string | null;
  isGuest: boolean;
}

/**
 * Tokens a game's own backend can verify offline (decision 064): EdDSA (Ed25519) JWTs whose public
 * key is published as a JWKS. The key is derived from APP_SECRET, so every instance signs with the
 * same key and nothing is stored; changing APP_SECRET changes the key (its `kid` too). The keys of
 * `previousSecrets` (APP_SECRET_PREVIOUS, after a rotation) stay in the published set, never used to
 * sign: tokens issued before the rotation verify until they expire (docs/sdk/login.md).
 */
export class GameTokens {
  readonly #privateKey: KeyObject;
  readonly #jwk: JWK;
  readonly #issuer: string;

  readonly #previous: JWK[];

  constructor(appSecret: string, issuer: string, previousSecrets: readonly string[] = []) {
    this.#privateKey = signingKey(appSecret);
    this.#jwk = publicJwkOf(this.#privateKey);
    this.#previous = previousSecrets.map((secret) => publicJwkOf(signingKey(secret))).filter((jwk) => jwk.kid !== this.#jwk.kid);
    this.#issuer = issuer;
  }

  /** The published keys (the JWKS document): the signing key first, then those kept after a rotation. */
  jwks(): { keys: JWK[] } {
    return { keys: [this.#jwk, ...this.#previous] };
  }

  async issue(claims: GameTokenClaims, now: Date): Promise<{ token: string; expiresAt: string }> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    const token = await new SignJWT({ nickname: claims.nickname, guest: claims.isGuest })
      .setProtectedHeader({ alg: 'EdDSA', kid: this.#jwk.kid!, typ: 'JWT' })
      .setIssuer(this.#issuer)
      .setAudience(`app:${claims.appId}`)
      .setSubject(String(claims.userId))
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + GAME_TOKEN_TTL_SECONDS)
      .setJti(randomBytes(12).toString('base64url'))
      .sign(this.#privateKey);
    return { token, expiresAt: new Date((issuedAt + GAME_TOKEN_TTL_SECONDS) * 1000).toISOString() };
  }

  /** What a game's backend does with the published keys (used by tests and the guide's example). */
  static async verify(token: string, jwks: { keys: JWK[] }, expected: { issuer: string; appId: number }) {
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: expected.issuer, audience: `app:${expected.appId}`, algorithms: ['EdDSA'] });
    return payload;
  }
}

function signingKey(appSecret: string): KeyObject {
  const seed = Buffer.from(hkdfSync('sha256', appSecret, 'playport', 'game-token-signing-key', 32));
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

function publicJwkOf(privateKey: KeyObject): JWK {
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' }) as JWK;
  const kid = createHash('sha256').update(publicJwk.x!).digest('base64url').slice(0, 16);
  return { ...publicJwk, kid, alg: 'EdDSA', use: 'sig' };
}
