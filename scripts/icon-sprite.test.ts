import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATEGORY_ICON_NAMES, CATEGORY_ICONS } from '../app/features/catalogue/category-icon-names.ts';
import { categoryIconSprite, SPRITE_FILE } from './icon-sprite.ts';

describe('the category icon sprite', () => {
  it('is the one built from the icon list (npm run typecheck rebuilds it)', async () => {
    expect(readFileSync(SPRITE_FILE, 'utf8')).toBe(await categoryIconSprite());
  });

  it('holds a drawn symbol for every icon a category may name, and for the fallback', () => {
    const sprite = readFileSync(SPRITE_FILE, 'utf8');
    const symbols = new Map([...sprite.matchAll(/<symbol id="([^"]+)"[^>]*>(.*?)<\/symbol>/g)].map((m) => [m[1], m[2]]));
    expect(new Set(symbols.keys())).toEqual(new Set(CATEGORY_ICON_NAMES));
    for (const name of Object.values(CATEGORY_ICONS))
      expect(symbols.get(name), name).toMatch(/^(<(path|circle|rect|line|polyline|polygon|ellipse) [^>]+\/>)+$/);
  });
});
