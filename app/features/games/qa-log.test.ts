import { describe, expect, it } from 'vitest';
import { logValue, QA_LOG_LIMIT, type QaLogEntry, withTraffic } from './qa-log.ts';

const at = (ms: number) => 1_000_000 + ms;

describe('the QA mode log', () => {
  it('pairs each call with its answer or its error code, and times it', () => {
    let log: QaLogEntry[] = [];
    log = withTraffic(log, { direction: 'from-game', at: at(0), message: { type: 'playport:request', id: 1, method: 'login', params: {} } });
    log = withTraffic(log, { direction: 'from-game', at: at(5), message: { type: 'playport:request', id: 2, method: 'data.get', params: { key: 'best' } } });
    expect(log.map((entry) => entry.kind === 'call' && entry.outcome)).toEqual([null, null]);
    log = withTraffic(log, {
      direction: 'to-game',
      at: at(30),
      message: { type: 'playport:response', id: 2, ok: false, error: { code: 'validation', message: 'Bad key' } },
    });
    log = withTraffic(log, { direction: 'to-game', at: at(40), message: { type: 'playport:response', id: 1, ok: true, result: { user: { uid: 7 } } } });
    expect(log).toEqual([
      { kind: 'call', id: 1, method: 'login', params: {}, at: at(0), outcome: { ok: true, result: { user: { uid: 7 } }, ms: 40 } },
      { kind: 'call', id: 2, method: 'data.get', params: { key: 'best' }, at: at(5), outcome: { ok: false, code: 'validation', message: 'Bad key', ms: 25 } },
    ]);
  });

  it('answers the newest open call of an id, as a restarted game counts from 1 again', () => {
    let log: QaLogEntry[] = [];
    for (const [ms, direction, message] of [
      [0, 'from-game', { type: 'playport:request', id: 1, method: 'login' }],
      [1, 'to-game', { type: 'playport:response', id: 1, ok: true, result: 'first' }],
      [2, 'from-game', { type: 'playport:request', id: 1, method: 'login' }],
      [3, 'to-game', { type: 'playport:response', id: 1, ok: true, result: 'second' }],
    ] as const)
      log = withTraffic(log, { direction, at: at(ms), message });
    expect(log.map((entry) => entry.kind === 'call' && entry.outcome?.ok && entry.outcome.result)).toEqual(['first', 'second']);
  });

  it('lists events the portal sends and the game’s other messages, and leaves out what is not the SDK’s', () => {
    let log: QaLogEntry[] = [];
    log = withTraffic(log, { direction: 'to-game', at: at(0), message: { type: 'playport:event', event: 'purchase', data: { orderId: 'ord_1', sku: 'x' } } });
    log = withTraffic(log, { direction: 'from-game', at: at(1), message: { type: 'playport:loading', progress: 0.5 } });
    log = withTraffic(log, { direction: 'from-game', at: at(2), message: { type: 'webpackOk' } });
    log = withTraffic(log, { direction: 'from-game', at: at(3), message: 'hello' });
    expect(log).toEqual([
      { kind: 'event', event: 'purchase', data: { orderId: 'ord_1', sku: 'x' }, at: at(0) },
      { kind: 'message', direction: 'from-game', type: 'playport:loading', data: { progress: 0.5 }, at: at(1) },
    ]);
  });

  it('keeps the newest lines when it is full', () => {
    let log: QaLogEntry[] = [];
    for (let i = 0; i <= QA_LOG_LIMIT; i++)
      log = withTraffic(log, { direction: 'from-game', at: at(i), message: { type: 'playport:request', id: i, method: 'data.set' } });
    expect(log).toHaveLength(QA_LOG_LIMIT);
    expect(log[0]).toMatchObject({ id: 1 });
  });

  it('shows a value as one short line', () => {
    expect(logValue({ key: 'best', value: 2048 })).toBe('{"key":"best","value":2048}');
    expect(logValue({ token: 'x'.repeat(300), user: { uid: 7 } })).toBe(`{"token":"${'x'.repeat(24)}…","user":{"uid":7}}`);
    expect(logValue(Array.from({ length: 300 }, (_, i) => i))).toHaveLength(400);
    expect(logValue(undefined)).toBe('undefined');
  });
});
