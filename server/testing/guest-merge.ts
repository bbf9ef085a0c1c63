import { expect } from 'vitest';
import type { TestApi } from './test-api.ts';

/*
 * What a guest holds before a sign-in merges it (decision 063), and the check that all of it
 * reached the account signed in to: the same for every way of signing in.
 */

/** The account signed in to already holds this: the guest's holdings join it. */
export async function giveAccountHoldings(api: TestApi, token: string): Promise<void> {
  await expectOk(api.call('POST', '/member/played/', { token, body: { app_id: 1 } }));
  await expectOk(api.call('PUT', '/member/favourite/3', { token }));
  await expectOk(api.call('PUT', '/game/saves/1/settings', { token, body: { value: { sound: false } } }));
}

/** The guest's plays (game 1 twice, game 2 once), favourites (games 2 and 3) and saves (a new key, and a newer value of the account's key). */
export async function giveGuestHoldings(api: TestApi, token: string): Promise<void> {
  await expectOk(api.call('POST', '/member/played/', { token, body: { app_id: 1 } }));
  await expectOk(api.call('POST', '/member/played/', { token, body: { app_id: 1 } }));
  await expectOk(api.call('POST', '/member/played/', { token, body: { app_id: 2 } }));
  await expectOk(api.call('PUT', '/member/favourite/2', { token }));
  await expectOk(api.call('PUT', '/member/favourite/3', { token }));
  await expectOk(api.call('PUT', '/game/saves/1/progress', { token, body: { value: { level: 7 } } }));
  // Written after the account's value of the key, so newer: it wins.
  await expectOk(api.call('PUT', '/game/saves/1/settings', { token, body: { value: { sound: true } } }));
}

/**
 * The guest's holdings are the account's (plays added up, favourites once, the newer save),
 * the guest account is gone and its token answers 401, and the account's session works.
 */
export async function expectGuestMerged(api: TestApi, merged: { guestToken: string; guestId: number; accountToken: string; accountId: number }): Promise<void> {
  const { db } = api.services.database;
  const plays = await db.selectFrom('played_games').select(['app_id', 'play_count']).where('user_id', '=', merged.accountId).orderBy('app_id').execute();
  expect(plays).toEqual([
    { app_id: 1, play_count: 3 },
    { app_id: 2, play_count: 1 },
  ]);
  const favourites = (await api.call('GET', '/member/favourite/', { token: merged.accountToken })).json().data.items as { id: number }[];
  expect(favourites.map((f) => f.id).sort()).toEqual([2, 3]);
  expect((await api.call('GET', '/game/saves/1/progress', { token: merged.accountToken })).json().data.value).toEqual({ level: 7 });
  expect((await api.call('GET', '/game/saves/1/settings', { token: merged.accountToken })).json().data.value).toEqual({ sound: true });
  expect((await api.call('GET', '/member/info/', { token: merged.guestToken })).statusCode).toBe(401);
  expect(await db.selectFrom('users').select('id').where('id', '=', merged.guestId).executeTakeFirst()).toBeUndefined();
  expect((await api.call('GET', '/member/info/', { token: merged.accountToken })).json().data.userInfo.uid).toBe(merged.accountId);
}

async function expectOk(call: ReturnType<TestApi['call']>): Promise<void> {
  const response = await call;
  expect(response.statusCode, response.body).toBe(200);
}
