import { describe, expect, it } from 'vitest';
import { retryDelay } from './retry-policy.ts';

const attempt = (status: number | null, extra: { method?: string; retryAfter?: string | null; once?: boolean } = {}) =>
  retryDelay({ method: extra.method ?? 'POST', status, retryAfter: extra.retryAfter ?? null, once: extra.once ?? false });

describe('retry policy', () => {
  it('never sends a final 4xx again: a conflict, a refusal, bad input', () => {
    for (const status of [400, 401, 403, 404, 409, 410, 413, 422]) {
      expect(attempt(status), String(status)).toBeNull();
      expect(attempt(status, { method: 'GET' }), `GET ${status}`).toBeNull();
    }
  });

  it('retries what may pass: no response, a refreshed CSRF cookie, timeouts, too many requests, gateways', () => {
    expect(attempt(null)).toBe(1000);
    for (const status of [408, 419, 425, 429, 502, 503, 504]) expect(attempt(status), String(status)).toBe(1000);
  });

  it('retries a 500 for a read only: a write may have been done', () => {
    expect(attempt(500, { method: 'GET' })).toBe(1000);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(attempt(500, { method }), method).toBeNull();
  });

  it('follows a short Retry-After and gives up on a long one', () => {
    expect(attempt(503, { retryAfter: '5' })).toBe(5000);
    expect(attempt(429, { retryAfter: '0' })).toBe(1000);
    expect(attempt(429, { retryAfter: '6' })).toBeNull();
    expect(attempt(429, { retryAfter: 'Wed, 21 Oct 2026 07:28:00 GMT' })).toBe(1000);
  });

  it('sends a single-use call again only after a 419, which the server refused before reading it', () => {
    expect(attempt(null, { once: true })).toBeNull();
    expect(attempt(503, { once: true })).toBeNull();
    expect(attempt(419, { once: true })).toBe(1000);
  });
});
