import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { testPlayers } from '#server/testing/test-players.ts';

describe('GET /member/workspaces/ (decision 120)', () => {
  let api: TestApi;
  const players = testPlayers(() => api, 120);
  beforeAll(async () => {
    api = await openTestApi();
  });
  afterAll(async () => {
    await api.close();
    await api.database.drop();
  });

  const workspaces = async (token?: string) => {
    const response = await api.call('GET', '/member/workspaces/', token ? { token } : {});
    return { status: response.statusCode, body: response.json().data };
  };

  it('names the Studio once the member has a studio profile and the Console once an operator, for that member only', async () => {
    const member = await players.newMember();
    const other = await players.newMember();
    const guest = await players.newGuest();
    expect(await workspaces(member.token)).toEqual({ status: 200, body: { studio: false, console: false } });
    expect(await workspaces(guest.token)).toEqual({ status: 200, body: { studio: false, console: false } });

    await api.services.developers.saveProfile(member.userInfo.uid, { studioName: 'Tidepool Games', contactEmail: 'dev@tidepool.test' });
    expect(await workspaces(member.token)).toEqual({ status: 200, body: { studio: true, console: false } });
    await api.services.operators.grant(String(member.userInfo.uid));
    expect(await workspaces(member.token)).toEqual({ status: 200, body: { studio: true, console: true } });
    // Another member's roles are not the caller's.
    expect(await workspaces(other.token)).toEqual({ status: 200, body: { studio: false, console: false } });

    await api.services.operators.revoke(String(member.userInfo.uid));
    expect((await workspaces(member.token)).body).toEqual({ studio: true, console: false });
  });

  it('answers 401 in the envelope without a valid token', async () => {
    const missing = await api.call('GET', '/member/workspaces/');
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ code: 401, error: 'unauthenticated', data: null });
    const forged = await workspaces('1|not-a-token');
    expect(forged.status).toBe(401);
  });
});
