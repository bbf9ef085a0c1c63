import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client.ts';
import { type ApiInstance, csrfHeadersFor, openApiInstance } from '#server/testing/api-instance.ts';
import { ManualClock } from '#server/testing/clocks.ts';
import { newStudioCast, type StudioCast } from '#server/testing/developer-games.ts';
import { startPayPalStandIn, type PayPalStandIn } from '#server/testing/paypal-stand-in.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { testPlayers } from '#server/testing/test-players.ts';
import { LedgerRepository } from './ledger.repository.ts';
import { correctionPosting } from './ledger.ts';

const TAX_ID = 'GB-987654321-TAXREF';
const DAY_MS = 86_400_000;

describe('studio payouts (decision 149)', () => {
  let api: TestApi;
  let paypal: PayPalStandIn;
  let cast: StudioCast;
  let env: Record<string, string>;
  const clock = new ManualClock('2026-03-15T12:00:00.000Z');
  let credits = 0;

  beforeAll(async () => {
    paypal = await startPayPalStandIn();
    env = {
      PAYOUTS_PROVIDER: 'paypal',
      PAYPAL_CLIENT_ID: paypal.clientId,
      PAYPAL_CLIENT_SECRET: paypal.clientSecret,
      PAYPAL_API_URL: paypal.url,
      PAYOUT_MINIMUM: '10',
    };
    api = await openTestApi(env, { clock });
    cast = await newStudioCast(api, players, { studioName: 'Paid Studio', contactEmail: 'dev@paid.test' });
  });
  afterAll(async () => {
    await api.close();
    await paypal.close();
  });
  const players = testPlayers(() => api, 155);

  const ledger = () => new LedgerRepository(api.database.db);
  /** Money the studio may be paid at once: a correction, available when posted. */
  async function credit(studio: number, amount: number, currency = 'USD') {
    const postedAt = new Date(clock.time - DAY_MS).toISOString();
    await ledger().transaction((unit) =>
      ledger().post(
        correctionPosting(amount),
        { sourceKey: `test-credit:${(credits += 1)}`, currency, studioUserId: studio, postedAt, heldUntil: postedAt },
        unit,
      ),
    );
  }
  const details = { method: 'paypal', receiver: 'owner@paid.test', legalName: 'Paid Studio Ltd', country: 'gb', taxId: TAX_ID };
  const payoutsOf = (studio: number) => api.database.db.selectFrom('payouts').selectAll().where('studio_user_id', '=', studio).orderBy('id').execute();
  const available = async (studio: number, currency = 'USD') =>
    (await ledger().balances(studio, clock.now().toISOString())).find((b) => b.currency === currency);
  const at = (offsetMs: number) => new Date(clock.time + offsetMs);

  it('keeps payout details for the signed-in studio, validated, with the tax id sealed and shown by its last 4 characters only', async () => {
    const empty = await api.call('GET', '/studio/earnings/payout-details/', { token: cast.owner.token });
    expect(empty.json().data).toEqual({ details: null, methods: ['paypal'], minimum: 10 });
    for (const bad of [
      { ...details, receiver: 'not-an-address' },
      { ...details, country: 'XX' },
      { ...details, country: 'GBR' },
      { ...details, taxId: '<script>' },
      { ...details, legalName: '' },
      { ...details, method: 'stand-in' },
      { ...details, method: 'bank' },
    ]) {
      const refused = await api.call('PUT', '/studio/earnings/payout-details/', { token: cast.owner.token, body: bad });
      expect(refused.statusCode, JSON.stringify(bad)).toBe(422);
    }
    const saved = await api.call('PUT', '/studio/earnings/payout-details/', { token: cast.owner.token, body: details });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.details).toMatchObject({
      method: 'paypal',
      receiver: 'owner@paid.test',
      legalName: 'Paid Studio Ltd',
      country: 'GB',
      taxIdLast4: 'XREF',
    });
    expect(saved.body).not.toContain(TAX_ID);
    const row = await api.database.db.selectFrom('payout_accounts').selectAll().where('studio_user_id', '=', cast.owner.userInfo.uid).executeTakeFirstOrThrow();
    expect(row.tax_id_sealed).toMatch(/^v1\./);
    expect(row.tax_id_sealed).not.toContain('987654321');
    // Left out, the tax id stays; another studio sees only its own details.
    const { taxId: _, ...withoutTaxId } = details;
    const kept = await api.call('PUT', '/studio/earnings/payout-details/', {
      token: cast.owner.token,
      body: { ...withoutTaxId, legalName: 'Paid Studio Limited' },
    });
    expect(kept.json().data.details).toMatchObject({ legalName: 'Paid Studio Limited', taxIdLast4: 'XREF' });
    expect((await api.call('GET', '/studio/earnings/payout-details/', { token: cast.other.token })).json().data.details).toBeNull();
    const audit = await api.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'payout_details.change').execute();
    expect(audit.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(audit)).not.toContain('987654321');
  });

  it('is for studios only: 401 without a session, 403 for a player and a guest, on every route', async () => {
    for (const [method, path] of [
      ['GET', '/studio/earnings/payout-details/'],
      ['PUT', '/studio/earnings/payout-details/'],
      ['GET', '/studio/earnings/payouts/'],
    ] as const) {
      expect((await api.call(method, path, { body: details })).statusCode).toBe(401);
      expect((await api.call(method, path, { token: cast.member.token, body: details })).statusCode).toBe(403);
      expect((await api.call(method, path, { token: cast.guest.token, body: details })).statusCode).toBe(403);
    }
  });

  it('proposes once per studio, currency and month, from the available balance at or above PAYOUT_MINIMUM, even from two instances at once', async () => {
    const owner = cast.owner.userInfo.uid;
    await credit(owner, 12_345);
    await credit(owner, 999, 'EUR'); // below 10 EUR
    await credit(cast.other.userInfo.uid, 50_000); // no payout details: nothing proposed
    const second = await openApiInstance(await api.database.reopen(), { env, clock });
    try {
      const [one, two] = [api.services.payouts, second.services.payouts];
      // At once on PostgreSQL; SQLite in one process writes one transaction at a time.
      const results =
        api.database.kind === 'postgres'
          ? await Promise.all([one.proposePayouts(clock.now()), two.proposePayouts(clock.now())])
          : [await one.proposePayouts(clock.now()), await two.proposePayouts(clock.now())];
      expect(results.map((r) => r.month)).toEqual(['2026-02', '2026-02']);
      expect(results[0]!.proposed + results[1]!.proposed).toBe(1);
    } finally {
      await second.close();
    }
    expect((await api.services.payouts.proposePayouts(clock.now())).proposed).toBe(0);
    const payouts = await payoutsOf(owner);
    expect(payouts.map((p) => [p.status, p.currency, p.amount_minor, p.month])).toEqual([['proposed', 'USD', 12_345, '2026-02']]);
    expect(await payoutsOf(cast.other.userInfo.uid)).toEqual([]);
    const listed = await api.call('GET', '/studio/earnings/payouts/', { token: cast.owner.token });
    expect(listed.json().data.items).toMatchObject([{ status: 'proposed', amountMinor: 12_345, currency: 'USD', month: '2026-02' }]);
  });

  it('lets only operators list, approve and reject; approval moves the amount into transit in the ledger once, with the reason in the audit log', async () => {
    const owner = cast.owner.userInfo.uid;
    const [payout] = await payoutsOf(owner);
    const approve = (token: string) => api.call('POST', `/console/payouts/${payout!.public_id}/approve`, { token, body: { reason: 'monthly payout' } });
    expect((await api.call('GET', '/console/payouts/', { token: cast.owner.token })).statusCode).toBe(403);
    expect((await approve(cast.owner.token)).statusCode).toBe(403);
    expect((await approve(cast.other.token)).statusCode).toBe(403);
    expect((await approve(cast.member.token)).statusCode).toBe(403);
    const listed = await api.call('GET', '/console/payouts/?status=proposed', { token: cast.operator.token });
    expect(listed.json().data.items).toMatchObject([
      { id: payout!.public_id, studio: { id: owner, name: 'Paid Studio' }, amountMinor: 12_345, hasDetails: true },
    ]);
    expect((await api.call('POST', `/console/payouts/${payout!.public_id}/approve`, { token: cast.operator.token, body: { reason: 'x' } })).statusCode).toBe(
      422,
    );
    expect((await api.call('POST', '/console/payouts/po_unknown/approve', { token: cast.operator.token, body: { reason: 'monthly payout' } })).statusCode).toBe(
      404,
    );
    const approved = await approve(cast.operator.token);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data).toMatchObject({ status: 'approved', amountMinor: 12_345 });
    expect((await approve(cast.operator.token)).statusCode).toBe(409);
    expect(await available(owner)).toMatchObject({ available: 0, inTransit: 12_345 });
    const entries = await ledger().entries({ studioUserId: owner });
    expect(entries.filter((e) => e.kind === 'payout').map((e) => e.source_key)).toEqual([`payout:${payout!.id}:payout`]);
    const audit = await api.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'payout.approve').execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.detail)).toMatchObject({ reason: 'monthly payout', amount: 12_345 });
    // What was approved is what is sent: the details cannot change until it has gone.
    const change = await api.call('PUT', '/studio/earnings/payout-details/', {
      token: cast.owner.token,
      body: { ...details, receiver: 'thief@elsewhere.test' },
    });
    expect(change.statusCode).toBe(409);
  });

  it('sends an approved payout through PayPal exactly once, even sent twice, by two instances at once, or again after a crash before its commit', async () => {
    const owner = cast.owner.userInfo.uid;
    const [payout] = await payoutsOf(owner);
    const second = await openApiInstance(await api.database.reopen(), { env, clock });
    try {
      const tried = await Promise.all([api.services.payouts.sendDue(at(0)), second.services.payouts.sendDue(at(0))]);
      expect(tried[0]! + tried[1]!).toBe(1);
    } finally {
      await second.close();
    }
    expect(await api.services.payouts.sendDue(at(0))).toBe(0);
    const sent = (await payoutsOf(owner))[0]!;
    expect(sent.status).toBe('sent');
    const batches = paypal.batches.filter((b) => b.senderBatchId === payout!.public_id);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.item).toMatchObject({ receiver: 'owner@paid.test', amount: { value: '123.45', currency: 'USD' } });
    expect(sent.provider_reference).toBe(batches[0]!.payoutBatchId);
    // The process died after PayPal made the batch and before `sent` committed: the claim runs out and the payout is sent again.
    await api.database.db
      .updateTable('payouts')
      .set({ status: 'approved', provider_reference: null, next_attempt_at: at(0).toISOString() })
      .where('id', '=', sent.id)
      .execute();
    const refusedBefore = paypal.duplicatesRefused();
    await api.services.payouts.sendDue(at(0));
    const again = (await payoutsOf(owner))[0]!;
    expect(again).toMatchObject({ status: 'sent', provider_reference: batches[0]!.payoutBatchId });
    expect(paypal.duplicatesRefused()).toBe(refusedBefore + 1);
    expect(paypal.batches.filter((b) => b.senderBatchId === payout!.public_id)).toHaveLength(1);
  });

  it('writes the result back once: paid, then returned, back in the balance; entries sum to zero', async () => {
    const owner = cast.owner.userInfo.uid;
    const [payout] = await payoutsOf(owner);
    expect(await api.services.payouts.checkDue(at(10 * 60_000))).toBe(1);
    expect((await payoutsOf(owner))[0]!.status).toBe('sent'); // PENDING at PayPal
    paypal.setStatus(payout!.public_id, 'SUCCESS');
    await api.services.payouts.checkDue(at(60 * 60_000));
    await api.services.payouts.checkDue(at(60 * 60_000));
    expect((await payoutsOf(owner))[0]!.status).toBe('paid');
    expect(await available(owner)).toMatchObject({ available: 0, inTransit: 0, paidOut: 12_345 });
    paypal.setStatus(payout!.public_id, 'RETURNED', 'RECEIVER_UNCONFIRMED');
    await api.services.payouts.checkDue(at(2 * DAY_MS));
    expect((await payoutsOf(owner))[0]).toMatchObject({ status: 'returned', failure: 'RECEIVER_UNCONFIRMED' });
    expect(await available(owner)).toMatchObject({ available: 12_345, inTransit: 0, paidOut: 0 });
    await api.services.payouts.checkDue(at(3 * DAY_MS));
    const entries = await ledger().entries({ studioUserId: owner });
    expect(entries.filter((e) => e.payout_id === payout!.id).map((e) => e.kind)).toEqual(['payout', 'payout-sent', 'payout-returned']);
    for (const entry of entries) expect(entry.lines.reduce((sum, l) => sum + l.amount_minor, 0)).toBe(0);
  });

  it('re-proposes after a details change, rejects with a reason, and writes a FAILED payout back to the balance', async () => {
    const other = cast.other.userInfo.uid;
    const put = (receiver: string) =>
      api.call('PUT', '/studio/earnings/payout-details/', {
        token: cast.other.token,
        body: { method: 'paypal', receiver, legalName: 'Other Ltd', country: 'US' },
      });
    expect((await put('first@other.test')).statusCode).toBe(200);
    await api.services.payouts.proposePayouts(clock.now());
    const [first] = await payoutsOf(other);
    expect(first).toMatchObject({ status: 'proposed', amount_minor: 50_000 });
    expect((await put('second@other.test')).statusCode).toBe(200);
    const [reproposed] = await payoutsOf(other);
    expect(reproposed).toMatchObject({ id: first!.id, status: 'proposed' });
    expect(reproposed!.public_id).not.toBe(first!.public_id);
    const op = (action: string, id: string) =>
      api.call('POST', `/console/payouts/${id}/${action}`, { token: cast.operator.token, body: { reason: 'checked the studio' } });
    expect((await op('approve', first!.public_id)).statusCode).toBe(404);
    expect((await op('reject', reproposed!.public_id)).statusCode).toBe(200);
    expect((await op('approve', reproposed!.public_id)).statusCode).toBe(409);
    expect(await available(other)).toMatchObject({ available: 50_000 });

    // Next month: proposed again, approved, sent, and FAILED at PayPal.
    clock.time = Date.parse('2026-04-03T09:00:00.000Z');
    expect((await api.services.payouts.proposePayouts(clock.now())).month).toBe('2026-03');
    const next = (await payoutsOf(other)).find((p) => p.month === '2026-03')!;
    expect((await op('approve', next.public_id)).statusCode).toBe(200);
    await api.services.payouts.sendDue(at(0));
    expect(paypal.batches.find((b) => b.senderBatchId === next.public_id)!.item.receiver).toBe('second@other.test');
    paypal.setStatus(next.public_id, 'FAILED', 'RECEIVER_UNREGISTERED');
    await api.services.payouts.checkDue(at(10 * 60_000));
    await api.services.payouts.checkDue(at(20 * 60_000));
    expect((await payoutsOf(other)).find((p) => p.id === next.id)).toMatchObject({ status: 'failed', failure: 'RECEIVER_UNREGISTERED' });
    expect(await available(other)).toMatchObject({ available: 50_000, inTransit: 0, paidOut: 0 });
    const entries = await ledger().entries({ studioUserId: other });
    expect(entries.filter((e) => e.payout_id === next.id).map((e) => e.kind)).toEqual(['payout', 'payout-failed']);
    for (const entry of entries) expect(entry.lines.reduce((sum, l) => sum + l.amount_minor, 0)).toBe(0);
  });

  it('never writes the tax id to the request log', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    let handle: DatabaseHandle | null = null;
    let logged: ApiInstance | null = null;
    try {
      handle = await api.database.reopen();
      logged = await openApiInstance(handle, { env, clock, logger: { level: 'trace', stream } });
      const csrf = await csrfHeadersFor(logged.app);
      const put = (body: object) =>
        logged!.app.inject({
          method: 'PUT',
          url: '/serve/api/studio/earnings/payout-details/',
          headers: { ...csrf, authorization: `Bearer ${cast.owner.token}` },
          payload: body,
        });
      expect((await put(details)).statusCode).toBe(200);
      expect((await put({ ...details, taxId: `${TAX_ID}<>` })).statusCode).toBe(422);
      expect(
        (
          await logged.app.inject({
            method: 'GET',
            url: '/serve/api/studio/earnings/payout-details/',
            headers: { authorization: `Bearer ${cast.owner.token}` },
          })
        ).statusCode,
      ).toBe(200);
    } finally {
      await logged?.close();
      await handle?.close();
    }
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain('987654321');
  });
});
