import { randomBytes } from 'node:crypto';
import { solvedChallenge } from './guest-challenge.ts';
import type { TestApi } from './test-api.ts';

export interface TestPlayer {
  token: string;
  userInfo: { uid: number };
}

/**
 * Guests and members made through the API as a browser makes them. Each guest comes from an
 * address of its own under 10.{network}.0.0/16, since guest sign-ins are limited per address;
 * files that share a database use different networks. `apiOf` is asked at each call, so the
 * players can be declared before `beforeAll` opens the API.
 */
export function testPlayers(apiOf: () => TestApi, network: number) {
  let address = 0;
  async function newGuest(): Promise<TestPlayer> {
    const api = apiOf();
    address += 1;
    const response = await api.call('POST', '/guest/login/', {
      body: await solvedChallenge(api.app),
      address: `10.${network}.${address >> 8}.${address & 255}`,
    });
    if (response.statusCode >= 300) throw new Error(`guest sign-in: ${response.statusCode} ${response.body}`);
    return response.json().data as TestPlayer;
  }
  /** A guest who set a username and password. */
  async function newMember(): Promise<TestPlayer> {
    const guest = await newGuest();
    const response = await apiOf().call('PATCH', '/member/password/', {
      token: guest.token,
      body: { username: `player${randomBytes(4).toString('hex')}`, password: 'Harbour-Lantern-Tricky-9' },
    });
    if (response.statusCode >= 300) throw new Error(`setting a password: ${response.statusCode} ${response.body}`);
    return response.json().data as TestPlayer;
  }
  return { newGuest, newMember };
}
