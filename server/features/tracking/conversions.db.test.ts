import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSignature } from '#server/features/payments/xsolla.ts';
import { solvedChallenge } from '#server/testing/guest-challenge.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';

interface Received {
  path: string;
  body: { access_token: string; data: Array<Record<string, unknown> & { event_name: string; event_id: string; user_data: { external_id: string[] } }> };
}

/** A local stand-in for Meta's Graph API: it keeps what it is sent and answers as Meta does. */
async function conversionsStandIn(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ path: request.url ?? '', body: JSON.parse(raw) as Received['body'] });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ events_received: 1, fbtrace_id: 'stand-in' }));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`, received };
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const settle = () => new Promise((done) => setTimeout(done, 300));

/** The Conversions API sender (decision 065): the pixel's rules, hashing and event ids, from the server. */
describe('conversions API', () => {
  let api: TestApi;
  let standIn: Awaited<ReturnType<typeof conversionsStandIn>>;
  beforeAll(async () => {
    standIn = await conversionsStandIn();
    api = await openTestApi({ META_PIXEL_ID: '1234567890', META_CONVERSIONS_API_TOKEN: 'capi-test-token', META_CONVERSIONS_API_URL: standIn.url });
  });
  afterAll(async () => {
    await api?.close();
    standIn?.server.close();
  });

  /** A guest from a campaign, then made a member with a password, with or without consent. */
  async function registered(source: string, consent: 'accepted' | 'declined' | null, address: string) {
    const csrf = await api.csrfHeaders();
    const headers = { ...csrf, cookie: `${csrf.cookie}${consent ? `; ad_consent=${consent}` : ''}`, 'utm-source': source, 'utm-campaign': 'spring' };
    const guest = await api.app.inject({ method: 'POST', url: '/serve/api/guest/login/', headers, payload: await solvedChallenge(api.app), remoteAddress: address });
    expect(guest.statusCode, guest.body).toBe(201);
    const { token, userInfo } = guest.json().data as { token: string; userInfo: { uid: number } };
    const member = await api.app.inject({
      method: 'PATCH',
      url: '/serve/api/member/password/',
      headers: { ...headers, authorization: `Bearer ${token}` },
      payload: { username: `capi${randomBytes(4).toString('hex')}`, password: 'Harbour-Lantern-Tricky-9' },
      remoteAddress: address,
    });
    expect(member.statusCode, member.body).toBe(200);
    return { uid: userInfo.uid, token: (member.json().data as { token: string }).token, headers };
  }

  const eventsFor = (id: string) => standIn.received.flatMap((r) => r.body.data).filter((event) => event.event_id === id);

  it('sends a registration from a facebook campaign with consent: the pixel’s event id, the hashed uid, the token', async () => {
    const { uid } = await registered('facebook', 'accepted', '10.8.0.1');
    await expect.poll(() => eventsFor(`registration:${uid}`).length).toBe(1);
    const request = standIn.received.find((r) => r.body.data.some((event) => event.event_id === `registration:${uid}`))!;
    expect(request.path).toBe('/v21.0/1234567890/events');
    expect(request.body.access_token).toBe('capi-test-token');
    expect(request.body.data[0]).toMatchObject({
      event_name: 'CompleteRegistration',
      action_source: 'website',
      user_data: { external_id: [sha256(String(uid))], client_ip_address: '10.8.0.1' },
    });
    // The uid itself never leaves the server.
    expect(JSON.stringify(request.body)).not.toContain(`"${uid}"`);
  });

  it('sends nothing without consent, after a refusal, or for another source', async () => {
    const quiet = [await registered('facebook', null, '10.8.0.2'), await registered('meta', 'declined', '10.8.0.3'), await registered('google', 'accepted', '10.8.0.4')];
    await settle();
    for (const { uid } of quiet) expect(eventsFor(`registration:${uid}`)).toEqual([]);
  });

  it('sends a delivered purchase once, with its amount, currency and hashed order id', async () => {
    const buyer = await registered('meta', 'accepted', '10.8.0.5');
    const appId = (await api.services.database.db.selectFrom('apps').select('id').where('slug', '=', 'alpha').executeTakeFirstOrThrow()).id;
    const pay = await api.app.inject({
      method: 'POST',
      url: `/serve/api/game/pay/${appId}`,
      headers: { ...buyer.headers, authorization: `Bearer ${buyer.token}` },
      payload: { sku: 'alpha-gold-tiles', idempotencyKey: randomBytes(12).toString('base64url') },
    });
    const order = pay.json().data as { id: string };
    const secret = api.config.payments.provider === 'sandbox' ? api.config.payments.webhookSecret : '';
    const payload = JSON.stringify({ notification_type: 'payment', purchase: { total: { currency: 'USD', amount: 1.99 } }, user: { id: String(buyer.uid) }, transaction: { id: 7, external_id: order.id }, custom_parameters: { order_id: order.id } });
    const paid = await api.app.inject({ method: 'POST', url: '/serve/api/payment/xsolla/webhook/', headers: { 'content-type': 'application/json', authorization: `Signature ${webhookSignature(payload, secret)}` }, payload });
    expect(paid.statusCode).toBe(204);
    // The webhook alone sends nothing: the purchase is counted when the game receives it.
    await settle();
    expect(eventsFor(`purchase:${order.id}`)).toEqual([]);

    for (let i = 0; i < 2; i++) {
      const delivered = await api.app.inject({ method: 'POST', url: `/serve/api/game/orders/${order.id}/deliver`, headers: { ...buyer.headers, authorization: `Bearer ${buyer.token}` } });
      expect(delivered.statusCode, delivered.body).toBe(200);
    }
    await expect.poll(() => eventsFor(`purchase:${order.id}`).length).toBe(1);
    await settle();
    expect(eventsFor(`purchase:${order.id}`)).toHaveLength(1);
    expect(eventsFor(`purchase:${order.id}`)[0]).toMatchObject({
      event_name: 'Purchase',
      user_data: { external_id: [sha256(String(buyer.uid))] },
      custom_data: { value: 1.99, currency: 'USD', order_id: sha256(order.id.toLowerCase()) },
    });
  });
});
