import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import yazl from 'yazl';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { TestApi } from './test-api.ts';
import type { TestPlayer, testPlayers } from './test-players.ts';

/** Who a Studio test acts as: a game's developer, another developer, a plain member, a guest and an operator. */
export interface StudioCast {
  owner: TestPlayer;
  other: TestPlayer;
  member: TestPlayer;
  guest: TestPlayer;
  operator: TestPlayer;
}

/**
 * The Studio's cast made through `players`: the owner with the studio profile `ownerStudio`, the
 * other developer with a studio of their own ("Other"), and the operator granted the Console.
 */
export async function newStudioCast(
  api: TestApi,
  players: ReturnType<typeof testPlayers>,
  ownerStudio: { studioName: string; contactEmail: string },
): Promise<StudioCast> {
  const [owner, other, member, guest, operator] = await Promise.all([
    players.newMember(),
    players.newMember(),
    players.newMember(),
    players.newGuest(),
    players.newMember(),
  ]);
  await api.services.developers.saveProfile(owner.userInfo.uid, ownerStudio);
  await api.services.developers.saveProfile(other.userInfo.uid, { studioName: 'Other', contactEmail: 'dev@other.test' });
  await api.database.db.insertInto('operators').values({ user_id: operator.userInfo.uid, granted_at: new Date().toISOString() }).execute();
  return { owner, other, member, guest, operator };
}

/**
 * A developer's game as the Studio's game creation makes one: an unpublished `apps` row with
 * `developer_user_id` set and its title in both languages, no build yet.
 */
export async function insertDeveloperGame(
  db: Kysely<Database>,
  developerUserId: number,
  fields: { slug?: string; title?: string; thumbnail?: string } = {},
): Promise<{ id: number; slug: string }> {
  const now = new Date().toISOString();
  const slug = fields.slug ?? `dev-game-${randomBytes(4).toString('hex')}`;
  const title = fields.title ?? `Game ${slug}`;
  const row = await db
    .insertInto('apps')
    .values({
      slug,
      type: 'game',
      entry_url: `/games/${slug}/index.html`,
      // The fixture catalogue's image by default; journeys on the demo catalogue pass one of its own.
      thumbnail: fields.thumbnail ?? '/games/alpha/thumbnail.png',
      screenshots: '[]',
      orientation: 'landscape',
      width: 800,
      height: 600,
      developer: null,
      featured: 0,
      play_count: 0,
      released_at: now,
      published: 0,
      developer_user_id: developerUserId,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('app_translations')
    .values([
      { app_id: row.id, locale: 'en', title, summary: `${title} in a line.`, description: `${title}, described.`, instructions: null },
      { app_id: row.id, locale: 'zh-CN', title: `${title}（中文）`, summary: `${title}。`, description: `${title}。`, instructions: null },
    ])
    .execute();
  return { id: row.id, slug };
}

/** A build already reviewed, as if uploaded and then approved or rejected (no files: for the listing and rollback). */
export async function insertReviewedBuild(
  db: Kysely<Database>,
  build: { appId: number; version: number; status: 'approved' | 'rejected'; uploadedBy: number; reviewedBy: number },
): Promise<{ id: number }> {
  const now = new Date().toISOString();
  return db
    .insertInto('game_builds')
    .values({
      app_id: build.appId,
      version: build.version,
      status: build.status,
      reason: null,
      uploaded_by: build.uploadedBy,
      reviewed_by: build.reviewedBy,
      entry_path: 'index.html',
      file_count: 1,
      total_bytes: 10,
      archive_bytes: 10,
      created_at: now,
      submitted_at: now,
      reviewed_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export interface ZipEntry {
  name: string;
  content?: string | Buffer;
  /** Unix mode, with the file type bits (0o120777 for a link). */
  mode?: number;
  /** Stored without compression. */
  store?: boolean;
}

/** Writes `entries` under `folder` as the files of a build on a developer's disk; returns `folder`. */
export function writeBuildFolder(folder: string, entries: ZipEntry[]): string {
  for (const entry of entries) {
    mkdirSync(dirname(join(folder, entry.name)), { recursive: true });
    writeFileSync(join(folder, entry.name), entry.content ?? '');
  }
  return folder;
}

/** A zip made in memory, as a developer's tools make one. */
export async function makeZip(entries: ZipEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    zip.addBuffer(Buffer.isBuffer(entry.content) ? entry.content : Buffer.from(entry.content ?? ''), entry.name, {
      ...(entry.mode === undefined ? {} : { mode: entry.mode }),
      compress: !entry.store,
      mtime: new Date(0),
    });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A small game that loads the SDK, as a build's zip. */
export function sdkGameEntries(label = 'Preview me'): ZipEntry[] {
  return [
    {
      name: 'index.html',
      content: `<!doctype html><html><head><meta charset="utf-8"><title>${label}</title><script src="/sdk/v1/playport.js"></script></head><body><h1 id="label">${label}</h1><script src="game.js"></script></body></html>`,
    },
    { name: 'game.js', content: `document.getElementById('label').dataset.ready = 'yes';` },
    { name: 'Build/game.wasm', content: Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]) },
  ];
}
