import { describe, expect, it } from 'vitest';
import { loadedGameName } from './game-loading.ts';

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
