import type { Kysely } from 'kysely';
import type { Database, GameCredentialKind } from '#server/db/schema.ts';

export interface CredentialRow {
  app_id: number;
  kind: GameCredentialKind;
  sealed: string;
  created_at: string;
  previous_sealed: string | null;
  previous_expires_at: string | null;
}

/** Games' own secrets, sealed (decision 110), and the check of which APP_SECRET sealed them. */
export class GameSecretsRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async credential(appId: number, kind: GameCredentialKind): Promise<CredentialRow | undefined> {
    return this.#db.selectFrom('game_credentials').selectAll().where('app_id', '=', appId).where('kind', '=', kind).executeTakeFirst();
  }

  async credentials(): Promise<CredentialRow[]> {
    return this.#db.selectFrom('game_credentials').selectAll().orderBy('app_id').orderBy('kind').execute();
  }

  /**
   * Makes `sealed` the current secret; the one it replaces becomes the previous one until
   * `previousExpiresAt`. One statement, so two rotations at once each keep a real predecessor.
   */
  async rotate(appId: number, kind: GameCredentialKind, sealed: string, now: string, previousExpiresAt: string): Promise<CredentialRow> {
    return this.#db
      .insertInto('game_credentials')
      .values({ app_id: appId, kind, sealed, created_at: now, previous_sealed: null, previous_expires_at: null })
      .onConflict((oc) =>
        oc.columns(['app_id', 'kind']).doUpdateSet((eb) => ({
          previous_sealed: eb.ref('game_credentials.sealed'),
          previous_expires_at: previousExpiresAt,
          sealed,
          created_at: now,
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Stores a secret for a game that has none of this kind yet (false when it has one). */
  async insertIfAbsent(row: CredentialRow): Promise<boolean> {
    const inserted = await this.#db
      .insertInto('game_credentials')
      .values(row)
      .onConflict((oc) => oc.columns(['app_id', 'kind']).doNothing())
      .returning('app_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** Replaces a sealed value by the same secret sealed again, unless it changed meanwhile (a rotation). */
  async reseal(appId: number, kind: GameCredentialKind, column: 'sealed' | 'previous_sealed', from: string, to: string): Promise<void> {
    await this.#db
      .updateTable('game_credentials')
      .set({ [column]: to })
      .where('app_id', '=', appId)
      .where('kind', '=', kind)
      .where(column, '=', from)
      .execute();
  }

  /** Games with a backend secret derived from APP_SECRET (a generation) and no stored one yet. */
  async derivedBackendGenerations(): Promise<{ app_id: number; generation: number; created_at: string }[]> {
    return this.#db
      .selectFrom('game_secrets')
      .leftJoin('game_credentials', (join) => join.onRef('game_credentials.app_id', '=', 'game_secrets.app_id').on('game_credentials.kind', '=', 'backend'))
      .select(['game_secrets.app_id', 'game_secrets.generation', 'game_secrets.created_at'])
      .where('game_credentials.app_id', 'is', null)
      .execute();
  }

  /** Games with a webhook secret derived from APP_SECRET and no stored one yet. */
  async derivedWebhookGenerations(): Promise<{ app_id: number; generation: number; created_at: string }[]> {
    return (
      this.#db
        .selectFrom('game_webhooks')
        .leftJoin('game_credentials', (join) => join.onRef('game_credentials.app_id', '=', 'game_webhooks.app_id').on('game_credentials.kind', '=', 'webhook'))
        .select(['game_webhooks.app_id', 'game_webhooks.secret_generation as generation', 'game_webhooks.updated_at as created_at'])
        // 0: a webhook set since decision 110, whose secret was stored when it was made.
        .where('game_webhooks.secret_generation', '>', 0)
        .where('game_credentials.app_id', 'is', null)
        .execute()
    );
  }

  async keyCheck(name: string): Promise<string | undefined> {
    return (await this.#db.selectFrom('secret_key_checks').select('sealed').where('name', '=', name).executeTakeFirst())?.sealed;
  }

  /** Records the key check; with `replacing`, only while it is still that value. */
  async saveKeyCheck(name: string, sealed: string, now: string, replacing?: string): Promise<void> {
    if (replacing === undefined) {
      await this.#db
        .insertInto('secret_key_checks')
        .values({ name, sealed, updated_at: now })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      return;
    }
    await this.#db.updateTable('secret_key_checks').set({ sealed, updated_at: now }).where('name', '=', name).where('sealed', '=', replacing).execute();
  }
}
