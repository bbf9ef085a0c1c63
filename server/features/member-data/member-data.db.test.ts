import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#server/testing/clocks.ts';
import { appIdOf, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { testPlayers } from '#server/testing/test-players.ts';
import { PERSONAL_DATA_COLUMNS } from './personal-data-columns.ts';

const DAY = 24 * 60 * 60 * 1000;

/** The files of a zip, by name, as text. */
async function unzip(bytes: Buffer): Promise<Record<string, string>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const files: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, async (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        files[entry.fileName] = Buffer.concat(chunks).toString('utf8');
        zip.readEntry();
      });
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  return files;
}

/** "Download my data" (decision 144) through the API, on a clock the test moves. */
describe('download my data', () => {
  let api: TestApi;
  let exportsDir: string;
  const clock = new ManualClock('2026-11-20T09:00:00.000Z');
  const { newGuest, newMember } = testPlayers(() => api, 57);

  beforeAll(async () => {
    exportsDir = mkdtempSync(join(tmpdir(), 'playport-exports-'));
    api = await openTestApi({ EXPORTS_DIR: exportsDir }, { clock });
  });
  afterAll(async () => {
    await api?.close();
    rmSync(exportsDir, { recursive: true, force: true });
  });

  const request = (token: string) => api.call('POST', '/user/data-exports/', { token });
  const list = async (token: string) => (await api.call('GET', '/user/data-exports/', { token })).json().data.exports as Array<Record<string, unknown>>;
  const download = (url: string) => api.app.inject({ method: 'GET', url });

  it('prepares an archive of what every feature holds about the member, without a secret, behind a signed link', async () => {
    const member = await newMember();
    const alpha = await appIdOf(api.database, 'alpha');
    expect((await api.call('POST', '/member/played/', { token: member.token, body: { app_id: alpha } })).statusCode).toBe(200);
    expect((await api.call('PUT', `/member/favourite/${alpha}`, { token: member.token })).statusCode).toBeLessThan(300);
    expect(
      (await api.call('PUT', `/game/saves/${alpha}/progress`, { token: member.token, body: { value: { level: 7, name: 'saved-value-marker' } } })).statusCode,
    ).toBe(200);
    expect((await api.call('POST', `/game/leaderboards/${alpha}/points/scores`, { token: member.token, body: { score: 4242 } })).statusCode).toBeLessThan(300);

    const asked = await request(member.token);
    expect(asked.statusCode).toBe(201);
    expect(asked.json().data).toMatchObject({ created: true, export: { status: 'pending', byOperator: false, downloadUrl: null } });
    await api.services.memberData.settled();

    const [ready] = await list(member.token);
    expect(ready).toMatchObject({ status: 'ready', readyAt: clock.now().toISOString(), expiresAt: new Date(clock.time + 7 * DAY).toISOString() });
    const file = await download(ready!.downloadUrl as string);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="Playport-data-2026-11-20\.zip"$/);
    expect(file.headers['cache-control']).toBe('private, no-store');

    const files = await unzip(file.rawPayload);
    expect(Object.keys(files).sort()).toEqual(
      [
        'README.txt',
        'account.json',
        'sessions.json',
        'passkeys.json',
        'social-accounts.json',
        'refused-sign-ins.json',
        'played-games.json',
        'favourites.json',
        'cloud-saves.json',
        'scores.json',
        'achievements.json',
        'orders.json',
        'items.json',
        'items-used.json',
        'play-sessions.json',
      ].sort(),
    );
    const json = (name: string) => JSON.parse(files[name]!);
    expect(json('account.json')).toMatchObject({ id: member.userInfo.uid, is_guest: false, has_password: true, has_device_sign_in: false });
    expect(json('sessions.json').length).toBeGreaterThanOrEqual(1);
    expect(json('played-games.json')).toEqual([expect.objectContaining({ app_id: alpha, slug: 'alpha', play_count: 1 })]);
    expect(json('favourites.json')).toEqual([expect.objectContaining({ app_id: alpha, slug: 'alpha' })]);
    expect(json('cloud-saves.json')).toEqual([expect.objectContaining({ app_id: alpha, key: 'progress' })]);
    expect(json('cloud-saves.json')[0].value).toContain('saved-value-marker');
    expect(json('scores.json')).toEqual(expect.arrayContaining([expect.objectContaining({ app_id: alpha, board: 'points', score: 4242 })]));

    // No secret of the account is in any file: not its password hash, nor its session's token or hash.
    const secrets = await api.database.db
      .selectFrom('users')
      .innerJoin('access_tokens', 'access_tokens.user_id', 'users.id')
      .select(['users.password_hash', 'access_tokens.token_hash'])
      .where('users.id', '=', member.userInfo.uid)
      .execute();
    const everything = Object.values(files).join('\n');
    for (const { password_hash, token_hash } of secrets) {
      expect(everything).not.toContain(password_hash!);
      expect(everything).not.toContain(token_hash);
    }
    expect(everything).not.toContain(member.token.split('|')[1]);
    // No key of any file is a column the rules keep secret (personal-data-columns.ts).
    const secretColumns = new Set(
      Object.values(PERSONAL_DATA_COLUMNS).flatMap((rule) => Object.entries(rule.columns).flatMap(([column, use]) => (use === 'secret' ? [column] : []))),
    );
    const keys = new Set<string>();
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object')
        for (const [key, inner] of Object.entries(value)) {
          keys.add(key);
          collect(inner);
        }
    };
    for (const jsonFile of Object.keys(files).filter((entry) => entry.endsWith('.json'))) collect(json(jsonFile));
    expect([...keys].filter((key) => secretColumns.has(key))).toEqual([]);
    expect(secretColumns).toContain('password_hash');
  });

  it('answers a request of the last day with the same archive, and a new one after it', async () => {
    const member = await newMember();
    const first = (await request(member.token)).json().data;
    const again = await request(member.token);
    expect(again.statusCode).toBe(201);
    expect(again.json().data).toMatchObject({ created: false, export: { id: first.export.id } });
    await api.services.memberData.settled();
    clock.advance(DAY + 1000);
    const later = (await request(member.token)).json().data;
    expect(later.created).toBe(true);
    expect(later.export.id).not.toBe(first.export.id);
    await api.services.memberData.settled();
    expect((await list(member.token)).map((e) => e.id)).toEqual([later.export.id, first.export.id]);
  });

  it('refuses another member, a guessed or altered link, and anyone without a session', async () => {
    const owner = await newMember();
    const other = await newGuest();
    await request(owner.token);
    await api.services.memberData.settled();
    const [ready] = await list(owner.token);
    const url = ready!.downloadUrl as string;
    // Another account sees none of the owner's requests.
    expect(await list(other.token)).toEqual([]);
    expect((await api.call('GET', '/user/data-exports/')).statusCode).toBe(401);
    expect((await api.call('POST', '/user/data-exports/')).statusCode).toBe(401);
    // One wrong character of the signature, no signature, another id: one 404 in the envelope.
    const signature = url.split('signature=')[1]!;
    const altered = url.replace(signature, `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
    for (const wrong of [altered, url.split('?')[0]!, url.replace(ready!.id as string, 'A'.repeat(24)), `${url.split('?')[0]}?signature=${'0'.repeat(64)}`]) {
      const answer = await download(wrong);
      expect(answer.statusCode, wrong).toBe(404);
      expect(answer.json().error).toBe('not_found');
    }
    expect((await download(url)).statusCode).toBe(200);
  });

  it('stops offering an archive after 7 days and deletes its file', async () => {
    const member = await newMember();
    await request(member.token);
    await api.services.memberData.settled();
    const [ready] = await list(member.token);
    const url = ready!.downloadUrl as string;
    clock.advance(7 * DAY - 1000);
    expect((await download(url)).statusCode).toBe(200);
    clock.advance(2000);
    expect((await download(url)).statusCode).toBe(404);
    expect(await list(member.token)).toEqual([expect.objectContaining({ id: ready!.id, status: 'expired', downloadUrl: null })]);
    expect(await api.services.memberData.removeExpired()).toBeGreaterThanOrEqual(1);
    const row = await api.database.db
      .selectFrom('data_exports')
      .selectAll()
      .where('id', '=', ready!.id as string)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'expired', storage_key: null });
    expect(existsSync(join(exportsDir, `${member.userInfo.uid}/${ready!.id}.zip`))).toBe(false);
  });

  it("deletes the archive of an account that is gone with the next clean-up, and leaves others' alone", async () => {
    const [leaving, staying] = [await newMember(), await newMember()];
    await request(leaving.token);
    await request(staying.token);
    await api.services.memberData.settled();
    await api.services.memberData.prepareDue();
    const fileOf = async (player: typeof leaving) => join(exportsDir, `${player.userInfo.uid}/${(await list(player.token))[0]!.id}.zip`);
    const [leavingFile, stayingFile] = [await fileOf(leaving), await fileOf(staying)];
    expect(existsSync(leavingFile) && existsSync(stayingFile)).toBe(true);
    // The account goes (its requests with it, by the foreign key), as the guest clean-up and deletion remove one.
    await api.database.db.deleteFrom('users').where('id', '=', leaving.userInfo.uid).execute();
    expect(await api.services.memberData.removeExpired()).toBeGreaterThanOrEqual(1);
    expect(existsSync(leavingFile)).toBe(false);
    expect(existsSync(stayingFile)).toBe(true);
  });

  it('keeps a request that could not be prepared, tries it twice more, then gives up; the member may ask again', async () => {
    const member = await newMember();
    // The member's folder cannot be made: a file stands where it goes (as a full or broken disk would refuse).
    const blocker = join(exportsDir, String(member.userInfo.uid));
    writeFileSync(blocker, 'in the way');
    const id = (await request(member.token)).json().data.export.id as string;
    await api.services.memberData.settled();
    const row = () => api.database.db.selectFrom('data_exports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({ status: 'pending', attempts: 1, claimed_until: new Date(clock.time + 60_000).toISOString() });
    expect((await row()).error).toBeTruthy();
    // Not before its time; then again after a minute, and after ten more.
    expect(await api.services.memberData.prepareDue()).toBe(0);
    expect((await row()).attempts).toBe(1);
    clock.advance(61_000);
    await api.services.memberData.prepareDue();
    expect(await row()).toMatchObject({ status: 'pending', attempts: 2 });
    clock.advance(10 * 60_000 + 1000);
    await api.services.memberData.prepareDue();
    expect(await row()).toMatchObject({ status: 'failed', attempts: 3, claimed_until: null });
    expect((await list(member.token))[0]).toMatchObject({ id, status: 'failed', downloadUrl: null });

    rmSync(blocker);
    const again = (await request(member.token)).json().data;
    expect(again.created).toBe(true);
    await api.services.memberData.settled();
    expect((await list(member.token))[0]).toMatchObject({ id: again.export.id, status: 'ready' });
  });

  it('prepares a request another instance claimed and then lost, once its claim has run out', async () => {
    const member = await newMember();
    const id = (await request(member.token)).json().data.export.id as string;
    await api.services.memberData.settled();
    await api.database.db
      .updateTable('data_exports')
      .set({ status: 'pending', claimed_until: new Date(clock.time + 5 * 60_000).toISOString() })
      .where('id', '=', id)
      .execute();
    expect(await api.services.memberData.prepareDue()).toBe(0);
    clock.advance(5 * 60_000 + 1000);
    expect(await api.services.memberData.prepareDue()).toBe(1);
    expect((await list(member.token))[0]).toMatchObject({ id, status: 'ready' });
  });
});
