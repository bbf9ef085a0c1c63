import { type Kysely, sql } from 'kysely';
import { type Migration, type MigrationProvider, type MigrationResult, Migrator } from 'kysely/migration';
import type { DatabaseKind } from './client.ts';
import { foundation } from './migrations/0001-foundation.ts';
import { catalogueSearch } from './migrations/0002-catalogue-search.ts';
import { articleTranslationAuthors } from './migrations/0003-article-translation-authors.ts';
import { deviceNetwork } from './migrations/0004-device-network.ts';
import { passkeys } from './migrations/0005-passkeys.ts';
import { gameStore } from './migrations/0006-game-store.ts';
import { acquisition } from './migrations/0007-acquisition.ts';
import { deviceRecordedAt } from './migrations/0008-device-recorded-at.ts';
import { deviceId } from './migrations/0009-device-id.ts';
import { saveTotals } from './migrations/0010-save-totals.ts';
import { challengeAttempts } from './migrations/0011-challenge-attempts.ts';
import { gameBackends } from './migrations/0012-game-backends.ts';
import { itemKindsInventory } from './migrations/0013-item-kinds-inventory.ts';
import { leaderboardsAchievements } from './migrations/0014-leaderboards-achievements.ts';
import { gameSessions } from './migrations/0015-game-sessions.ts';
import { platformRoles } from './migrations/0016-platform-roles.ts';
import { studioGames } from './migrations/0017-studio-games.ts';
import { gameBuilds } from './migrations/0018-game-builds.ts';
import { consoleOperations } from './migrations/0019-console-operations.ts';
import { consoleContent } from './migrations/0020-console-content.ts';
import { gameWebhooks } from './migrations/0021-game-webhooks.ts';
import { studioStats } from './migrations/0022-studio-stats.ts';
import { studioKeys } from './migrations/0023-studio-keys.ts';
import { consoleListingAndPageSchedule } from './migrations/0024-console-listing-and-page-schedule.ts';
import { gameStatsRollup } from './migrations/0025-game-stats-rollup.ts';
import { firstGames } from './migrations/0026-first-games.ts';
import { previewOrders } from './migrations/0027-preview-orders.ts';
import { storedGameSecrets } from './migrations/0028-stored-game-secrets.ts';
import { testMode } from './migrations/0029-test-mode.ts';
import { gameChanges } from './migrations/0030-game-changes.ts';
import { buildUploads } from './migrations/0031-build-uploads.ts';
import { orderRefunds } from './migrations/0032-order-refunds.ts';
import { socialChallenges } from './migrations/0033-social-challenges.ts';
import { mailOutbox } from './migrations/0034-mail-outbox.ts';
import { dataExports } from './migrations/0036-data-exports.ts';
import { twoFactor } from './migrations/0037-two-factor.ts';
import { verifiedEmail } from './migrations/0038-verified-email.ts';
import { accountDeletion } from './migrations/0039-account-deletion.ts';
import { earnings } from './migrations/0040-earnings.ts';
import { earningsCoveringIndexes } from './migrations/0041-earnings-covering-indexes.ts';
import type { Database } from './schema.ts';

/** Every migration, in order. Names are versions: never rename or edit a released one. */
function migrations(kind: DatabaseKind): Record<string, Migration> {
  return {
    '0001-foundation': foundation(kind),
    '0002-catalogue-search': catalogueSearch(kind),
    '0003-article-translation-authors': articleTranslationAuthors(),
    '0004-device-network': deviceNetwork(),
    '0005-passkeys': passkeys(),
    '0006-game-store': gameStore(kind),
    '0007-acquisition': acquisition(),
    '0008-device-recorded-at': deviceRecordedAt(),
    '0009-device-id': deviceId(),
    '0010-save-totals': saveTotals(),
    '0011-challenge-attempts': challengeAttempts(),
    '0012-game-backends': gameBackends(),
    '0013-item-kinds-inventory': itemKindsInventory(kind),
    '0014-leaderboards-achievements': leaderboardsAchievements(),
    '0015-game-sessions': gameSessions(kind),
    '0016-platform-roles': platformRoles(kind),
    '0017-studio-games': studioGames(),
    '0018-game-builds': gameBuilds(kind),
    '0019-console-operations': consoleOperations(kind),
    '0020-console-content': consoleContent(),
    '0021-game-webhooks': gameWebhooks(kind),
    '0022-studio-stats': studioStats(),
    '0023-studio-keys': studioKeys(kind),
    '0024-console-listing-and-page-schedule': consoleListingAndPageSchedule(),
    '0025-game-stats-rollup': gameStatsRollup(kind),
    '0026-first-games': firstGames(kind),
    '0027-preview-orders': previewOrders(),
    '0028-stored-game-secrets': storedGameSecrets(),
    '0029-test-mode': testMode(),
    '0030-game-changes': gameChanges(kind),
    '0031-build-uploads': buildUploads(),
    '0032-order-refunds': orderRefunds(),
    '0033-social-challenges': socialChallenges(),
    '0034-mail-outbox': mailOutbox(kind),
    '0036-data-exports': dataExports(),
    '0037-two-factor': twoFactor(),
    '0038-verified-email': verifiedEmail(),
    '0039-account-deletion': accountDeletion(),
    '0040-earnings': earnings(kind),
    '0041-earnings-covering-indexes': earningsCoveringIndexes(kind),
  };
}

class StaticMigrationProvider implements MigrationProvider {
  readonly kind: DatabaseKind;
  constructor(kind: DatabaseKind) {
    this.kind = kind;
  }
  async getMigrations() {
    return migrations(this.kind);
  }
}

/**
 * On PostgreSQL the migration tables are named with the connection's own schema. Without it,
 * Kysely looks for its lock table in every schema, finds another one's (a parallel test run, a
 * second deployment in the same database) and then fails to read it from its own.
 */
async function migrationTableSchema(db: Kysely<Database>, kind: DatabaseKind): Promise<{ migrationTableSchema?: string }> {
  if (kind !== 'postgres') return {};
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ? { migrationTableSchema: rows[0].schema } : {};
}

class MigrationError extends Error {
  override name = 'MigrationError';
}

/**
 * Runs `work` while no other process runs start-up work on the same PostgreSQL schema: a session
 * advisory lock held by one connection, which `work` is given (so a pool of one does not wait on
 * itself). On SQLite, which has one writer, `work` runs as it is.
 */
export async function whileHoldingStartupLock<T>(db: Kysely<Database>, kind: DatabaseKind, work: (locked: Kysely<Database>) => Promise<T>): Promise<T> {
  if (kind !== 'postgres') return work(db);
  return db.connection().execute(async (connection) => {
    const key = sql`hashtext('playport:startup:' || current_schema())`;
    await sql`select pg_advisory_lock(${key})`.execute(connection);
    try {
      return await work(connection);
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(connection);
    }
  });
}

/**
 * Brings the database to the latest version; safe to run from several instances at once: on
 * PostgreSQL one applies the migrations under an advisory lock while the others wait, then find
 * nothing to do (creating Kysely's own tables and lock row raced without it).
 */
export async function migrateToLatest(db: Kysely<Database>, kind: DatabaseKind): Promise<MigrationResult[]> {
  return whileHoldingStartupLock(db, kind, async (locked) => {
    const migrator = new Migrator({ db: locked, provider: new StaticMigrationProvider(kind), ...(await migrationTableSchema(locked, kind)) });
    const { error, results = [] } = await migrator.migrateToLatest();
    if (error) throw new MigrationError(`migration failed: ${String(error)}`, { cause: error });
    return results;
  });
}

/** Reverts every migration (tests use it to prove `down` works). */
export async function migrateDownAll(db: Kysely<Database>, kind: DatabaseKind): Promise<void> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider(kind), ...(await migrationTableSchema(db, kind)) });
  for (;;) {
    const { error, results = [] } = await migrator.migrateDown();
    if (error) throw new MigrationError(`migration down failed: ${String(error)}`, { cause: error });
    if (results.length === 0) return;
  }
}
