import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DatabaseHandle, openDatabase } from '../../server/db/client.ts';

/**
 * The end-to-end run's own database (playwright.config.ts: a SQLite file, or the run's schema on
 * PostgreSQL), for a journey that must set up what no page offers yet. Close it when done.
 */
export function openRunDatabase(): Promise<DatabaseHandle> {
  const runId = process.env.E2E_RUN_ID;
  if (!runId) throw new Error('E2E_RUN_ID is not set: run through playwright.config.ts');
  const url = process.env.DATABASE_URL;
  return url?.startsWith('postgres')
    ? openDatabase(url, { poolSize: 1, schema: `e2e_${runId}` })
    : openDatabase(`file:${join(tmpdir(), `playport-e2e-${runId}.sqlite`)}`);
}

/**
 * A catalogue game given to `developerUserId`, who gets the studio `studio` first: the newest game
 * no developer has. Creating a game in the Studio is its own journey; this is for journeys that
 * start with a game. Returns the game's id.
 */
export async function giveCatalogueGameToNewStudio(developerUserId: number, studio: { name: string; contactEmail: string }): Promise<number> {
  const database = await openRunDatabase();
  try {
    const now = new Date().toISOString();
    await database.db
      .insertInto('developer_profiles')
      .values({ user_id: developerUserId, studio_name: studio.name, contact_email: studio.contactEmail, created_at: now, updated_at: now })
      .execute();
    const game = await database.db
      .selectFrom('apps')
      .select('id')
      .where('type', '=', 'game')
      .where('developer_user_id', 'is', null)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await database.db.updateTable('apps').set({ developer_user_id: developerUserId }).where('id', '=', game.id).execute();
    return game.id;
  } finally {
    await database.close();
  }
}
