import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ClientConfig } from '#server/adapters/storage/s3-storage.ts';
import type { Clock } from '#server/lib/clock.ts';
import { openApiInstance, type ApiInstance } from '#server/testing/api-instance.ts';
import { insertDeveloperGame, makeZip, sdkGameEntries } from '#server/testing/developer-games.ts';
import { startS3StandIn } from '#server/testing/s3-stand-in.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { testPlayers } from '#server/testing/test-players.ts';

/*
 * Decision 150: with STORAGE_URL the unfinished build uploads live in the bucket, so an upload begun
 * on one instance is resumed and finished on another, and the abandoned-upload clean-up of any
 * instance removes an upload's every piece there, its multipart upload included.
 */

const MB = 1024 * 1024;
const HOUR = 60 * 60 * 1000;
const directory = mkdtempSync(join(tmpdir(), 'playport-s3-uploads-'));
const shifted = { offset: 0 };
const clock: Clock = { now: () => new Date(Date.now() + shifted.offset) };
const tus = (token: string) => ({ authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' });

describe('build uploads in the bucket (decision 150)', () => {
  let standIn: Awaited<ReturnType<typeof startS3StandIn>>;
  let api: TestApi;
  let second: ApiInstance;
  let s3: S3Client;
  const players = testPlayers(() => api, 150);

  beforeAll(async () => {
    standIn = await startS3StandIn({ port: 0, directory, bucket: 'uploads-test' });
    const env = { ...standIn.env, STUDIO_UPLOAD_MB_PER_DAY: '256' };
    api = await openTestApi(env, { clock });
    second = await openApiInstance(api.database, { env, clock });
    s3 = new S3Client(s3ClientConfig({ ...api.config.objectStorage!, endpoint: standIn.endpoint }));
  });
  afterAll(async () => {
    s3.destroy();
    await second.close();
    await api.close();
    await standIn.stop();
    await rm(directory, { recursive: true, force: true });
  });

  async function newStudio() {
    const member = await players.newMember();
    await api.services.developers.saveProfile(member.userInfo.uid, { studioName: `Studio ${member.userInfo.uid}`, contactEmail: 'dev@studio.test' });
    const game = await insertDeveloperGame(api.database.db, member.userInfo.uid);
    return { token: member.token, appId: game.id };
  }

  async function piece(app: FastifyInstance, token: string, location: string, offset: number, bytes: Buffer): Promise<LightMyRequestResponse> {
    return app.inject({
      method: 'PATCH',
      url: location,
      headers: { ...(await api.csrfHeaders()), ...tus(token), 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      payload: bytes,
    });
  }
  async function create(app: FastifyInstance, token: string, appId: number, length: number): Promise<string> {
    const created = await app.inject({
      method: 'POST',
      url: `/serve/api/studio/games/${appId}/uploads`,
      headers: { ...(await api.csrfHeaders()), ...tus(token), 'upload-length': String(length) },
    });
    expect(created.statusCode, created.body).toBe(201);
    const location = String(created.headers.location);
    expect(location).toMatch(new RegExp(`^/serve/api/studio/games/${appId}/uploads/${appId}-[0-9a-f]{32}$`));
    return location;
  }
  const multipartUploads = async () => (await s3.send(new ListMultipartUploadsCommand({ Bucket: 'uploads-test' }))).Uploads ?? [];

  it('resumes on a second instance an upload begun on the first, and stores the build in the bucket, leaving no piece behind', async () => {
    const studio = await newStudio();
    // Large enough for S3 parts: a random file stored as it is.
    const zip = await makeZip([...sdkGameEntries(), { name: 'Build/data.bin', content: randomBytes(11 * MB), store: true }]);
    const location = await create(api.app, studio.token, studio.appId, zip.length);
    const half = 6 * MB;
    expect((await piece(api.app, studio.token, location, 0, zip.subarray(0, half))).statusCode).toBe(204);
    const head = await second.app.inject({ method: 'HEAD', url: location, headers: tus(studio.token) });
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe(String(half));
    const finished = await piece(second.app, studio.token, location, half, zip.subarray(half));
    expect(finished.statusCode, finished.body).toBe(200);
    const build = finished.json().data as { id: number; fileCount: number };
    expect(build.fileCount).toBe(4);
    const stored = await api.services.buildFiles.stat(`${studio.appId}/${build.id}/Build/data.bin`);
    expect(stored?.size).toBe(11 * MB);
    expect(await api.services.buildFiles.read(`${studio.appId}/${build.id}/Build/game.wasm`)).toEqual(Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
    expect(await api.services.incomingUploads.files.list('')).toEqual([]);
    expect(await multipartUploads()).toEqual([]);
  });

  it('removes an abandoned upload from any instance: its info, its small piece and its multipart upload', async () => {
    shifted.offset = 0;
    const studio = await newStudio();
    const location = await create(api.app, studio.token, studio.appId, 30 * MB);
    // One whole part and a piece too small for one.
    expect((await piece(api.app, studio.token, location, 0, randomBytes(9 * MB))).statusCode).toBe(204);
    const id = location.split('/').at(-1)!;
    expect((await api.services.incomingUploads.files.list('')).sort()).toEqual(expect.arrayContaining([`${id}.info`]));
    expect((await multipartUploads()).map((upload) => upload.Key)).toEqual([`playport/incoming/${id}`]);

    shifted.offset = 23 * HOUR;
    expect(await second.services.buildUploads.removeExpired()).toBe(0);
    shifted.offset = 25 * HOUR;
    expect(await second.services.buildUploads.removeExpired()).toBe(1);
    expect(await api.services.buildUploads.removeExpired()).toBe(0);
    expect(await api.services.incomingUploads.files.list('')).toEqual([]);
    expect(await multipartUploads()).toEqual([]);
    shifted.offset = 0;
    expect((await api.app.inject({ method: 'HEAD', url: location, headers: tus(studio.token) })).statusCode).toBe(404);
  });
  it('answers 503 with Retry-After in the envelope while the bucket is away, and the upload resumes when it is back', async () => {
    const studio = await newStudio();
    const zip = await makeZip([...sdkGameEntries(), { name: 'Build/data.bin', content: randomBytes(7 * MB), store: true }]);
    const location = await create(api.app, studio.token, studio.appId, zip.length);
    const half = 3 * MB;
    expect((await piece(api.app, studio.token, location, 0, zip.subarray(0, half))).statusCode).toBe(204);
    const port = Number(new URL(standIn.endpoint).port);
    await standIn.stop();
    try {
      const refused = await piece(second.app, studio.token, location, half, zip.subarray(half));
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json()).toMatchObject({ code: 503, data: { retryAfter: 5 } });
      expect(refused.body).not.toMatch(/ECONNREFUSED|at .*\.ts:\d+/);
    } finally {
      standIn = await startS3StandIn({ port, directory, bucket: 'uploads-test' });
    }
    const head = await api.app.inject({ method: 'HEAD', url: location, headers: tus(studio.token) });
    expect(head.statusCode).toBe(200);
    const offset = Number(head.headers['upload-offset']);
    expect(offset).toBe(half);
    const finished = await piece(second.app, studio.token, location, offset, zip.subarray(offset));
    expect(finished.statusCode, finished.body).toBe(200);
    expect(finished.json().data).toMatchObject({ fileCount: 4 });
  });
});
