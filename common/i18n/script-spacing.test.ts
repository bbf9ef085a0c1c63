import { describe, expect, it } from 'vitest';
import { spaceBetweenScripts } from './script-spacing.ts';

describe('spaceBetweenScripts', () => {
  it('spaces Han characters from Latin letters and digits, both ways, and nothing else', () => {
    expect(spaceBetweenScripts('玩2048')).toBe('玩 2048');
    expect(spaceBetweenScripts('在浏览器中免费畅玩Snake，无需下载。')).toBe('在浏览器中免费畅玩 Snake，无需下载。');
    expect(spaceBetweenScripts('Tetris游戏')).toBe('Tetris 游戏');
    expect(spaceBetweenScripts('玩纸牌接龙')).toBe('玩纸牌接龙');
    expect(spaceBetweenScripts('玩 2048')).toBe('玩 2048');
    expect(spaceBetweenScripts('Play 2048')).toBe('Play 2048');
  });
});
