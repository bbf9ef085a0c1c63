import { createHmac, randomBytes } from 'node:crypto';
import type { GameCredentialKind } from '#server/db/schema.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { SecretBox } from '#server/lib/secret-box.ts';
import type { CredentialRow, GameSecretsRepository } from './game-secrets.repository.ts';

/** How long a replaced game secret keeps verifying (and webhooks keep carrying its signature): time to deploy the new one. */
export const SECRET_OVERLAP_SECONDS = 24 * 60 * 60;

const PREFIX: Record<GameCredentialKind, string> = { backend: 'pps_', webhook: 'whsec_' };
const KEY_CHECK = 'game-secrets';
const KEY_CHECK_TEXT = 'playport game secrets';

/** What the Studio shows of a secret: never the secret, only when it was made and until when the one before still works. */
export interface SecretStatus {
  createdAt: string;
  /** Until when the replaced secret still verifies; null when there is none (or it expired). */
  previousExpiresAt: string | null;
}

/** Which APP_SECRET sealed the stored secrets, as this process sees it (`npm run content -- game-secret` asks). */
export type KeyInUse = 'current' | 'previous' | 'other' | 'none';

/**
 * The secret a game had before decision 110, derived from APP_SECRET, the game and a generation;
 * computed only to store it once (`adoptDerived`), so integrations built on it keep working.
 */
export function derivedSecret(appSecret: string, kind: GameCredentialKind, appId: number, generation: number): string {
  const label = kind === 'backend' ? 'playport-game-secret' : 'playport-webhook-secret';
  return `${PREFIX[kind]}${createHmac('sha256', appSecret).update(`${label}:${appId}:${generation}`).digest('base64url')}`;
}

/**
 * Each game's own secrets (decision 110): the backend secret its server signs calls with, and the
 * webhook secret the portal signs webhooks with. Random, stored sealed under APP_SECRET (readable
 * with APP_SECRET_PREVIOUS after a rotation, and sealed again under the new key when read), made
 * and rotated by the studio; a replaced one keeps verifying for `SECRET_OVERLAP_SECONDS`.
 */
export class GameSecretsService {
  readonly #repository: GameSecretsRepository;
  readonly #clock: Clock;
  readonly #box: SecretBox;
  readonly #appSecret: string;
  readonly #previousSecrets: readonly string[];

  constructor(deps: { repository: GameSecretsRepository; clock: Clock; appSecret: string; previousSecrets: readonly string[] }) {
    this.#repository = deps.repository;
    this.#clock = deps.clock;
    this.#appSecret = deps.appSecret;
    this.#previousSecrets = deps.previousSecrets;
    this.#box = new SecretBox(deps.appSecret, deps.previousSecrets, 'game-secrets');
  }

  /** The secrets that verify now, the current one first: during an overlap, the previous one too. Empty when none was made. */
  async verifying(appId: number, kind: GameCredentialKind): Promise<string[]> {
    const row = await this.#repository.credential(appId, kind);
    if (!row) return [];
    const secrets = [await this.#open(row, 'sealed')];
    if (row.previous_sealed && row.previous_expires_at && row.previous_expires_at > isoNow(this.#clock)) secrets.push(await this.#open(row, 'previous_sealed'));
    return secrets.filter((secret): secret is string => secret !== null);
  }

  /** When the game's secret of this kind was made and until when the one before verifies; null when it has none. */
  async status(appId: number, kind: GameCredentialKind): Promise<SecretStatus | null> {
    const row = await this.#repository.credential(appId, kind);
    if (!row) return null;
    const live = row.previous_sealed !== null && row.previous_expires_at !== null && row.previous_expires_at > isoNow(this.#clock);
    return { createdAt: row.created_at, previousExpiresAt: live ? row.previous_expires_at : null };
  }

  /**
   * Makes a new random secret of this kind and answers it, to be shown once. The one it replaces
   * keeps verifying until `previousExpiresAt` (null for the game's first secret).
   */
  async rotate(appId: number, kind: GameCredentialKind): Promise<{ secret: string; previousExpiresAt: string | null }> {
    const secret = `${PREFIX[kind]}${randomBytes(32).toString('base64url')}`;
    const now = this.#clock.now();
    const expires = new Date(now.getTime() + SECRET_OVERLAP_SECONDS * 1000).toISOString();
    const row = await this.#repository.rotate(appId, kind, this.#box.seal(secret, contextOf(appId, kind)), now.toISOString(), expires);
    return { secret, previousExpiresAt: row.previous_sealed === null ? null : row.previous_expires_at };
  }

  /** A secret for a game that has none of this kind yet (its first); the existing one when it has. */
  async ensure(appId: number, kind: GameCredentialKind): Promise<string | null> {
    const secret = `${PREFIX[kind]}${randomBytes(32).toString('base64url')}`;
    const stored = await this.#repository.insertIfAbsent({
      app_id: appId,
      kind,
      sealed: this.#box.seal(secret, contextOf(appId, kind)),
      created_at: isoNow(this.#clock),
      previous_sealed: null,
      previous_expires_at: null,
    });
    return stored ? secret : null;
  }

  /**
   * Start-up work of every server process, before it answers (decision 110): stores the secrets
   * that were derived from APP_SECRET until migration 0028 (so integrations built on them keep
   * working), seals again under the current key what a previous APP_SECRET sealed, and records
   * which key that is. Answers what it did, for the log; `keyInUse: 'other'` means this APP_SECRET
   * opens none of the stored secrets (APP_SECRET_PREVIOUS missing after a rotation).
   */
  async prepare(): Promise<{ adopted: number; resealed: number; keyInUse: KeyInUse }> {
    const adopted = await this.#adoptDerived();
    let resealed = 0;
    for (const row of await this.#repository.credentials()) {
      for (const column of ['sealed', 'previous_sealed'] as const) {
        const value = row[column];
        if (value !== null && this.#box.open(value, contextOf(row.app_id, row.kind))?.stale) {
          await this.#open(row, column);
          resealed += 1;
        }
      }
    }
    const now = isoNow(this.#clock);
    const check = await this.#repository.keyCheck(KEY_CHECK);
    if (check === undefined) await this.#repository.saveKeyCheck(KEY_CHECK, this.#box.seal(KEY_CHECK_TEXT, KEY_CHECK), now);
    else if (this.#box.open(check, KEY_CHECK)?.stale) await this.#repository.saveKeyCheck(KEY_CHECK, this.#box.seal(KEY_CHECK_TEXT, KEY_CHECK), now, check);
    return { adopted, resealed, keyInUse: await this.keyInUse() };
  }

  /** Whether the stored secrets were sealed under this process's APP_SECRET ('none': no server has recorded its key here yet). */
  async keyInUse(): Promise<KeyInUse> {
    const check = await this.#repository.keyCheck(KEY_CHECK);
    if (check === undefined) return 'none';
    const opened = this.#box.open(check, KEY_CHECK);
    return opened === null ? 'other' : opened.stale ? 'previous' : 'current';
  }

  async #adoptDerived(): Promise<number> {
    const now = this.#clock.now();
    const overlapEnd = new Date(now.getTime() + SECRET_OVERLAP_SECONDS * 1000).toISOString();
    let adopted = 0;
    for (const [kind, rows] of [
      ['backend', await this.#repository.derivedBackendGenerations()],
      ['webhook', await this.#repository.derivedWebhookGenerations()],
    ] as const) {
      for (const row of rows) {
        const context = contextOf(row.app_id, kind);
        // Upgraded in the same step as an APP_SECRET rotation: the secret derived from the one before verifies for the overlap too.
        const before = this.#previousSecrets[0];
        const stored = await this.#repository.insertIfAbsent({
          app_id: row.app_id,
          kind,
          sealed: this.#box.seal(derivedSecret(this.#appSecret, kind, row.app_id, row.generation), context),
          created_at: row.created_at,
          previous_sealed: before ? this.#box.seal(derivedSecret(before, kind, row.app_id, row.generation), context) : null,
          previous_expires_at: before ? overlapEnd : null,
        });
        if (stored) adopted += 1;
      }
    }
    return adopted;
  }

  /** Opens one sealed value of a row; sealed under a previous APP_SECRET, it is sealed again under the current one. */
  async #open(row: CredentialRow, column: 'sealed' | 'previous_sealed'): Promise<string | null> {
    const value = row[column];
    if (value === null) return null;
    const context = contextOf(row.app_id, row.kind);
    const opened = this.#box.open(value, context);
    if (!opened) return null;
    if (opened.stale) await this.#repository.reseal(row.app_id, row.kind, column, value, this.#box.seal(opened.plain, context));
    return opened.plain;
  }
}

const contextOf = (appId: number, kind: GameCredentialKind) => `${appId}:${kind}`;
