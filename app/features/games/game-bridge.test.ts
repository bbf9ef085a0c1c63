import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { bridgeError, bridgeRequestOf, BridgeRefusal } from './game-bridge.ts';

describe('the game bridge', () => {
  it('takes only well-formed requests', () => {
    expect(bridgeRequestOf({ type: 'playport:request', id: 3, method: 'login' })).toEqual({ type: 'playport:request', id: 3, method: 'login', params: {} });
    expect(bridgeRequestOf({ type: 'playport:request', id: 4, method: 'data.set', params: { key: 'k', value: 1 } })?.params).toEqual({ key: 'k', value: 1 });
    for (const bad of [null, 'login', { type: 'playport:game-loaded' }, { type: 'playport:request', id: '1', method: 'login' }, { type: 'playport:request', id: 1.5, method: 'login' }, { type: 'playport:request', id: 1 }]) {
      expect(bridgeRequestOf(bad)).toBeNull();
    }
  });

  it('gives the game a code it can branch on and the portal’s message', () => {
    expect(bridgeError(new ApiError(413, 'This save is 71 KB; a value may be at most 64 KB.', null), 'x')).toEqual({ code: 'payload_too_large', message: 'This save is 71 KB; a value may be at most 64 KB.' });
    expect(bridgeError(new ApiError(401, 'Sign in', null), 'x').code).toBe('unauthenticated');
    expect(bridgeError(new ApiError(500, 'Oops', null), 'x').code).toBe('failed');
    expect(bridgeError(new BridgeRefusal('unknown_method', 'No such call'), 'x')).toEqual({ code: 'unknown_method', message: 'No such call' });
    expect(bridgeError(new TypeError('boom'), 'Something went wrong')).toEqual({ code: 'failed', message: 'Something went wrong' });
  });
});
