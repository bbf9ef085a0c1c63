import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '#common/api/error-codes.ts';
import { ApiError } from '../../lib/api-client.ts';
import { bridgeError, bridgeRequestOf, BridgeRefusal, SDK_ERROR_CODE, SDK_ERROR_CODES } from './game-bridge.ts';

describe('the game bridge', () => {
  it('takes only well-formed requests', () => {
    expect(bridgeRequestOf({ type: 'playport:request', id: 3, method: 'login' })).toEqual({ type: 'playport:request', id: 3, method: 'login', params: {} });
    expect(bridgeRequestOf({ type: 'playport:request', id: 4, method: 'data.set', params: { key: 'k', value: 1 } })?.params).toEqual({ key: 'k', value: 1 });
    for (const bad of [
      null,
      'login',
      { type: 'playport:game-loaded' },
      { type: 'playport:request', id: '1', method: 'login' },
      { type: 'playport:request', id: 1.5, method: 'login' },
      { type: 'playport:request', id: 1 },
    ]) {
      expect(bridgeRequestOf(bad)).toBeNull();
    }
  });

  it('gives the game a code it can branch on and the portal’s message', () => {
    const tooLarge = new ApiError(413, 'This save is 71 KB; a value may be at most 64 KB.', null, { errorCode: 'save_too_large' });
    expect(bridgeError(tooLarge, 'x')).toEqual({ code: 'payload_too_large', message: 'This save is 71 KB; a value may be at most 64 KB.' });
    expect(bridgeError(new ApiError(413, 'Full', null, { errorCode: 'saves_full' }), 'x').code).toBe('payload_too_large');
    expect(bridgeError(new ApiError(401, 'Sign in', null, { errorCode: 'unauthenticated' }), 'x').code).toBe('unauthenticated');
    expect(bridgeError(new ApiError(500, 'Oops', null, { errorCode: 'internal' }), 'x').code).toBe('failed');
    // No envelope, no code: the status alone says nothing the game could act on.
    expect(bridgeError(new ApiError(502, 'Bad gateway', null), 'x').code).toBe('failed');
    expect(bridgeError(new BridgeRefusal('unknown_method', 'No such call'), 'x')).toEqual({ code: 'unknown_method', message: 'No such call' });
    expect(bridgeError(new TypeError('boom'), 'Something went wrong')).toEqual({ code: 'failed', message: 'Something went wrong' });
  });

  it('tells a guest who must secure the account first from any other refusal', () => {
    const guest = new ApiError(403, 'Secure your account first', null, { errorCode: 'account_not_secured' });
    expect(bridgeError(guest, 'x')).toEqual({ code: 'account_not_secured', message: 'Secure your account first' });
    expect(bridgeError(new ApiError(403, 'Refused', null, { errorCode: 'forbidden' }), 'x').code).toBe('forbidden');
  });

  it('maps every code the portal can answer to one of the SDK’s codes', () => {
    for (const code of ERROR_CODES) expect(SDK_ERROR_CODES, code).toContain(SDK_ERROR_CODE[code]);
    expect(SDK_ERROR_CODE.already_owned).toBe('already_owned');
    expect(SDK_ERROR_CODE.not_enough_items).toBe('not_enough_items');
  });

  it('has one list of error codes: the bridge’s, the types’ PlayportErrorCode and the guide’s table are the same', () => {
    const types = readFileSync(new URL('../../../sdk/v1/playport.d.ts', import.meta.url), 'utf8');
    const union = /export type PlayportErrorCode =([^;]+);/.exec(types)?.[1] ?? '';
    const typed = [...union.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
    expect(typed).toEqual([...SDK_ERROR_CODES]);

    const guide = readFileSync(new URL('../../../docs/game-sdk.md', import.meta.url), 'utf8');
    const errors = guide.slice(guide.indexOf('### Errors'));
    const table = errors.slice(0, errors.indexOf('\n\n', errors.indexOf('| code |')));
    const documented = [...table.matchAll(/^\| ([^|]+) \|/gm)].flatMap((row) => [...row[1]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
    expect(documented.toSorted()).toEqual([...SDK_ERROR_CODES].toSorted());

    // The SDK's own refusals are codes of the list too.
    const sdk = readFileSync(new URL('../../../sdk/v1/playport.js', import.meta.url), 'utf8');
    for (const [, code] of sdk.matchAll(/new PlayportError\('([a-z_]+)'/g)) expect(SDK_ERROR_CODES, code).toContain(code);
    // The types declare the class the guide tells games to use.
    expect(types).toMatch(/export declare class PlayportError extends Error/);
    expect(types).toMatch(/readonly PlayportError: typeof PlayportError;/);
  });
});
