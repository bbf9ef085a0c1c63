// The category icons as one SVG sprite (app/features/catalogue/category-icons.svg), built from
// lucide's icon data: pages draw them with <use>, so no icon code is in the browser's JavaScript
// (decision 079). Run by `npm run typecheck`; in CI a committed sprite that differs fails the step.
import { join, resolve } from 'node:path';
import { CATEGORY_ICON_NAMES } from '../app/features/catalogue/category-icon-names.ts';
import { keepGenerated } from './lib/generated-file.ts';

const root = resolve(import.meta.dirname, '..');
export const SPRITE_FILE = join(root, 'app/features/catalogue/category-icons.svg');

type IconNode = Array<[string, Record<string, string>]>;

const escapeAttribute = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

const STROKE = 'fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"';

/** The sprite: one <symbol> per icon, with lucide's default stroke (24 px grid, 2 px, round). */
export async function categoryIconSprite(): Promise<string> {
  const symbols: string[] = [];
  for (const name of [...CATEGORY_ICON_NAMES].sort()) {
    const module = (await import(join(root, `node_modules/lucide-react/dist/esm/icons/${name}.mjs`))) as { __iconData: { node: IconNode } };
    const shapes = module.__iconData.node.map(([tag, attributes]) => {
      const rest = Object.entries(attributes).filter(([key]) => key !== 'key');
      return `<${tag}${rest.map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`).join('')}/>`;
    });
    // On each symbol, not the root: a <use> instance inherits from the page, not from this file.
    symbols.push(`<symbol id="${name}" viewBox="0 0 24 24" ${STROKE}>${shapes.join('')}</symbol>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join('\n')}\n</svg>\n`;
}

if (import.meta.main) keepGenerated(SPRITE_FILE, await categoryIconSprite(), 'its icon list');
