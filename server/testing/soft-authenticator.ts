import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A software passkey authenticator for server tests: it makes the same WebAuthn answers a
 * browser returns (ES256 keys, "none" attestation, discoverable credentials) and can be told to
 * lie (another origin, another relying party, a counter that goes backwards, another user handle).
 * The browser journeys use Chromium's own virtual authenticator instead.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  readonly #privateKey: KeyObject;
  readonly #publicKey: KeyObject;
  /** The signature counter; 0 would mean "does not count", so it starts at 1. */
  counter = 1;
  userHandle: string | null = null;

  readonly aaguid: Buffer;

  constructor(aaguid = Buffer.alloc(16)) {
    this.aaguid = aaguid;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#privateKey = privateKey;
    this.#publicKey = publicKey;
  }

  get id(): string {
    return this.credentialId.toString('base64url');
  }

  /** The answer to navigator.credentials.create() for these options (their `data.data`). */
  create(options: CreationOptions, lie: { origin?: string; rpId?: string } = {}) {
    this.userHandle = options.user.id;
    const jwk = this.#publicKey.export({ format: 'jwk' });
    const coseKey = cbor(
      new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const attested = Buffer.concat([this.aaguid, u16(this.credentialId.length), this.credentialId, coseKey]);
    const authData = Buffer.concat([rpIdHash(lie.rpId ?? options.rp.id), Buffer.from([0x01 | 0x04 | 0x40]), u32(this.counter), attested]);
    const clientData = clientDataJSON('webauthn.create', options.challenge, lie.origin ?? ORIGIN);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        attestationObject: attestationObject.toString('base64url'),
        clientDataJSON: clientData.toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** The answer to navigator.credentials.get() for these options; each call counts up unless told a counter. */
  get(options: RequestOptions, lie: { origin?: string; rpId?: string; counter?: number; userHandle?: string | null } = {}) {
    this.counter = lie.counter ?? this.counter + 1;
    const authData = Buffer.concat([rpIdHash(lie.rpId ?? options.rpId), Buffer.from([0x01 | 0x04]), u32(this.counter)]);
    const clientData = clientDataJSON('webauthn.get', options.challenge, lie.origin ?? ORIGIN);
    const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientData).digest()]), this.#privateKey);
    const userHandle = lie.userHandle === undefined ? this.userHandle : lie.userHandle;
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        authenticatorData: authData.toString('base64url'),
        clientDataJSON: clientData.toString('base64url'),
        signature: signature.toString('base64url'),
        ...(userHandle ? { userHandle } : {}),
      },
      clientExtensionResults: {},
    };
  }
}

/** The origin the test API accepts by default (PUBLIC_ORIGIN's default). */
export const ORIGIN = 'http://localhost:3000';

export interface CreationOptions {
  challenge: string;
  rp: { id: string; name: string };
  user: { id: string; name: string; displayName: string };
  pubKeyCredParams: Array<{ alg: number; type: string }>;
  excludeCredentials?: Array<{ id: string }>;
  authenticatorSelection?: { residentKey?: string; userVerification?: string };
}

export interface RequestOptions {
  challenge: string;
  rpId: string;
  allowCredentials?: Array<{ id: string }>;
  userVerification?: string;
}

function clientDataJSON(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

function rpIdHash(rpId: string): Buffer {
  return createHash('sha256').update(rpId).digest();
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

/** A CBOR item head: the major type and the length or value. */
function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.concat([Buffer.from([(major << 5) | 25]), u16(n)]);
  return Buffer.concat([Buffer.from([(major << 5) | 26]), u32(n)]);
}

/** Just enough CBOR (RFC 8949) for attestation objects and COSE keys: integers, strings, bytes, maps. */
function cbor(value: unknown): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  throw new Error(`cannot encode ${typeof value}`);
}
