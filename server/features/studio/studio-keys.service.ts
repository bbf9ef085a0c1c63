import { STUDIO_KEYS_MAX, type StudioKey } from '#common/api/studio-keys.schema.ts';
import { AppError, refusal } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { randomAlphanumeric, safeEqual, sha256Hex } from '#server/lib/random.ts';
import type { DevelopersService } from './developers.service.ts';
import type { StudioKeyRow, StudioKeysRepository } from './studio-keys.repository.ts';

const SECRET_LENGTH = 40;
const KEY_PATTERN = /^pk_(\d{1,15})_([A-Za-z0-9]{40})$/;
/** Writing last_used_at on every call of an upload would make each piece a write; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;

/** Whether a bearer value is meant as a Studio key: such a value is never tried as a session token. */
export function isStudioKey(value: string): boolean {
  return value.startsWith('pk_');
}

/**
 * Developers' Studio keys for build pipelines (decision 102): made in the Studio and shown once,
 * stored as a SHA-256, revoked at once. A key stands for its developer on the calls that accept one
 * (the build calls of their own games) and nowhere else: the API's hook decides that by the route.
 */
export class StudioKeysService {
  readonly #repository: StudioKeysRepository;
  readonly #developers: DevelopersService;
  readonly #clock: Clock;
  constructor(repository: StudioKeysRepository, developers: DevelopersService, clock: Clock) {
    this.#repository = repository;
    this.#developers = developers;
    this.#clock = clock;
  }

  async list(caller: Caller | null): Promise<{ keys: StudioKey[]; max: number }> {
    const userId = await this.#developers.requireDeveloper(caller);
    const rows = await this.#repository.listForUser(userId);
    return { keys: rows.map(toKey), max: STUDIO_KEYS_MAX };
  }

  /** A new key: its whole value is in this answer only. 409 when the developer holds the most keys already. */
  async create(caller: Caller | null, name: string): Promise<StudioKey & { key: string }> {
    const userId = await this.#developers.requireDeveloper(caller);
    const secret = randomAlphanumeric(SECRET_LENGTH);
    const createdAt = isoNow(this.#clock);
    const id = await this.#repository.insert({ userId, name, keyHash: sha256Hex(secret), createdAt });
    // Counted after the insert, up to this key: of two creations at once past the cap, neither stays.
    if ((await this.#repository.countUpTo(userId, id)) > STUDIO_KEYS_MAX) {
      await this.#repository.delete(userId, id);
      throw refusal('studio_keys_limit', { values: { max: STUDIO_KEYS_MAX } });
    }
    return { ...toKey({ id, name, created_at: createdAt, last_used_at: null }), key: `pk_${id}_${secret}` };
  }

  /** Revokes one of the caller's keys at once (it is deleted); 404 for a key that is not theirs. */
  async revoke(caller: Caller | null, keyId: number): Promise<void> {
    const userId = await this.#developers.requireDeveloper(caller);
    if (!(await this.#repository.delete(userId, keyId))) throw new AppError('not_found');
  }

  /**
   * The developer a key stands for, or null when it is malformed, unknown, revoked, or its member
   * is disabled or no longer a developer. The caller carries the key's id, never a session's.
   */
  async verify(key: string): Promise<Caller | null> {
    const match = KEY_PATTERN.exec(key);
    if (!match) return null;
    const row = await this.#repository.findById(Number(match[1]));
    if (!row || row.disabled_at !== null || row.developer === null) return null;
    if (!safeEqual(row.key_hash, sha256Hex(match[2]!))) return null;
    const now = this.#clock.now();
    if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > TOUCH_INTERVAL_MS) {
      await this.#repository.touch(row.id, now.toISOString());
    }
    return { userId: row.user_id, tokenId: 0, studioKeyId: row.id };
  }
}

function toKey(row: Pick<StudioKeyRow, 'id' | 'name' | 'created_at' | 'last_used_at'>): StudioKey {
  return { id: row.id, name: row.name, prefix: `pk_${row.id}_`, createdAt: row.created_at, lastUsedAt: row.last_used_at };
}
