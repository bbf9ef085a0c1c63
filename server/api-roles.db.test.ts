import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerApiStandalone } from './api.ts';
import { answerFrameworkError } from './http/errors.ts';
import { csrfHeadersFor } from './testing/api-instance.ts';
import { openTestApi, type TestApi } from './testing/test-api.ts';
import { type TestPlayer, testPlayers } from './testing/test-players.ts';

/*
 * Roles before bodies (decision 107): every Console route answers a caller who is not an
 * operator, and every Studio route a caller without a studio profile, before it reads what was
 * sent. The routes come from the API's own registration, so a route added later is walked too.
 */

interface Route {
  method: string;
  url: string;
}

/** Parameters, queries and bodies that no route accepts. */
const BAD_PARAM = 'not-a-valid-id-%E2%80%AE';
const BAD_QUERY = 'limit=-1&cursor=%00&q=' + 'x'.repeat(2000);
const BAD_BODIES: Array<{ name: string; payload: string; contentType: string }> = [
  { name: 'missing', payload: '', contentType: 'application/json' },
  { name: 'wrong fields', payload: JSON.stringify({ reason: 7, published: 'maybe', studioName: [], unexpected: true }), contentType: 'application/json' },
  { name: 'malformed JSON', payload: '{"reason":', contentType: 'application/json' },
  { name: 'another type', payload: '--x\r\n', contentType: 'multipart/form-data; boundary=nothing' },
];

const STUDIO_OPEN = new Set(['/serve/api/studio/profile/']);

describe('roles before bodies (decision 107)', () => {
  let api: TestApi;
  let app: FastifyInstance;
  const routes: Route[] = [];
  const players = testPlayers(() => api, 107);
  let member: TestPlayer;
  let developer: TestPlayer;
  let operator: TestPlayer;
  let csrf: Record<string, string>;

  beforeAll(async () => {
    api = await openTestApi();
    // The API registered once more on the same services, listening to each route it registers.
    app = Fastify({ logger: false, frameworkErrors: answerFrameworkError });
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });
    await registerApiStandalone(app, { config: api.config, services: api.services });
    await app.ready();
    csrf = await csrfHeadersFor(app);
    [member, developer, operator] = await Promise.all([players.newMember(), players.newMember(), players.newMember()]);
    const profile = await api.call('PUT', '/studio/profile/', {
      token: developer.token,
      body: { studioName: 'Roles Studio', contactEmail: 'roles@studio.test' },
    });
    expect(profile.statusCode).toBe(200);
    await api.services.operators.grant(String(operator.userInfo.uid));
  });
  afterAll(async () => {
    await app.close();
    await api.close();
  });

  const inGroup = (prefix: string) =>
    routes.filter((route) => route.url.startsWith(`/serve/api${prefix}`) && !STUDIO_OPEN.has(route.url) && route.method !== 'OPTIONS');

  /** Every route of the group, with bad parameters, query and each bad body, as `token`: the statuses seen, by call. */
  async function statuses(group: Route[], token: string | undefined): Promise<Record<string, number[]>> {
    const seen: Record<string, number[]> = {};
    for (const route of group) {
      const url = `${route.url.replace(/:[a-z_]+/g, BAD_PARAM).replace(/\*$/, BAD_PARAM)}?${BAD_QUERY}`;
      const bodies = route.method === 'GET' || route.method === 'HEAD' || route.method === 'DELETE' ? [BAD_BODIES[0]!] : BAD_BODIES;
      const answers = await Promise.all(
        bodies.map((body) =>
          app.inject({
            method: route.method as 'GET',
            url,
            headers: { ...csrf, 'content-type': body.contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
            ...(body.payload ? { payload: body.payload } : {}),
          }),
        ),
      );
      seen[`${route.method} ${route.url}`] = [...new Set(answers.map((answer) => answer.statusCode))];
    }
    return seen;
  }

  const all = (group: Route[], status: number) => Object.fromEntries(group.map((route) => [`${route.method} ${route.url}`, [status]]));

  it('finds the Console and Studio routes in the API as registered', () => {
    const consoleRoutes = inGroup('/console/').map((route) => `${route.method} ${route.url}`);
    expect(consoleRoutes).toEqual(
      expect.arrayContaining([
        'POST /serve/api/console/builds/:build_id/reject',
        'POST /serve/api/console/orders/:order_id/refund',
        'GET /serve/api/console/members/',
      ]),
    );
    expect(consoleRoutes.length).toBeGreaterThan(20);
    expect(inGroup('/studio/').length).toBeGreaterThan(15);
  });

  it('answers every Console route 401 without a session and 403 to a member, a developer or a guest who is not an operator, whatever was sent', async () => {
    const group = inGroup('/console/');
    const guest = await players.newGuest();
    expect(await statuses(group, undefined)).toEqual(all(group, 401));
    expect(await statuses(group, guest.token)).toEqual(all(group, 403));
    expect(await statuses(group, member.token)).toEqual(all(group, 403));
    expect(await statuses(group, developer.token)).toEqual(all(group, 403));
  });

  it('answers every Studio route but the profile 401 without a session and 403 to a member without a studio profile, whatever was sent', async () => {
    const group = inGroup('/studio/');
    expect(await statuses(group, undefined)).toEqual(all(group, 401));
    expect(await statuses(group, member.token)).toEqual(all(group, 403));
    // An operator is no developer by that alone.
    expect(await statuses(group, operator.token)).toEqual(all(group, 403));
  });

  /** A call as the operator, with the XSRF token. */
  const asOperator = (method: 'GET' | 'POST', url: string, payload?: string) =>
    app.inject({
      method,
      url,
      headers: { ...csrf, 'content-type': 'application/json', authorization: `Bearer ${operator.token}` },
      ...(payload ? { payload } : {}),
    });

  it('still reads and validates what an operator sends', async () => {
    expect((await asOperator('POST', '/serve/api/console/builds/1/reject', '{}')).statusCode).toBe(422);
    expect((await asOperator('POST', '/serve/api/console/orders/1/refund', '{}')).statusCode).toBe(422);
    expect((await asOperator('GET', '/serve/api/console/members/')).statusCode).toBe(422);
    expect((await asOperator('GET', '/serve/api/console/members/?q=player')).statusCode).toBe(200);
  });
});
