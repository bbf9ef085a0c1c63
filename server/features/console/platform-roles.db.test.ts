import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '#server/lib/app-error.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { testPlayers } from '#server/testing/test-players.ts';

const run = promisify(execFile);
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof AppError ? error.code : String(error)),
  );
const OPERATORS_COMMAND = resolve(import.meta.dirname, '../../../scripts/operators.ts');

describe('platform roles (decision 095)', () => {
  let api: TestApi;
  const players = testPlayers(() => api, 95);
  beforeAll(async () => {
    api = await openTestApi();
  });
  afterAll(async () => {
    await api.close();
    await api.database.drop();
  });

  it('makes a member an operator only by the command on the server, and takes it back', async () => {
    const member = await players.newMember();
    const guest = await players.newGuest();
    const env = { ...process.env, ...api.database.env, LOG_LEVEL: 'silent' };
    const caller = { userId: member.userInfo.uid, tokenId: 0 };
    expect(await codeOf(api.services.operators.requireOperator(caller))).toBe('forbidden');
    expect(await codeOf(api.services.operators.requireOperator(null))).toBe('unauthenticated');

    const granted = await run(process.execPath, [OPERATORS_COMMAND, 'grant', String(member.userInfo.uid)], { env });
    expect(granted.stdout).toContain(`Member ${member.userInfo.uid} is an operator.`);
    expect(await api.services.operators.requireOperator(caller)).toBe(member.userInfo.uid);
    const listed = await run(process.execPath, [OPERATORS_COMMAND, 'list'], { env });
    expect(listed.stdout).toMatch(new RegExp(`^${member.userInfo.uid}\\t`, 'm'));

    // A guest is never an operator: the command refuses it and changes nothing.
    const refused = await run(process.execPath, [OPERATORS_COMMAND, 'grant', String(guest.userInfo.uid)], { env }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 1 });
    expect(await api.services.operators.isOperator(guest.userInfo.uid)).toBe(false);

    await run(process.execPath, [OPERATORS_COMMAND, 'revoke', String(member.userInfo.uid)], { env });
    expect(await codeOf(api.services.operators.requireOperator(caller))).toBe('forbidden');
    // Four runs of the command, each starting Node and opening the database.
  }, 60_000);

  it('lets a developer act on their own games only, and hides the others as missing', async () => {
    const owner = await players.newMember();
    const other = await players.newMember();
    const ownerCaller = { userId: owner.userInfo.uid, tokenId: 0 };
    const otherCaller = { userId: other.userInfo.uid, tokenId: 0 };
    expect(await codeOf(api.services.developers.requireDeveloper(ownerCaller))).toBe('forbidden');
    const profile = await api.services.developers.saveProfile(owner.userInfo.uid, { studioName: 'Tidepool Games', contactEmail: 'dev@tidepool.test' });
    expect(profile.studioName).toBe('Tidepool Games');
    expect(await api.services.developers.requireDeveloper(ownerCaller)).toBe(owner.userInfo.uid);

    const game = await api.database.db.selectFrom('apps').select('id').orderBy('id').executeTakeFirstOrThrow();
    // A house game has no developer: nobody may act on it in the Studio.
    expect(await codeOf(api.services.developers.requireDeveloperOf(ownerCaller, game.id))).toBe('not_found');
    await api.database.db.updateTable('apps').set({ developer_user_id: owner.userInfo.uid }).where('id', '=', game.id).execute();
    expect(await api.services.developers.requireDeveloperOf(ownerCaller, game.id)).toBe(owner.userInfo.uid);
    expect(await codeOf(api.services.developers.requireDeveloperOf(otherCaller, game.id))).toBe('not_found');
    expect(await codeOf(api.services.developers.requireDeveloperOf(null, game.id))).toBe('unauthenticated');
    expect(await codeOf(api.services.developers.requireDeveloperOf(ownerCaller, 999_999))).toBe('not_found');
  });

  it('keeps an audit log that the database itself refuses to change or delete', async () => {
    const operator = await players.newMember();
    await api.services.auditLog.record({
      operatorUserId: operator.userInfo.uid,
      action: 'member.disable',
      target: { type: 'member', id: 7 },
      detail: { reason: 'spam' },
    });
    await api.services.auditLog.record({ operatorUserId: operator.userInfo.uid, action: 'order.refund', target: { type: 'order', id: 'ord_1' } });
    const first = await api.services.auditLog.page({ limit: 1 });
    expect(first.entries).toMatchObject([{ action: 'order.refund', target: { type: 'order', id: 'ord_1' }, detail: {} }]);
    const second = await api.services.auditLog.page({ limit: 1, beforeId: first.nextBefore! });
    expect(second.entries).toMatchObject([{ action: 'member.disable', target: { type: 'member', id: '7' }, detail: { reason: 'spam' } }]);
    expect(second.nextBefore).toBeNull();
    await expect(api.database.db.updateTable('audit_log').set({ action: 'nothing' }).execute()).rejects.toThrow(/append-only/);
    await expect(api.database.db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
    expect((await api.services.auditLog.page({ limit: 10 })).entries).toHaveLength(2);
  });
});
