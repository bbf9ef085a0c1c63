import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '#common/api/error-codes.ts';
import { ApiError } from '../../lib/api-client.ts';
import { bridgeError } from './game-bridge.ts';
import { isRecordsMethod } from './records-bridge.ts';

/** The SDK code a game gets for a refusal of the portal. */
const code = (errorCode: ErrorCode, status: number) => bridgeError(new ApiError(status, 'refused', null, { errorCode }), 'x').code;

describe('leaderboard and achievement calls of the game bridge', () => {
  it('answers the five calls of SDK 1.1 and nothing else', () => {
    for (const method of ['leaderboard.submit', 'leaderboard.top', 'leaderboard.around', 'achievements.unlock', 'achievements.list'])
      expect(isRecordsMethod(method), method).toBe(true);
    for (const method of ['leaderboard', 'achievements.reset', 'data.get', 'pay']) expect(isRecordsMethod(method), method).toBe(false);
  });

  it('gives a game its own codes for a score out of bounds and a backend-only record, and the usual ones otherwise', () => {
    expect(code('score_out_of_bounds', 422)).toBe('score_out_of_bounds');
    expect(code('backend_only', 403)).toBe('backend_only');
    expect(code('rate_limited', 429)).toBe('too_many_requests');
    expect(code('not_found', 404)).toBe('not_found');
    // A game never sees a backend signature refusal: it is not its call.
    expect(code('signature_invalid', 401)).toBe('failed');
  });
});
