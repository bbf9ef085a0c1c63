import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode, totpStep } from '../two-factor/totp.ts';
import { webhookSignature } from '#server/adapters/payments/xsolla-notifications.ts';
import { systemClock } from '#server/lib/clock.ts';
import { SignInFailuresRepository } from '#server/features/accounts/sign-in-failures.repository.ts';
import { SIGN_IN_FAILURE_LIMITS, SignInFailuresService } from '#server/features/accounts/sign-in-failures.service.ts';
import { insertDeveloperGame } from '#server/testing/developer-games.ts';
import { partialRefundOf } from '#server/testing/test-orders.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { type TestPlayer, testPlayers } from '#server/testing/test-players.ts';
import { injectPaidNotification, startXsollaStandIn } from '#server/testing/xsolla-stand-in.ts';

const XSOLLA = { projectId: '301298', apiKey: 'xsolla-console-key', secret: 'xsolla-console-secret', merchantId: '77001' };
const PASSWORD = 'Harbour-Lantern-Tricky-9';

/*
 * The Console's operations (decision 098) through the API, on a fresh database, with refunds going
 * to the Xsolla stand-in's merchant API over loopback.
 */
describe('console operations', () => {
  let api: TestApi;
  let xsolla: Awaited<ReturnType<typeof startXsollaStandIn>>;
  let appId: number;
  let operator: TestPlayer;
  let nextTransaction = 81_000_000;
  const players = testPlayers(() => api, 98);

  beforeAll(async () => {
    xsolla = await startXsollaStandIn(XSOLLA);
    api = await openTestApi({
      XSOLLA_PROJECT_ID: XSOLLA.projectId,
      XSOLLA_API_KEY: XSOLLA.apiKey,
      XSOLLA_WEBHOOK_SECRET: XSOLLA.secret,
      XSOLLA_SANDBOX: 'true',
      XSOLLA_API_URL: xsolla.url,
      XSOLLA_MERCHANT_ID: XSOLLA.merchantId,
      XSOLLA_MERCHANT_API_URL: xsolla.url,
    });
    appId = (await api.database.db.selectFrom('apps').select('id').where('slug', '=', 'alpha').executeTakeFirstOrThrow()).id;
    operator = await players.newMember();
    expect(await api.services.operators.grant(String(operator.userInfo.uid))).toBe(operator.userInfo.uid);
  });
  afterAll(async () => {
    await api?.close();
    await xsolla?.stop();
  });

  /** A member's paid order, paid by Xsolla's signed notification. */
  async function paidOrder(buyer: TestPlayer): Promise<{ id: string; transactionId: string }> {
    const created = await api.call('POST', `/game/pay/${appId}`, {
      token: buyer.token,
      body: { sku: 'alpha-gold-tiles', idempotencyKey: randomBytes(12).toString('base64url') },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    const transactionId = ++nextTransaction;
    expect((await injectPaidNotification(api.app, XSOLLA.secret, { orderId: id, userId: buyer.userInfo.uid, transactionId })).statusCode).toBe(204);
    return { id, transactionId: String(transactionId) };
  }

  const orderRow = (id: string) => api.database.db.selectFrom('orders').selectAll().where('public_id', '=', id).executeTakeFirstOrThrow();
  const auditCount = async () =>
    Number(
      (
        await api.database.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const signIn = (username: string, password = PASSWORD, address = '198.51.100.20') =>
    api.call('POST', '/username/login/', { body: { username, password }, address });
  async function usernameOf(player: TestPlayer): Promise<string> {
    return (await api.database.db.selectFrom('users').select('username').where('id', '=', player.userInfo.uid).executeTakeFirstOrThrow()).username!;
  }

  it('answers every Console call to operators only: no session 401, a guest, a member and a developer 403, and nothing changes', async () => {
    const buyer = await players.newMember();
    const order = await paidOrder(buyer);
    const guest = await players.newGuest();
    const member = await players.newMember();
    const developer = await players.newMember();
    await api.services.developers.saveProfile(developer.userInfo.uid, { studioName: 'Quayside', contactEmail: 'dev@quayside.test' });
    const uid = buyer.userInfo.uid;
    const calls: [method: 'GET' | 'POST', path: string, body?: unknown][] = [
      ['GET', '/console/overview/'],
      ['GET', `/console/orders/?q=${order.id}`],
      ['GET', `/console/orders/${order.id}`],
      ['POST', `/console/orders/${order.id}/refund`, { reason: 'Charged twice' }],
      ['GET', `/console/members/?q=${uid}`],
      ['GET', `/console/members/${uid}`],
      ['POST', `/console/members/${uid}/clear-lockout`],
      ['POST', `/console/members/${uid}/disable`, { reason: 'Abuse reports' }],
      ['POST', `/console/members/${uid}/enable`, { reason: 'Appeal accepted' }],
      ['POST', `/console/members/${uid}/data-export`, { reason: 'Asked by mail' }],
      ['POST', `/console/members/${uid}/two-factor/remove`, { reason: 'Lost the phone' }],
      ['POST', `/console/members/${uid}/cancel-deletion`, { reason: 'Changed their mind' }],
      ['GET', '/console/acquisition/'],
      ['GET', '/console/audit/'],
    ];
    const before = await auditCount();
    for (const [method, path, body] of calls) {
      for (const [who, token, status] of [
        ['nobody', undefined, 401],
        ['guest', guest.token, 403],
        ['member', member.token, 403],
        ['developer', developer.token, 403],
      ] as const) {
        const response = await api.call(method, path, { token, body });
        expect(response.statusCode, `${who} ${method} ${path}: ${response.body}`).toBe(status);
        expect(response.json().data).toBeNull();
      }
    }
    expect(await auditCount()).toBe(before);
    expect(await api.database.db.selectFrom('data_exports').selectAll().where('user_id', '=', uid).execute()).toEqual([]);
    expect((await orderRow(order.id)).status).toBe('paid');
    expect(xsolla.refunds.filter((r) => r.transactionId === order.transactionId)).toHaveLength(0);
    expect((await api.call('GET', '/member/info/', { token: buyer.token })).statusCode).toBe(200);

    for (const [method, path, body] of calls) {
      const response = await api.call(method, path, { token: operator.token, body });
      // Two-step sign-in is off for this member: removing it is a 409 the operator is allowed to get.
      const expected = path.endsWith('/data-export') ? 201 : path.endsWith('/two-factor/remove') ? 409 : 200;
      expect(response.statusCode, `operator ${method} ${path}: ${response.body}`).toBe(expected);
    }
  });

  it('turns a member’s two-step sign-in off with the reason in the audit log, and shows whether it is on, never the key (decision 145)', async () => {
    const member = await players.newMember();
    const uid = member.userInfo.uid;
    const { secret } = (await api.call('POST', '/user/two-factor/set-up', { token: member.token })).json().data;
    const code = totpCode(secret, totpStep(new Date()));
    expect((await api.call('POST', '/user/two-factor/confirm', { token: member.token, body: { code } })).statusCode).toBe(200);
    const detail = await api.call('GET', `/console/members/${uid}`, { token: operator.token });
    expect(detail.json().data.signIn.twoFactor).toBe(true);
    expect(detail.body).not.toContain(secret);
    const before = await auditCount();
    const removed = await api.call('POST', `/console/members/${uid}/two-factor/remove`, {
      token: operator.token,
      body: { reason: 'Lost the phone; identity checked by the order history' },
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.signIn.twoFactor).toBe(false);
    expect(await auditCount()).toBe(before + 1);
    const audit = (await api.call('GET', `/console/audit/?target_type=member&target_id=${uid}`, { token: operator.token })).json().data;
    expect(audit.entries[0]).toMatchObject({ action: 'member.two_factor_remove', detail: { reason: 'Lost the phone; identity checked by the order history' } });
    expect((await api.call('GET', '/user/two-factor/', { token: member.token })).json().data.enabled).toBe(false);
    // Off already: 409, and no second entry.
    expect((await api.call('POST', `/console/members/${uid}/two-factor/remove`, { token: operator.token, body: { reason: 'Again' } })).statusCode).toBe(409);
    expect(await auditCount()).toBe(before + 1);
  });

  it("prepares an archive of a member's data on their request, with the reason in the audit log, and shows it to the member too (decision 144)", async () => {
    const member = await players.newMember();
    const uid = member.userInfo.uid;
    const tooShort = await api.call('POST', `/console/members/${uid}/data-export`, { token: operator.token, body: { reason: ' x ' } });
    expect(tooShort.statusCode).toBe(422);
    expect((await api.call('POST', '/console/members/999999/data-export', { token: operator.token, body: { reason: 'Asked by phone' } })).statusCode).toBe(404);
    const before = await auditCount();

    const asked = await api.call('POST', `/console/members/${uid}/data-export`, { token: operator.token, body: { reason: 'Asked by mail, ticket 4411' } });
    expect(asked.statusCode).toBe(201);
    expect(asked.json().data.dataExports).toEqual([expect.objectContaining({ byOperator: true })]);
    expect(await auditCount()).toBe(before + 1);
    const audit = (await api.call('GET', `/console/audit/?target_type=member&target_id=${uid}`, { token: operator.token })).json().data;
    expect(audit.entries[0]).toMatchObject({
      operator: { id: operator.userInfo.uid },
      action: 'member.data_export',
      detail: { reason: 'Asked by mail, ticket 4411', exportId: asked.json().data.dataExports[0].id },
    });
    await api.services.memberData.settled();
    const detail = (await api.call('GET', `/console/members/${uid}`, { token: operator.token })).json().data;
    expect(detail.dataExports[0]).toMatchObject({ status: 'ready', byOperator: true });
    const file = await api.app.inject({ method: 'GET', url: detail.dataExports[0].downloadUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    // The member sees it among their own, marked as asked by an operator.
    const own = (await api.call('GET', '/user/data-exports/', { token: member.token })).json().data.exports;
    expect(own).toEqual([expect.objectContaining({ id: detail.dataExports[0].id, byOperator: true, status: 'ready' })]);
    expect((await api.call('GET', '/console/overview/', { token: operator.token })).json().data.dataExportsPending).toBe(0);
  });

  it('counts on the overview the builds and the live games’ changes waiting for review (decision 122)', async () => {
    const overview = async () => {
      const response = await api.call('GET', '/console/overview/', { token: operator.token });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data as { buildsWaiting: number; changesWaiting: number };
    };
    const before = await overview();
    const developer = await players.newMember();
    const game = await insertDeveloperGame(api.database.db, developer.userInfo.uid);
    const now = new Date().toISOString();
    const build = (version: number, status: 'submitted' | 'uploaded' | 'approved') =>
      api.database.db
        .insertInto('game_builds')
        .values({
          app_id: game.id,
          version,
          status,
          entry_path: 'index.html',
          file_count: 1,
          total_bytes: 10,
          archive_bytes: 10,
          uploaded_by: developer.userInfo.uid,
          created_at: now,
          submitted_at: status === 'uploaded' ? null : now,
          reviewed_by: null,
          reviewed_at: null,
          reason: null,
        })
        .execute();
    await build(1, 'submitted');
    await build(2, 'submitted');
    await build(3, 'uploaded');
    await api.database.db
      .insertInto('game_changes')
      .values({
        app_id: game.id,
        metadata: '{}',
        changes: '{}',
        submitted_by: developer.userInfo.uid,
        created_at: now,
        status: 'pending',
        reviewed_by: null,
        reviewed_at: null,
        reason: null,
      })
      .execute();
    expect(await overview()).toMatchObject({ buildsWaiting: before.buildsWaiting + 2, changesWaiting: before.changesWaiting + 1 });
  });

  it('finds an order by its id, the member (id, username, e-mail) or the provider transaction, and shows its events', async () => {
    const buyer = await players.newMember();
    const email = `buyer-${randomBytes(3).toString('hex')}@example.test`;
    expect((await api.call('PATCH', '/member/email/', { token: buyer.token, body: { email } })).statusCode).toBe(200);
    const order = await paidOrder(buyer);
    const username = await usernameOf(buyer);
    for (const q of [order.id, order.transactionId, String(buyer.userInfo.uid), username.toUpperCase(), email.toUpperCase()]) {
      const found = await api.call('GET', `/console/orders/?q=${encodeURIComponent(q)}`, { token: operator.token });
      expect(found.statusCode).toBe(200);
      const items = found.json().data.items as { id: string; member: { id: number; username: string; email: string } }[];
      expect(
        items.map((item) => item.id),
        q,
      ).toContain(order.id);
      expect(items.every((item) => item.member.id === buyer.userInfo.uid)).toBe(true);
    }
    expect((await api.call('GET', '/console/orders/?q=ord_nothing', { token: operator.token })).json().data.items).toEqual([]);
    const detail = await api.call('GET', `/console/orders/${order.id}`, { token: operator.token });
    expect(detail.json().data).toMatchObject({
      order: { id: order.id, status: 'paid', providerReference: order.transactionId, member: { id: buyer.userInfo.uid, username, email } },
      events: [
        { type: 'created', to: 'created' },
        { type: 'payment', from: 'created', to: 'paid' },
      ],
    });
    expect((await api.call('GET', '/console/orders/ord_missing', { token: operator.token })).statusCode).toBe(404);
    expect((await api.call('GET', `/console/orders/?q=${'x'.repeat(201)}`, { token: operator.token })).statusCode).toBe(422);
  });

  it('refunds a paid order through Xsolla once, with the reason in the audit log; again it changes nothing', async () => {
    const buyer = await players.newMember();
    const order = await paidOrder(buyer);
    const auditBefore = await auditCount();
    const tooShort = await api.call('POST', `/console/orders/${order.id}/refund`, { token: operator.token, body: { reason: ' x ' } });
    expect(tooShort.statusCode).toBe(422);
    expect(tooShort.json().data.errors.reason).toHaveLength(1);
    expect(await auditCount()).toBe(auditBefore);

    const refunded = await api.call('POST', `/console/orders/${order.id}/refund`, { token: operator.token, body: { reason: 'Charged twice by the bank' } });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().data).toMatchObject({ refundedNow: true, order: { status: 'refunded' } });
    expect(refunded.json().data.events.at(-1)).toMatchObject({ type: 'operator_refund', from: 'paid', to: 'refunded' });
    expect(xsolla.refunds.filter((r) => r.transactionId === order.transactionId)).toEqual([
      { transactionId: order.transactionId, description: 'Charged twice by the bank' },
    ]);
    const audit = await api.services.auditLog.page({ limit: 10, target: { type: 'order', id: order.id } });
    expect(audit.entries).toMatchObject([{ operatorUserId: operator.userInfo.uid, action: 'order.refund', detail: { reason: 'Charged twice by the bank' } }]);
    // The member no longer owns the item.
    expect(
      (await api.services.payments.items(appId, { userId: buyer.userInfo.uid, tokenId: 0 }, 'en')).find((item) => item.sku === 'alpha-gold-tiles')?.owned,
    ).toBe(false);

    const again = await api.call('POST', `/console/orders/${order.id}/refund`, { token: operator.token, body: { reason: 'Charged twice by the bank' } });
    expect(again.json().data).toMatchObject({ refundedNow: false, order: { status: 'refunded' } });
    expect(xsolla.refunds.filter((r) => r.transactionId === order.transactionId)).toHaveLength(1);
    expect((await api.services.auditLog.page({ limit: 10, target: { type: 'order', id: order.id } })).entries).toHaveLength(1);
    // The provider's own refund notification, arriving later, leaves it refunded.
    expect((await api.call('GET', `/console/orders/${order.id}`, { token: operator.token })).json().data.order.status).toBe('refunded');
  });

  it('refunds part of a paid order through Xsolla, then the rest; more than is left is refused and changes nothing (decision 124)', async () => {
    const buyer = await players.newMember();
    const order = await paidOrder(buyer);
    const refund = (body: object, locale = 'en') =>
      api.call('POST', `/console/orders/${order.id}/refund`, { token: operator.token, body, headers: { locale } });

    const part = await refund({ reason: 'Tiles missing for a day', amount: 50 });
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json().data).toMatchObject({ refundedNow: true, order: { status: 'paid', refundRequestedAt: null } });
    expect(part.json().data.events.at(-1)).toMatchObject({ type: 'operator_partial_refund', from: 'paid', to: 'paid' });
    expect(xsolla.refunds.filter((r) => r.transactionId === order.transactionId)).toEqual([
      { transactionId: order.transactionId, description: 'Tiles missing for a day', refundAmount: 0.5 },
    ]);
    const audit = await api.services.auditLog.page({ limit: 10, target: { type: 'order', id: order.id } });
    expect(audit.entries).toMatchObject([{ action: 'order.refund', detail: { reason: 'Tiles missing for a day', amount: 50 } }]);
    // Xsolla's partial_refund notification makes the amount count.
    const notification = JSON.stringify(partialRefundOf(order, buyer.userInfo.uid, Number(order.transactionId), 0.5, 'Tiles missing for a day'));
    const told = await api.app.inject({
      method: 'POST',
      url: '/serve/api/payment/xsolla/webhook/',
      headers: { 'content-type': 'application/json', authorization: `Signature ${webhookSignature(notification, XSOLLA.secret)}` },
      payload: notification,
    });
    expect(told.statusCode).toBe(204);
    const detail = (await api.call('GET', `/console/orders/${order.id}`, { token: operator.token })).json().data;
    expect(detail.order).toMatchObject({ status: 'paid', refunded: 50, refundedAt: expect.any(String) });

    // More than is left: refused at the field, in the operator's language, and nothing asked of Xsolla.
    const auditBefore = await auditCount();
    const tooMuch = await refund({ reason: 'Everything', amount: 150 }, 'zh-CN');
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().data.errors.amount).toEqual(['此订单最多还可退款 1.49 USD。']);
    expect((await refund({ reason: 'Half a cent', amount: 0.5 })).statusCode).toBe(422);
    expect(xsolla.refunds.filter((r) => r.transactionId === order.transactionId)).toHaveLength(1);
    expect(await auditCount()).toBe(auditBefore);

    // The rest: a whole refund, the order refunded.
    const rest = await refund({ reason: 'Game removed' });
    expect(rest.json().data).toMatchObject({ refundedNow: true, order: { status: 'refunded', refunded: 199 } });
    expect(xsolla.refunds.filter((r) => r.transactionId === order.transactionId).at(-1)).toEqual({
      transactionId: order.transactionId,
      description: 'Game removed',
    });
  });

  it('refuses to refund an order that is not paid, and gives the claim back when the provider refuses', async () => {
    const buyer = await players.newMember();
    const created = await api.call('POST', `/game/pay/${appId}`, {
      token: buyer.token,
      body: { sku: 'alpha-gold-tiles', idempotencyKey: randomBytes(12).toString('base64url') },
    });
    const unpaid = created.json().data.id as string;
    const auditBefore = await auditCount();
    const refused = await api.call('POST', `/console/orders/${unpaid}/refund`, { token: operator.token, body: { reason: 'Never paid' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('order_not_refundable');
    expect((await api.call('POST', '/console/orders/ord_missing/refund', { token: operator.token, body: { reason: 'Nothing' } })).statusCode).toBe(404);

    const order = await paidOrder(await players.newMember());
    // Xsolla does not know this transaction (it answers 404): nothing changes and it may be asked again.
    await api.database.db.updateTable('orders').set({ provider_transaction_id: 'unknown-to-xsolla' }).where('public_id', '=', order.id).execute();
    const failed = await api.call('POST', `/console/orders/${order.id}/refund`, { token: operator.token, body: { reason: 'Provider test' } });
    expect(failed.statusCode).toBe(503);
    expect(await orderRow(order.id)).toMatchObject({ status: 'paid', refund_requested_at: null });
    expect(await auditCount()).toBe(auditBefore);
  });

  it('refunds once when two operators refund the same order at once', async () => {
    const order = await paidOrder(await players.newMember());
    const answers = await Promise.all(
      [1, 2, 3].map(() => api.call('POST', `/console/orders/${order.id}/refund`, { token: operator.token, body: { reason: 'Duplicate purchase' } })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.json().data.refundedNow === true)).toHaveLength(1);
    expect(xsolla.refunds.filter((r) => r.transactionId === order.transactionId)).toHaveLength(1);
    expect((await api.services.auditLog.page({ limit: 10, target: { type: 'order', id: order.id } })).entries).toHaveLength(1);
    expect((await orderRow(order.id)).status).toBe('refunded');
    const events = await api.database.db
      .selectFrom('order_events')
      .innerJoin('orders', 'orders.id', 'order_events.order_id')
      .select('order_events.type')
      .where('orders.public_id', '=', order.id)
      .where('order_events.type', '=', 'operator_refund')
      .execute();
    expect(events).toHaveLength(1);
  });

  it('looks a member up by id, username, e-mail or phone and shows how they sign in and their failed sign-ins', async () => {
    const member = await players.newMember();
    const username = await usernameOf(member);
    const phone = `+4479${String(Date.now()).slice(-8)}`;
    const email = `m-${randomBytes(3).toString('hex')}@example.test`;
    expect((await api.call('PATCH', '/member/email/', { token: member.token, body: { email } })).statusCode).toBe(200);
    expect((await api.call('PATCH', '/member/phone/', { token: member.token, body: { phone } })).statusCode).toBe(200);
    for (const q of [String(member.userInfo.uid), username.toUpperCase(), email, phone]) {
      const found = await api.call('GET', `/console/members/?q=${encodeURIComponent(q)}`, { token: operator.token });
      expect(
        found.json().data.items.map((m: { id: number }) => m.id),
        q,
      ).toEqual([member.userInfo.uid]);
    }
    expect((await api.call('GET', '/console/members/?q=', { token: operator.token })).statusCode).toBe(422);
    expect((await api.call('GET', '/console/members/99999999', { token: operator.token })).statusCode).toBe(404);
    expect((await api.call('GET', '/console/members/abc', { token: operator.token })).statusCode).toBe(422);

    expect((await signIn(username, 'Wrong-Password-1', '198.51.100.7')).statusCode).toBe(401);
    const detail = (await api.call('GET', `/console/members/${member.userInfo.uid}`, { token: operator.token })).json().data;
    expect(detail).toMatchObject({
      member: { id: member.userInfo.uid, username, email, phone, isGuest: false, disabledAt: null },
      signIn: { password: true, passkeys: [], social: [], whatsappPhone: null, sessions: 1 },
      locked: false,
      failures: [{ identifier: username, method: 'password', address: '198.51.100.7' }],
    });
  });

  it('keeps failed sign-ins bounded: the newest 50 of an identifier', async () => {
    const failures = new SignInFailuresService(new SignInFailuresRepository(api.database.db), systemClock);
    const member = await players.newMember();
    const username = await usernameOf(member);
    for (let i = 0; i < SIGN_IN_FAILURE_LIMITS.perIdentifier + 5; i++)
      await failures.record({ userId: member.userInfo.uid, identifier: username, method: 'password', address: `203.0.113.${i}` });
    const kept = await api.database.db.selectFrom('sign_in_failures').select('address').where('identifier', '=', username).orderBy('id').execute();
    expect(kept).toHaveLength(SIGN_IN_FAILURE_LIMITS.perIdentifier);
    expect(kept[0]!.address).toBe('203.0.113.5');
    const shown = (await api.call('GET', `/console/members/${member.userInfo.uid}`, { token: operator.token })).json().data.failures;
    expect(shown).toHaveLength(20);
    expect(shown[0].address).toBe(`203.0.113.${SIGN_IN_FAILURE_LIMITS.perIdentifier + 4}`);
  });

  it('clears a lock-out: the member signs in again from the address that was held back', async () => {
    const member = await players.newMember();
    const username = await usernameOf(member);
    const address = '198.51.100.44';
    for (let i = 0; i < 10; i++) expect((await signIn(username, `Wrong-Password-${i}`, address)).statusCode).toBe(401);
    expect((await signIn(username, PASSWORD, address)).statusCode).toBe(429);
    const locked = (await api.call('GET', `/console/members/${member.userInfo.uid}`, { token: operator.token })).json().data;
    expect(locked.locked).toBe(true);
    expect(locked.failures).toHaveLength(10);

    const cleared = await api.call('POST', `/console/members/${member.userInfo.uid}/clear-lockout`, { token: operator.token });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().data.locked).toBe(false);
    expect((await signIn(username, PASSWORD, address)).statusCode).toBe(200);
    const audit = await api.services.auditLog.page({ limit: 10, target: { type: 'member', id: String(member.userInfo.uid) } });
    expect(audit.entries).toMatchObject([{ action: 'member.clear_lockout', operatorUserId: operator.userInfo.uid }]);
  });

  it('disables an account: its sessions end at once, every sign-in is refused with a clear error, until it is enabled', async () => {
    const member = await players.newMember();
    const username = await usernameOf(member);
    const second = (await signIn(username)).json().data.token as string;
    expect((await api.call('GET', '/member/info/', { token: second })).statusCode).toBe(200);

    const disabled = await api.call('POST', `/console/members/${member.userInfo.uid}/disable`, { token: operator.token, body: { reason: 'Chargeback fraud' } });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json().data).toMatchObject({ member: { disabledAt: expect.any(String) }, signIn: { sessions: 0 } });
    for (const token of [member.token, second]) expect((await api.call('GET', '/member/info/', { token })).statusCode).toBe(401);
    const refused = await signIn(username);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'account_disabled', message: expect.stringMatching(/disabled/) });
    // A guest signing in to it keeps its own account: nothing is merged into a disabled one.
    const guest = await players.newGuest();
    expect(
      (await api.call('POST', '/username/login/', { token: guest.token, body: { username, password: PASSWORD }, address: '198.51.100.20' })).statusCode,
    ).toBe(403);
    expect((await api.call('GET', '/member/info/', { token: guest.token })).statusCode).toBe(200);
    // Both refusals of the right password are the member's to see in the Console, as sign-in failures.
    const refusals = await api.database.db.selectFrom('sign_in_failures').select(['identifier', 'method']).where('user_id', '=', member.userInfo.uid).execute();
    expect(refusals).toEqual([
      { identifier: username, method: 'password' },
      { identifier: username, method: 'password' },
    ]);

    // Disabling twice records once; an operator cannot disable their own account.
    await api.call('POST', `/console/members/${member.userInfo.uid}/disable`, { token: operator.token, body: { reason: 'Chargeback fraud' } });
    const self = await api.call('POST', `/console/members/${operator.userInfo.uid}/disable`, { token: operator.token, body: { reason: 'Oops, myself' } });
    expect(self.statusCode).toBe(409);
    expect((await api.call('GET', '/member/info/', { token: operator.token })).statusCode).toBe(200);

    const enabled = await api.call('POST', `/console/members/${member.userInfo.uid}/enable`, {
      token: operator.token,
      body: { reason: 'Bank confirmed the payment' },
    });
    expect(enabled.json().data.member.disabledAt).toBeNull();
    expect((await signIn(username)).statusCode).toBe(200);
    const audit = await api.services.auditLog.page({ limit: 10, target: { type: 'member', id: String(member.userInfo.uid) } });
    expect(audit.entries.map((e) => [e.action, e.detail.reason])).toEqual([
      ['member.enable', 'Bank confirmed the payment'],
      ['member.disable', 'Chargeback fraud'],
    ]);
  });

  it('shows the audit log newest first, in pages, filtered by target, and offers no way to change it', async () => {
    const member = await players.newMember();
    for (const reason of ['First reason', 'Second reason']) {
      await api.call('POST', `/console/members/${member.userInfo.uid}/disable`, { token: operator.token, body: { reason } });
      await api.call('POST', `/console/members/${member.userInfo.uid}/enable`, { token: operator.token, body: { reason } });
    }
    const target = `target_type=member&target_id=${member.userInfo.uid}`;
    const first = (await api.call('GET', `/console/audit/?${target}`, { token: operator.token })).json().data;
    expect(first.entries.map((e: { action: string }) => e.action)).toEqual(['member.enable', 'member.disable', 'member.enable', 'member.disable']);
    expect(first.entries[0]).toMatchObject({
      operator: { id: operator.userInfo.uid, username: await usernameOf(operator) },
      detail: { reason: 'Second reason' },
    });
    const all = (await api.call('GET', '/console/audit/', { token: operator.token })).json().data;
    expect(all.entries.length).toBeGreaterThan(4);
    const ids = all.entries.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const older = (await api.call('GET', `/console/audit/?${target}&before=${first.entries[1].id}`, { token: operator.token })).json().data;
    expect(older.entries.map((e: { id: number }) => e.id)).toEqual(first.entries.slice(2).map((e: { id: number }) => e.id));
    expect((await api.call('GET', '/console/audit/?target_type=member', { token: operator.token })).statusCode).toBe(422);
    expect((await api.call('GET', '/console/audit/?target_type=planet&target_id=1', { token: operator.token })).statusCode).toBe(422);
    for (const method of ['PUT', 'DELETE', 'PATCH'] as const)
      expect((await api.call(method, `/console/audit/`, { token: operator.token, body: {} })).statusCode).toBe(404);
  });

  it('reports sign-ups and paid orders per campaign', async () => {
    const report = await api.call('GET', '/console/acquisition/?since=2000-01-01', { token: operator.token });
    expect(report.statusCode).toBe(200);
    const rows = report.json().data.rows as { signUps: number; paidOrders: number; revenue: Record<string, number> }[];
    expect(rows.reduce((sum, row) => sum + row.signUps, 0)).toBeGreaterThan(0);
    expect(rows.reduce((sum, row) => sum + row.paidOrders, 0)).toBeGreaterThan(0);
    expect((await api.call('GET', '/console/acquisition/?since=yesterday', { token: operator.token })).statusCode).toBe(422);
  });
});
