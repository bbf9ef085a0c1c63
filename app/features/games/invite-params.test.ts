import { describe, expect, it } from 'vitest';
import { inviteLink, inviteParamsOf, paramsOfSearch } from './invite-params.ts';

describe('invite links', () => {
  it('carries valid parameters in the play page query, and reads them back', () => {
    const checked = inviteParamsOf({ level: 3, seed: 'a b&c', hard: true });
    expect(checked).toEqual({ ok: true, params: { level: '3', seed: 'a b&c', hard: 'true' } });
    const link = inviteLink('http://localhost:3000/en/play/breakout?p_old=1&utm_source=x#top', checked.ok ? checked.params : {});
    expect(link).toBe('http://localhost:3000/en/play/breakout?p_level=3&p_seed=a+b%26c&p_hard=true');
    expect(paramsOfSearch(new URL(link).search)).toEqual({ level: '3', seed: 'a b&c', hard: 'true' });
  });

  it('refuses what would make a link long, odd or unsafe', () => {
    const refused = [
      null,
      'level=3',
      [1, 2],
      Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, 'v'])),
      { '1st': 'x' },
      { 'with-dash': 'x' },
      { ['k'.repeat(33)]: 'x' },
      { nested: { a: 1 } },
      { n: Number.NaN },
      { n: null },
      { long: 'x'.repeat(201) },
      { bell: 'a\u0007b' },
      Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'x'.repeat(199)])),
    ];
    for (const input of refused) expect(inviteParamsOf(input).ok, JSON.stringify(input)).toBe(false);
  });

  it('reads only valid p_ entries of a query, the first of each, at most 8', () => {
    const query = `?p_a=1&p_a=2&utm_source=x&p_=empty&p_bad-key=1&p_long=${'x'.repeat(300)}&${Array.from({ length: 10 }, (_, i) => `p_k${i}=${i}`).join('&')}`;
    expect(paramsOfSearch(query)).toEqual({ a: '1', k0: '0', k1: '1', k2: '2', k3: '3', k4: '4', k5: '5', k6: '6' });
  });
});
