import { describe, expect, it } from 'vitest';
import { loadedGameName, loadingProgressOf } from './game-loading.ts';

const LOADED = 'playport:game-loaded';
const game = { slug: 'snake', sdk: { loadedMessage: LOADED } } as const;

describe('a game’s "loaded" message', () => {
  it('gives the name the game sends', () => {
    expect(loadedGameName({ type: LOADED, name: 'Snake' }, game)).toBe('Snake');
    expect(loadedGameName({ type: LOADED, name: 'x'.repeat(100) }, game)).toBe('x'.repeat(100));
  });

  it('records the slug instead of a missing, overlong or non-text name', () => {
    for (const name of [undefined, null, 42, { toString: () => 'Snake' }, 'x'.repeat(101)]) {
      expect(loadedGameName({ type: LOADED, name }, game)).toBe('snake');
    }
  });

  it('is not any other message', () => {
    for (const data of [null, undefined, LOADED, 7, { name: 'Snake' }, { type: 'playport:request', id: 1, method: 'login' }, { type: `${LOADED} ` }]) {
      expect(loadedGameName(data, game)).toBeNull();
    }
  });
});

describe('a game’s loading progress', () => {
  it('is the share it reports, kept between 0 and 1', () => {
    expect(loadingProgressOf({ type: 'playport:loading', progress: 0.25 })).toBe(0.25);
    expect(loadingProgressOf({ type: 'playport:loading', progress: 7 })).toBe(1);
    expect(loadingProgressOf({ type: 'playport:loading', progress: -1 })).toBe(0);
  });

  it('is not any other message or a progress that is no number', () => {
    for (const data of [
      null,
      'playport:loading',
      { type: 'playport:loading' },
      { type: 'playport:loading', progress: '0.5' },
      { type: 'playport:loading', progress: Number.NaN },
      { type: LOADED, progress: 0.5 },
    ]) {
      expect(loadingProgressOf(data)).toBeNull();
    }
  });
});
