import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '#server/lib/clock.ts';
import { insertDeveloperGame } from '#server/testing/developer-games.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { testPlayers } from '#server/testing/test-players.ts';

/*
 * Unfinished build uploads (decision 109): a studio's open uploads and daily bytes are capped when
 * an upload is created, and uploads that stop receiving pieces are removed by the scheduled clean-up.
 */

const buildsDir = mkdtempSync(join(tmpdir(), 'playport-build-uploads-'));
const uploadDir = mkdtempSync(join(tmpdir(), 'playport-build-uploads-media-'));
const incoming = join(buildsDir, '.incoming');
const MB = 1024 * 1024;
const HOUR = 60 * 60 * 1000;

/** Real time moved forward by `offset`: uploads' files keep real times, the service sees the moved ones. */
const shifted = { offset: 0 };
const clock: Clock = { now: () => new Date(Date.now() + shifted.offset) };

/** An upload's id, the last segment of its address. */
const idOf = (location: string) => location.split('/').at(-1)!;

interface Studio {
  token: string;
  userId: number;
  appId: number;
}

/** The bytes kept under the incoming folder, and its upload files' names (of these games' uploads only, when given). */
function incomingUse(appIds?: number[]): { bytes: number; names: string[] } {
  if (!existsSync(incoming)) return { bytes: 0, names: [] };
  const names = readdirSync(incoming).filter((name) => !name.startsWith('.') && (!appIds || appIds.some((id) => name.startsWith(`${id}-`))));
  return { bytes: names.reduce((total, name) => total + statSync(join(incoming, name)).size, 0), names: names.sort() };
}

describe('unfinished build uploads (decision 109)', () => {
  let api: TestApi;
  const players = testPlayers(() => api, 109);

  beforeAll(async () => {
    api = await openTestApi(
      { BUILDS_DIR: buildsDir, UPLOAD_DIR: uploadDir, STUDIO_OPEN_UPLOADS: '3', STUDIO_UPLOAD_MB_PER_DAY: '64', BUILD_UPLOAD_EXPIRY_HOURS: '24' },
      { clock },
    );
  });
  afterAll(async () => {
    await api.close();
    await rm(buildsDir, { recursive: true, force: true });
    await rm(uploadDir, { recursive: true, force: true });
  });

  async function newStudio(): Promise<Studio> {
    const member = await players.newMember();
    await api.services.developers.saveProfile(member.userInfo.uid, { studioName: `Studio ${member.userInfo.uid}`, contactEmail: 'dev@studio.test' });
    const game = await insertDeveloperGame(api.database.db, member.userInfo.uid);
    return { token: member.token, userId: member.userInfo.uid, appId: game.id };
  }

  async function create(studio: Studio, length: number, csrf?: Record<string, string>): Promise<LightMyRequestResponse> {
    return api.app.inject({
      method: 'POST',
      url: `/serve/api/studio/games/${studio.appId}/uploads`,
      headers: { ...(csrf ?? (await api.csrfHeaders())), authorization: `Bearer ${studio.token}`, 'tus-resumable': '1.0.0', 'upload-length': String(length) },
    });
  }

  /** Opens an upload of `length` bytes and sends the first `sent` of them, as a dropped upload leaves it. */
  async function halfSend(studio: Studio, length: number, sent: number): Promise<string> {
    const created = await create(studio, length);
    expect(created.statusCode, created.body).toBe(201);
    const location = String(created.headers.location);
    if (sent > 0) expect((await piece(studio, location, 0, Buffer.alloc(sent, 7))).statusCode).toBe(204);
    return location;
  }

  async function piece(studio: Studio, location: string, offset: number, bytes: Buffer): Promise<LightMyRequestResponse> {
    return api.app.inject({
      method: 'PATCH',
      url: location,
      headers: {
        ...(await api.csrfHeaders()),
        authorization: `Bearer ${studio.token}`,
        'tus-resumable': '1.0.0',
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
      },
      payload: bytes,
    });
  }

  const head = (studio: Studio, location: string) =>
    api.app.inject({ method: 'HEAD', url: location, headers: { authorization: `Bearer ${studio.token}`, 'tus-resumable': '1.0.0' } });
  const openRows = (studio: Studio) => api.database.db.selectFrom('build_uploads').select('id').where('user_id', '=', studio.userId).execute();
  const dayBytes = async (studio: Studio) =>
    Number(
      (await api.database.db.selectFrom('build_upload_quotas').select('day_bytes').where('user_id', '=', studio.userId).executeTakeFirst())?.day_bytes ?? 0,
    );

  it('removes half-sent uploads, file and info file, once idle for the expiry time, not before, and keeps one still receiving', async () => {
    shifted.offset = 0;
    const studio = await newStudio();
    const locations = [await halfSend(studio, 4 * MB, MB), await halfSend(studio, 4 * MB, MB), await halfSend(studio, 4 * MB, MB)];
    // A left-over of an upload opened before the limits existed: no row names it; and one written just now.
    const stale = `${studio.appId}-${randomBytes(16).toString('hex')}`;
    const fresh = `${studio.appId}-${randomBytes(16).toString('hex')}`;
    for (const id of [stale, fresh]) {
      writeFileSync(join(incoming, id), Buffer.alloc(MB));
      writeFileSync(join(incoming, `${id}.json`), '{}');
    }
    const longAgo = new Date(Date.now() - 30 * HOUR);
    utimesSync(join(incoming, stale), longAgo, longAgo);
    utimesSync(join(incoming, `${stale}.json`), longAgo, longAgo);
    const before = incomingUse();
    expect(before.names).toHaveLength(10);

    shifted.offset = 23 * HOUR;
    expect(await api.services.buildUploads.removeExpired()).toBe(1);
    expect(incomingUse().names).toHaveLength(8);
    expect(existsSync(join(incoming, stale))).toBe(false);
    // The third upload receives its next piece an hour before the others expire.
    expect((await piece(studio, locations[2]!, MB, Buffer.alloc(MB, 8))).statusCode).toBe(204);

    // The files were written at real time; the cut-off is 24 h before the moved clock.
    shifted.offset = 25 * HOUR;
    expect(await api.services.buildUploads.removeExpired()).toBe(3);
    // Another instance running the same clean-up finds nothing left to do.
    expect(await api.services.buildUploads.removeExpired()).toBe(0);
    const after = incomingUse();
    const kept = idOf(locations[2]!);
    expect(after.names).toEqual([kept, `${kept}.json`].sort());
    expect(after.bytes).toBeLessThan(before.bytes);
    expect((await openRows(studio)).map((row) => row.id)).toEqual([kept]);

    // A removed upload cannot be resumed: the client starts a new one.
    expect((await head(studio, locations[0]!)).statusCode).toBe(404);
    expect((await piece(studio, locations[0]!, MB, Buffer.alloc(MB))).statusCode).toBe(404);
    expect(incomingUse().names).toEqual(after.names);
    // The places the removed uploads held are free again.
    expect((await create(studio, MB)).statusCode).toBe(201);
  });

  it('measures the folder before and after a clean-up of N half-sent uploads', async () => {
    shifted.offset = 0;
    const studios = [await newStudio(), await newStudio(), await newStudio()];
    for (const studio of studios) for (let n = 0; n < 3; n += 1) await halfSend(studio, 8 * MB, 2 * MB);
    const appIds = studios.map((studio) => studio.appId);
    const before = incomingUse(appIds).bytes;
    shifted.offset = 25 * HOUR;
    await api.services.buildUploads.removeExpired();
    const after = incomingUse(appIds).bytes;
    process.stdout.write(`incoming folder after 9 half-sent uploads of 2 MB: ${before} bytes; after the clean-up: ${after} bytes\n`);
    expect(before).toBeGreaterThanOrEqual(9 * 2 * MB);
    expect(after).toBe(0);
  });

  it('refuses an upload past the open-upload cap with upload_limit, changing nothing, and leaves another studio alone', async () => {
    shifted.offset = 0;
    const studio = await newStudio();
    const other = await newStudio();
    const locations = [await halfSend(studio, MB, 0), await halfSend(studio, MB, 0), await halfSend(studio, MB, 0)];
    const files = incomingUse().names;
    const refused = await create(studio, MB);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'upload_limit', data: { limit: 'open_uploads', max: 3, open: 3 } });
    expect(refused.json().message).toContain('3 unfinished uploads');
    expect(refused.headers.location).toBeUndefined();
    expect(incomingUse().names).toEqual(files);
    expect(await openRows(studio)).toHaveLength(3);
    expect(await dayBytes(studio)).toBe(3 * MB);
    // In Chinese too.
    const zh = await api.app.inject({
      method: 'POST',
      url: `/serve/api/studio/games/${studio.appId}/uploads`,
      headers: {
        ...(await api.csrfHeaders()),
        authorization: `Bearer ${studio.token}`,
        locale: 'zh-CN',
        'tus-resumable': '1.0.0',
        'upload-length': String(MB),
      },
    });
    expect(zh.json().message).toContain('3 个未完成的上传');

    expect((await create(other, MB)).statusCode).toBe(201);
    // Abandoning an upload frees its place.
    const abandoned = await api.app.inject({
      method: 'DELETE',
      url: locations[0]!,
      headers: { ...(await api.csrfHeaders()), authorization: `Bearer ${studio.token}`, 'tus-resumable': '1.0.0' },
    });
    expect(abandoned.statusCode).toBe(204);
    expect((await create(studio, MB)).statusCode).toBe(201);
  });

  it('refuses an upload past the daily bytes with upload_limit, changing nothing, until the next day', async () => {
    shifted.offset = 0;
    const studio = await newStudio();
    const other = await newStudio();
    await halfSend(studio, 40 * MB, MB);
    const refused = await create(studio, 30 * MB);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'upload_limit', data: { limit: 'daily_bytes', max: 64 * MB, used: 40 * MB, requested: 30 * MB } });
    expect(refused.json().message).toContain('64 MB a day');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(24 * 60 * 60);
    expect(await openRows(studio)).toHaveLength(1);
    expect(await dayBytes(studio)).toBe(40 * MB);
    // What is left of the day still fits, and another studio has a day of its own.
    expect((await create(studio, 24 * MB)).statusCode).toBe(201);
    expect((await create(other, 60 * MB)).statusCode).toBe(201);
    // Uploads the size cap refuses are not charged.
    expect((await create(studio, 1024 * MB)).statusCode).toBe(413);
    expect(await dayBytes(studio)).toBe(64 * MB);
    // An upload must announce its size.
    const deferred = await api.app.inject({
      method: 'POST',
      url: `/serve/api/studio/games/${studio.appId}/uploads`,
      headers: { ...(await api.csrfHeaders()), authorization: `Bearer ${studio.token}`, 'tus-resumable': '1.0.0', 'upload-defer-length': '1' },
    });
    expect(deferred.statusCode).toBe(400);

    shifted.offset = 24 * HOUR;
    expect((await create(studio, 30 * MB)).statusCode).toBe(201);
  });

  it('lets only one of several creations at once take the last place or the last bytes', async () => {
    shifted.offset = 0;
    const studio = await newStudio();
    await halfSend(studio, MB, 0);
    await halfSend(studio, MB, 0);
    const csrf = await api.csrfHeaders();
    const places = await Promise.all(Array.from({ length: 12 }, () => create(studio, MB, csrf)));
    expect(places.map((response) => response.statusCode).sort()).toEqual([201, ...Array.from({ length: 11 }, () => 429)]);
    expect(await openRows(studio)).toHaveLength(3);

    const spender = await newStudio();
    const bytes = await Promise.all(Array.from({ length: 3 }, () => create(spender, 40 * MB, csrf)));
    expect(bytes.map((response) => response.statusCode).sort()).toEqual([201, 429, 429]);
    expect(bytes.filter((response) => response.statusCode === 429).map((response) => response.json().data.limit)).toEqual(['daily_bytes', 'daily_bytes']);
    expect(await dayBytes(spender)).toBe(40 * MB);
  });
});
