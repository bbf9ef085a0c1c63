import { createHash, createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiInstance } from '#server/testing/api-instance.ts';
import { startConversionsApiStandIn } from '#server/testing/conversions-api-stand-in.ts';
import { solvedChallenge } from '#server/testing/guest-challenge.ts';
import { appIdOf, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { injectPaidNotification } from '#server/testing/xsolla-stand-in.ts';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** The Conversions API sender (decision 065): the pixel's rules, hashing and event ids, from the server. */
describe('conversions API', () => {
  let api: TestApi;
  let standIn: Awaited<ReturnType<typeof startConversionsApiStandIn>>;
  /** The keyed hash Meta gets for a value: HMAC-SHA256 under a key derived from APP_SECRET (decision 065). */
  let keyed: (value: string) => string;
  beforeAll(async () => {
    standIn = await startConversionsApiStandIn();
    api = await openTestApi({ META_PIXEL_ID: '1234567890', META_CONVERSIONS_API_TOKEN: 'capi-test-token', META_CONVERSIONS_API_URL: standIn.url });
    const key = createHmac('sha256', api.config.appSecret).update('meta-external-id').digest();
    keyed = (value) => createHmac('sha256', key).update(value).digest('hex');
  });
  afterAll(async () => {
    await api?.close();
    await standIn?.stop();
  });

  /** A guest from a campaign, then made a member with a password, with or without consent. */
  async function registered(source: string, consent: 'accepted' | 'declined' | null, address: string) {
    const csrf = await api.csrfHeaders();
    const headers = { ...csrf, cookie: `${csrf.cookie}${consent ? `; ad_consent=${consent}` : ''}`, 'utm-source': source, 'utm-campaign': 'spring' };
    const guest = await api.app.inject({
      method: 'POST',
      url: '/serve/api/guest/login/',
      headers,
      payload: await solvedChallenge(api.app),
      remoteAddress: address,
    });
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

  /** What the pixel gets from GET /tracking/ids/ for this member (and an order). */
  async function pixelIds(member: { token: string; headers: Record<string, string> }, orderId?: string) {
    const response = await api.app.inject({
      method: 'GET',
      url: `/serve/api/tracking/ids/${orderId ? `?order_id=${orderId}` : ''}`,
      headers: { ...member.headers, authorization: `Bearer ${member.token}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { externalId: string; registrationEventId: string; purchase: { eventId: string; orderId: string } | null };
  }

  it('sends a registration from a facebook campaign with consent: the pixel’s event id, the keyed hash of the uid, the token', async () => {
    const member = await registered('facebook', 'accepted', '10.8.0.1');
    const { uid } = member;
    const eventId = keyed(`registration:${uid}`);
    await expect.poll(() => eventsFor(eventId).length).toBe(1);
    const request = standIn.received.find((r) => r.body.data.some((event) => event.event_id === eventId))!;
    expect(request.path).toBe('/v21.0/1234567890/events');
    expect(request.body.access_token).toBe('capi-test-token');
    expect(request.body.data[0]).toMatchObject({
      event_name: 'CompleteRegistration',
      action_source: 'website',
      user_data: { external_id: [keyed(String(uid))], client_ip_address: '10.8.0.1' },
    });
    // The pixel is handed the same event id and external id, so Meta keeps one of the two events.
    expect(await pixelIds(member)).toEqual({ externalId: keyed(String(uid)), registrationEventId: eventId, purchase: null });
    // Neither the uid, nor its plain SHA-256 (undone by counting), nor the readable event id leaves the server.
    const sent = JSON.stringify(request.body);
    expect(sent).not.toContain(`"${uid}"`);
    expect(sent).not.toContain(sha256(String(uid)));
    expect(sent).not.toContain('registration:');
  });

  it('hands the pixel its ids only for a measurable visitor with a session, and only with a pixel configured', async () => {
    const member = await registered('meta', 'accepted', '10.8.0.6');
    const ask = (headers: Record<string, string>, instance = api.app) => instance.inject({ method: 'GET', url: '/serve/api/tracking/ids/', headers });
    const bearer = { authorization: `Bearer ${member.token}` };
    expect((await ask({ ...member.headers, ...bearer })).statusCode).toBe(200);
    expect((await ask(member.headers)).statusCode).toBe(401);
    expect(
      (await ask({ ...bearer, cookie: member.headers.cookie!.replace('ad_consent=accepted', 'ad_consent=declined'), 'utm-source': 'meta' })).statusCode,
    ).toBe(403);
    expect((await ask({ ...bearer, cookie: member.headers.cookie!, 'utm-source': 'google' })).statusCode).toBe(403);
    const badOrder = await api.app.inject({ method: 'GET', url: '/serve/api/tracking/ids/?order_id=../../x', headers: { ...member.headers, ...bearer } });
    expect(badOrder.statusCode).toBe(422);
    const withoutPixel = await openApiInstance(api.database);
    try {
      expect((await ask({ ...member.headers, ...bearer }, withoutPixel.app)).statusCode).toBe(404);
    } finally {
      await withoutPixel.close();
    }
  });

  it('sends nothing without consent, after a refusal, or for another source', async () => {
    const quiet = [
      await registered('facebook', null, '10.8.0.2'),
      await registered('meta', 'declined', '10.8.0.3'),
      await registered('google', 'accepted', '10.8.0.4'),
    ];
    await api.services.conversionsApi!.settled();
    for (const { uid } of quiet)
      expect(standIn.received.flatMap((r) => r.body.data).filter((event) => event.user_data.external_id.includes(keyed(String(uid))))).toEqual([]);
  });

  it('sends a delivered purchase once, with its amount, currency and hashed order id', async () => {
    const buyer = await registered('meta', 'accepted', '10.8.0.5');
    const appId = await appIdOf(api.database, 'alpha');
    const pay = await api.app.inject({
      method: 'POST',
      url: `/serve/api/game/pay/${appId}`,
      headers: { ...buyer.headers, authorization: `Bearer ${buyer.token}` },
      payload: { sku: 'alpha-gold-tiles', idempotencyKey: randomBytes(12).toString('base64url') },
    });
    const order = pay.json().data as { id: string };
    const secret = api.config.payments.provider === 'sandbox' ? api.config.payments.webhookSecret : '';
    const paid = await injectPaidNotification(api.app, secret, { orderId: order.id, userId: buyer.uid, transactionId: 7 });
    expect(paid.statusCode).toBe(204);
    const eventId = keyed(`purchase:${order.id}`);
    // The webhook alone sends nothing: the purchase is counted when the game receives it.
    await api.services.conversionsApi!.settled();
    expect(eventsFor(eventId)).toEqual([]);

    for (let i = 0; i < 2; i++) {
      const delivered = await api.app.inject({
        method: 'POST',
        url: `/serve/api/game/orders/${order.id}/deliver`,
        headers: { ...buyer.headers, authorization: `Bearer ${buyer.token}` },
      });
      expect(delivered.statusCode, delivered.body).toBe(200);
    }
    await expect.poll(() => eventsFor(eventId).length).toBe(1);
    await api.services.conversionsApi!.settled();
    expect(eventsFor(eventId)).toHaveLength(1);
    expect(eventsFor(eventId)[0]).toMatchObject({
      event_name: 'Purchase',
      user_data: { external_id: [keyed(String(buyer.uid))] },
      custom_data: { value: 1.99, currency: 'USD', order_id: keyed(`order:${order.id}`) },
    });
    // The pixel gets the same ids for this order; the order id itself never reaches Meta.
    expect((await pixelIds(buyer, order.id)).purchase).toEqual({ eventId, orderId: keyed(`order:${order.id}`) });
    expect(JSON.stringify(standIn.received)).not.toContain(order.id);
  });
});
