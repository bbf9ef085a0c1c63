import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appIdOf, type TestApi } from '#server/testing/test-api.ts';
import { closeTestApiWithXsolla, openTestApiWithXsolla, partialRefundOf, refundOf, testOrders, type XsollaStandIn } from '#server/testing/test-orders.ts';
import { testPlayers } from '#server/testing/test-players.ts';
import { WEBHOOK_EVENT_TYPES, webhookEventBody } from './webhook-events.schema.ts';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

interface WebhookOperation {
  parameters: { name: string; in: string; required: boolean; schema: object }[];
  requestBody: { required: boolean; content: { 'application/json': { schema: object } } };
  responses: Record<string, unknown>;
}

/*
 * The OpenAPI document's `webhooks` (decision 123) against what the portal really sends: every
 * event type has an entry, and each delivered body and its headers validate against it.
 */
describe("the OpenAPI document's webhooks", () => {
  let api: TestApi;
  let xsolla: XsollaStandIn;
  let server: Server;
  let webhooks: Record<string, { post: WebhookOperation }>;
  const received: Received[] = [];
  let appId: number;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const { newMember } = testPlayers(() => api, 124);
  const { notify, buy, consumeOne, nextTransaction } = testOrders(() => api, { appId: () => appId, firstTransaction: 123_000 });

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    ({ api, xsolla } = await openTestApiWithXsolla());
    appId = await appIdOf(api.database, 'alpha');
    const owner = await newMember();
    await api.services.developers.saveProfile(owner.userInfo.uid, { studioName: 'Documented', contactEmail: 'dev@documented.test' });
    await api.services.database.db.updateTable('apps').set({ developer_user_id: owner.userInfo.uid }).where('id', '=', appId).execute();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    expect((await api.call('PUT', `/studio/games/${appId}/webhook`, { token: owner.token, body: { url } })).statusCode).toBe(200);
    webhooks = (await api.app.inject({ method: 'GET', url: '/serve/api/openapi.json' })).json().webhooks;

    // One of every event: paid, partly refunded, refunded, consumed, a player deleted, and the Studio's test event.
    const member = await newMember();
    const gold = await buy(member, 'alpha-gold-tiles');
    expect((await notify(partialRefundOf(gold, member.userInfo.uid, gold.transaction, 0.5, 'A day without tiles'))).statusCode).toBe(204);
    expect((await notify(refundOf(gold, member.userInfo.uid, nextTransaction()))).statusCode).toBe(204);
    await buy(member, 'alpha-hints');
    await consumeOne(member, 'alpha-hints');
    // A player of the game deletes the account: its erasure (30 days later, brought forward here) tells the game.
    const leaver = await newMember();
    expect((await api.call('POST', '/member/played/', { token: leaver.token, body: { app_id: appId } })).statusCode).toBe(200);
    expect((await api.call('POST', '/user/account-deletion/', { token: leaver.token, body: { currentPassword: 'Harbour-Lantern-Tricky-9' } })).statusCode).toBe(
      200,
    );
    expect(await api.services.accountDeletion.erase(leaver.userInfo.uid, new Date(Date.now() + 31 * 24 * 60 * 60 * 1000).toISOString())).toBe(true);
    await api.services.webhooks.deliverDue();
    expect((await api.call('POST', `/studio/games/${appId}/webhook/test`, { token: owner.token })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await closeTestApiWithXsolla({ api, xsolla });
    await new Promise((done) => server?.close(done));
  });

  it('has an entry, a signed POST with a JSON body, for every event type the sender can send', () => {
    expect(Object.keys(webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const type of WEBHOOK_EVENT_TYPES) {
      const operation = webhooks[type]!.post;
      expect(operation.requestBody.content['application/json'].schema).toMatchObject({ type: 'object' });
      expect(operation.parameters.map((parameter) => `${parameter.in}:${parameter.name}`).sort()).toEqual([
        'header:Playport-Event-Id',
        'header:Playport-Event-Type',
        'header:Playport-Signature',
        'header:User-Agent',
      ]);
      expect(Object.keys(operation.responses)).toContain('2XX');
    }
  });

  it('describes every delivered payload and its headers exactly', () => {
    const delivered = received.map((request) => ({ request, body: JSON.parse(request.body) as { type: string; data: Record<string, unknown> } }));
    expect(new Set(delivered.map(({ body }) => body.type))).toEqual(new Set(WEBHOOK_EVENT_TYPES));
    for (const { request, body } of delivered) {
      const operation = webhooks[body.type]!.post;
      const validate = ajv.compile(operation.requestBody.content['application/json'].schema);
      expect(validate(body), `${body.type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      for (const parameter of operation.parameters) {
        const value = request.headers[parameter.name.toLowerCase()];
        expect(ajv.validate(parameter.schema, value), `${body.type} ${parameter.name}: ${String(value)}`).toBe(true);
      }
    }
    // The schemas are strict enough to notice a payload that drifted.
    const paid = delivered.find(({ body }) => body.type === 'order.paid')!.body;
    const validatePaid = ajv.compile(webhooks['order.paid']!.post.requestBody.content['application/json'].schema);
    expect(validatePaid({ ...paid, data: { order: { ...(paid.data.order as object), amount: '1.99' } } })).toBe(false);
    expect(validatePaid({ ...paid, type: 'order.refunded' })).toBe(false);
  });

  it('refuses to build a payload its schema does not describe', () => {
    const event = { id: 'evt_x', createdAt: new Date().toISOString(), livemode: true, appId: 1 };
    expect(() => webhookEventBody('items.consumed', { ...event, data: { consumption: { player: 1, sku: 'a', quantity: '1' } } as never })).toThrow();
    expect(JSON.parse(webhookEventBody('test', { ...event, data: { message: 'hi' } }))).toEqual({
      id: 'evt_x',
      type: 'test',
      createdAt: event.createdAt,
      livemode: true,
      game: { id: 1 },
      data: { message: 'hi' },
    });
  });
});
