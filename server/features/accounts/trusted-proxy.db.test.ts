import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { ACCOUNT_LIMITS } from './accounts.service.ts';

/**
 * Behind one trusted proxy the client's address is the one the proxy appended to
 * X-Forwarded-For: whatever a client writes to the left of it cannot reset a per-address limit.
 */
describe.each([
  ['a hop count', '1'],
  ['the proxy address', '127.0.0.1'],
])('per-address limits behind one trusted proxy (TRUST_PROXY as %s)', (_name, trustProxy) => {
  let api: TestApi;
  let csrf: Record<string, string>;
  beforeAll(async () => {
    api = await openTestApi({ TRUST_PROXY: trustProxy });
    csrf = await api.csrfHeaders();
  });
  afterAll(() => api.close());

  /** A failed sign-in that reached the server through the proxy at 127.0.0.1. */
  const failedSignIn = (forwardedFor: string, username: string) =>
    api.app.inject({
      method: 'POST',
      url: '/serve/api/username/login/',
      headers: { ...csrf, 'x-forwarded-for': forwardedFor },
      payload: { username, password: 'wrong password' },
      remoteAddress: '127.0.0.1',
    });

  it('a forged leftmost address does not reset the limit; the address the proxy saw decides', async () => {
    const { limit } = ACCOUNT_LIMITS.loginAddress;
    const client = '203.0.113.9';
    for (let i = 0; i < limit; i++) {
      // The client writes a fresh address of its own each time; the proxy appends the real one.
      const response = await failedSignIn(`198.51.100.${i + 1}, ${client}`, `nobody_${i}`);
      expect(response.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    expect((await failedSignIn(`198.51.100.250, ${client}`, 'nobody_x')).statusCode).toBe(429);
    expect((await failedSignIn(client, 'nobody_y')).statusCode).toBe(429);
    // Another client behind the same proxy is not affected.
    expect((await failedSignIn(`${client}, 203.0.113.10`, 'nobody_z')).statusCode).toBe(401);
  });
});
