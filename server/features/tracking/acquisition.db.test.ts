import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solvedChallenge } from '#server/testing/guest-challenge.ts';
import { appIdOf, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { injectPaidNotification } from '#server/testing/xsolla-stand-in.ts';
import { AcquisitionRepository } from './acquisition.repository.ts';

/** The campaign tags stay with the accounts and orders they brought, and the report counts them per source. */
describe('acquisition', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi();
  });
  afterAll(() => api?.close());

  const FACEBOOK = { 'utm-source': 'facebook', 'utm-medium': 'paid%20social', 'utm-campaign': 'spring' };

  async function guest(headers: Record<string, string>, address: string) {
    const response = await api.call('POST', '/guest/login/', { body: await solvedChallenge(api.app), headers, address });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { token: string; userInfo: { uid: number } };
  }

  it('keeps a new guest’s campaign tags, and a paid order’s, and reports them per source, medium and campaign', async () => {
    const tagged = await guest(FACEBOOK, '10.7.0.1');
    await guest(FACEBOOK, '10.7.0.2');
    await guest({}, '10.7.0.3');
    const row = await api.services.database.db.selectFrom('users').select('campaign').where('id', '=', tagged.userInfo.uid).executeTakeFirstOrThrow();
    expect(JSON.parse(row.campaign!)).toEqual({ source: 'facebook', medium: 'paid social', campaign: 'spring' });

    // The tagged guest becomes a member and buys; the order keeps the tags of its request.
    const member = (
      await api.call('PATCH', '/member/password/', {
        token: tagged.token,
        body: { username: `acq${randomBytes(4).toString('hex')}`, password: 'Harbour-Lantern-Tricky-9' },
      })
    ).json().data as { token: string };
    const appId = await appIdOf(api.database, 'alpha');
    const order = (
      await api.call('POST', `/game/pay/${appId}`, {
        token: member.token,
        headers: FACEBOOK,
        body: { sku: 'alpha-gold-tiles', idempotencyKey: randomBytes(12).toString('base64url') },
      })
    ).json().data as { id: string };
    const secret = api.config.payments.provider === 'sandbox' ? api.config.payments.webhookSecret : '';
    const paid = await injectPaidNotification(api.app, secret, { orderId: order.id, userId: tagged.userInfo.uid, transactionId: 5 });
    expect(paid.statusCode).toBe(204);

    const rows = await new AcquisitionRepository(api.services.database.db).report('1970-01-01T00:00:00.000Z');
    expect(rows.find((r) => r.source === 'facebook')).toEqual({
      source: 'facebook',
      medium: 'paid social',
      campaign: 'spring',
      signUps: 2,
      members: 1,
      paidOrders: 1,
      revenue: { USD: 199 },
    });
    expect(rows.find((r) => r.source === '(none)')?.signUps).toBeGreaterThanOrEqual(1);

    // The command prints the same, from the configured database.
    const { stdout } = await promisify(execFile)(process.execPath, [resolve(import.meta.dirname, '../../../scripts/report.ts'), 'acquisition'], {
      env: { ...process.env, ...api.database.env, LOG_LEVEL: 'silent' },
    });
    expect(stdout).toMatch(/facebook\s+paid social\s+spring\s+2\s+1\s+1\s+1\.99 USD/);
  });
});
