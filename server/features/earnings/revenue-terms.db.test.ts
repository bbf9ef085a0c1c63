import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioRevenueTerms } from '#common/api/earnings-console.schema.ts';
import { fixtureGameIds, type TestApi } from '#server/testing/test-api.ts';
import { closeTestApiWithXsolla, openTestApiWithXsolla, partialRefundOf, refundOf, testOrders, type XsollaStandIn } from '#server/testing/test-orders.ts';
import { testPlayers, type TestPlayer } from '#server/testing/test-players.ts';
import { LedgerRepository } from './ledger.repository.ts';

const DAY_MS = 86_400_000;
const termsUrl = (userId: number) => `/console/studios/${userId}/terms`;
const dayFrom = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

/*
 * Studios' revenue terms in the Console (decision 149), through the API: operators only, a member
 * without a studio profile has none, the rules of a share and a start, the audit log; and the
 * terms in force when an order was paid split it and its later refunds, whatever terms start after.
 */
describe('revenue terms in the Console', () => {
  let api: TestApi;
  let xsolla: XsollaStandIn;
  let appId: number;
  let studio: TestPlayer;
  let operator: TestPlayer;
  let buyer: TestPlayer;
  const players = testPlayers(() => api, 160);
  const { buy, notify } = testOrders(() => api, { appId: () => appId, firstTransaction: 1_600_000 });

  beforeAll(async () => {
    ({ api, xsolla } = await openTestApiWithXsolla());
    ({ appId } = await fixtureGameIds(api.database));
    [studio, operator, buyer] = [await players.newMember(), await players.newMember(), await players.newMember()];
    await api.services.developers.saveProfile(studio.userInfo.uid, { studioName: 'Terms Studio', contactEmail: 'terms@studio.test' });
    await api.database.db.updateTable('apps').set({ developer_user_id: studio.userInfo.uid }).where('id', '=', appId).execute();
    await api.services.operators.grant(String(operator.userInfo.uid));
  });
  afterAll(() => closeTestApiWithXsolla({ api, xsolla }));

  const setTerms = (body: object, as: TestPlayer | null = operator, userId = studio.userInfo.uid) =>
    api.call('POST', termsUrl(userId), { ...(as ? { token: as.token } : {}), body });
  const paymentOfOrder = async (publicId: string) => {
    const row = await api.database.db.selectFrom('orders').select('id').where('public_id', '=', publicId).executeTakeFirstOrThrow();
    return new LedgerRepository(api.database.db).entries({ orderId: row.id });
  };

  it('answers operators only: no session 401, a studio or a buyer 403, and nothing is recorded', async () => {
    expect((await api.call('GET', termsUrl(studio.userInfo.uid))).statusCode).toBe(401);
    for (const caller of [studio, buyer]) {
      expect((await api.call('GET', termsUrl(studio.userInfo.uid), { token: caller.token })).statusCode).toBe(403);
      expect((await setTerms({ sharePercent: 90, startsAt: dayFrom(0), reason: 'I would like more' }, caller)).statusCode).toBe(403);
    }
    expect((await setTerms({ sharePercent: 90, startsAt: dayFrom(0), reason: 'no session' }, null)).statusCode).toBe(401);
    expect(await api.database.db.selectFrom('revenue_terms').selectAll().execute()).toEqual([]);
  });

  it('has no terms for a member without a studio profile, nor for no member, and sets none for them (404)', async () => {
    for (const userId of [buyer.userInfo.uid, 987_654_321]) {
      const answer = await api.call('GET', termsUrl(userId), { token: operator.token });
      expect(answer.statusCode).toBe(200);
      expect(answer.json().data).toEqual({ studio: null, defaultSharePercent: 70, currentSharePercent: 70, terms: [] });
      expect((await setTerms({ sharePercent: 50, startsAt: dayFrom(0), reason: 'not a studio' }, operator, userId)).statusCode).toBe(404);
    }
    expect(await api.database.db.selectFrom('revenue_terms').selectAll().execute()).toEqual([]);
  });

  it('shows the default share until terms are set', async () => {
    const answer = await api.call('GET', termsUrl(studio.userInfo.uid), { token: operator.token });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toEqual({
      studio: { userId: studio.userInfo.uid, studioName: 'Terms Studio' },
      defaultSharePercent: 70,
      currentSharePercent: 70,
      terms: [],
    });
  });

  it('refuses a share outside 0–100 or with more than 2 decimals, a start in the past, too far ahead or unreadable, and a short reason (422)', async () => {
    for (const body of [
      { sharePercent: 100.5, startsAt: dayFrom(0), reason: 'too much' },
      { sharePercent: -1, startsAt: dayFrom(0), reason: 'too little' },
      { sharePercent: 70.125, startsAt: dayFrom(0), reason: 'three decimals' },
      { sharePercent: '70', startsAt: dayFrom(0), reason: 'a string' },
      { sharePercent: 70, startsAt: dayFrom(-1), reason: 'yesterday' },
      { sharePercent: 70, startsAt: dayFrom(6 * 366), reason: 'far ahead' },
      { sharePercent: 70, startsAt: 'next monday', reason: 'unreadable' },
      { sharePercent: 70, startsAt: dayFrom(0), reason: 'no' },
    ]) {
      const answer = await setTerms(body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(422);
    }
    const past = await setTerms({ sharePercent: 70, startsAt: dayFrom(-1), reason: 'yesterday' });
    expect(past.json().data.errors.startsAt).toEqual(['The start cannot be in the past: orders already paid keep their share.']);
    expect(await api.database.db.selectFrom('revenue_terms').selectAll().execute()).toEqual([]);
  });

  it('splits an order at the terms in force when it was paid, and its later refunds too, after new terms start', async () => {
    // 55.55% from now on (a start earlier today means now), with the reason in the audit log.
    const first = await setTerms({ sharePercent: 55.55, startsAt: dayFrom(0), reason: 'Launch partner' });
    expect(first.statusCode, first.body).toBe(201);
    const set = first.json().data as StudioRevenueTerms;
    expect(set.currentSharePercent).toBe(55.55);
    expect(set.terms).toMatchObject([{ sharePercent: 55.55, reason: 'Launch partner' }]);
    expect(Date.parse(set.terms[0]!.startsAt)).toBeLessThanOrEqual(Date.now());
    const audit = await api.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'studio.revenue_terms').execute();
    expect(audit).toMatchObject([{ operator_user_id: operator.userInfo.uid, target_type: 'member', target_id: String(studio.userInfo.uid) }]);
    expect(JSON.parse(audit[0]!.detail)).toEqual({ reason: 'Launch partner', sharePercent: 55.55, startsAt: set.terms[0]!.startsAt });

    const early = await buy(buyer, 'alpha-gold-tiles');
    // Terms scheduled for later do not apply yet; terms from now on do, for orders paid from now on.
    expect((await setTerms({ sharePercent: 10, startsAt: dayFrom(30), reason: 'Scheduled review' })).statusCode).toBe(201);
    const now = await setTerms({ sharePercent: 80, startsAt: dayFrom(0), reason: 'Renegotiated' });
    expect((now.json().data as StudioRevenueTerms).currentSharePercent).toBe(80);
    const late = await buy(buyer, 'alpha-night-theme');

    // The early order's refunds, after the new terms started: at its own 55.55%.
    expect((await notify(partialRefundOf(early, buyer.userInfo.uid, early.transaction, 0.99, 'one unused'))).statusCode).toBe(204);
    expect((await notify(refundOf(early, buyer.userInfo.uid, early.transaction))).statusCode).toBe(204);
    const earlyEntries = await paymentOfOrder(early.id);
    expect(earlyEntries.map((e) => [e.kind, e.share_bp, e.gross_minor, e.studio_minor])).toEqual([
      ['payment', 5555, 199, 110],
      ['refund', 5555, -99, -54],
      ['refund', 5555, -100, -56],
    ]);
    const lateEntries = await paymentOfOrder(late.id);
    expect(lateEntries.map((e) => [e.kind, e.share_bp, e.gross_minor, e.studio_minor])).toEqual([['payment', 8000, 99, 79]]);

    const listed = (await api.call('GET', termsUrl(studio.userInfo.uid), { token: operator.token })).json().data as StudioRevenueTerms;
    expect(listed.terms.map((t) => t.sharePercent)).toEqual([10, 80, 55.55]);
    expect(listed.currentSharePercent).toBe(80);
  });
  it("corrects a studio's balance by a new entry, once per key, operators only, with the reason in the audit log", async () => {
    const url = `/console/studios/${studio.userInfo.uid}/corrections`;
    const body = { amount: 500, currency: 'USD', reason: 'Fee charged twice in March', idempotencyKey: 'fix-march-fee-1' };
    const before = (await api.services.ledger.balances(studio.userInfo.uid)).find((b) => b.currency === 'USD');
    const entriesBefore = (await new LedgerRepository(api.database.db).entries({ studioUserId: studio.userInfo.uid })).length;
    // Not an operator, no session, not a studio, bad input: nothing is posted.
    expect((await api.call('POST', url, { token: studio.token, body })).statusCode).toBe(403);
    expect((await api.call('POST', url, { body })).statusCode).toBe(401);
    expect((await api.call('POST', `/console/studios/${buyer.userInfo.uid}/corrections`, { token: operator.token, body })).statusCode).toBe(404);
    for (const bad of [{ amount: 0 }, { amount: 1.5 }, { currency: 'usd' }, { reason: 'x' }, { idempotencyKey: 'short' }, { amount: 1e12 }])
      expect((await api.call('POST', url, { token: operator.token, body: { ...body, ...bad } })).statusCode, JSON.stringify(bad)).toBe(422);
    expect((await new LedgerRepository(api.database.db).entries({ studioUserId: studio.userInfo.uid })).length).toBe(entriesBefore);

    const first = await api.call('POST', url, { token: operator.token, body });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({ posted: true, amount: 500, currency: 'USD' });
    // Sent again (a double click, a retry): posted once.
    expect((await api.call('POST', url, { token: operator.token, body })).json().data.posted).toBe(false);
    const entries = await new LedgerRepository(api.database.db).entries({ studioUserId: studio.userInfo.uid });
    const corrections = entries.filter((e) => e.kind === 'correction');
    expect(corrections).toHaveLength(1);
    expect(corrections[0]!.note).toBe('Fee charged twice in March');
    expect(corrections[0]!.lines.map((l) => [l.account, l.amount_minor])).toEqual([
      ['studio', 500],
      ['platform', -500],
    ]);
    // A correction counts at once; a negative one takes back.
    const after = (await api.services.ledger.balances(studio.userInfo.uid)).find((b) => b.currency === 'USD')!;
    expect(after.available).toBe((before?.available ?? 0) + 500);
    const back = await api.call('POST', url, { token: operator.token, body: { ...body, amount: -200, idempotencyKey: 'fix-march-fee-2' } });
    expect(back.statusCode).toBe(201);
    expect((await api.services.ledger.balances(studio.userInfo.uid)).find((b) => b.currency === 'USD')!.available).toBe(after.available - 200);
    const audit = await api.database.db.selectFrom('audit_log').select(['action', 'detail']).where('action', '=', 'studio.ledger_correction').execute();
    expect(audit.map((a) => JSON.parse(a.detail))).toEqual([
      { reason: 'Fee charged twice in March', amount: 500, currency: 'USD' },
      { reason: 'Fee charged twice in March', amount: -200, currency: 'USD' },
    ]);
  });
});
