/**
 * The icons a category may name in the catalogue files, as lucide icon names: a fixed list, drawn
 * from one sprite (scripts/icon-sprite.ts builds category-icons.svg from it).
 */
export const CATEGORY_ICONS: Readonly<Record<string, string>> = {
  action: 'zap',
  arcade: 'joystick',
  board: 'grid-3x3',
  brain: 'brain',
  calculator: 'calculator',
  card: 'spade',
  cards: 'spade',
  casual: 'sparkles',
  classic: 'crown',
  creative: 'palette',
  dice: 'dices',
  gamepad: 'gamepad-2',
  'gamepad-2': 'gamepad-2',
  grid: 'grid-3x3',
  'grid-3x3': 'grid-3x3',
  joystick: 'joystick',
  palette: 'palette',
  puzzle: 'puzzle',
  reflex: 'target',
  rocket: 'rocket',
  shapes: 'shapes',
  skill: 'target',
  spade: 'spade',
  sparkles: 'sparkles',
  strategy: 'crown',
  target: 'target',
  tap: 'mouse-pointer-click',
  tools: 'wrench',
  trophy: 'trophy',
  wrench: 'wrench',
  zap: 'zap',
};

/** The icon of a category whose icon name and slug are both unknown. */
export const FALLBACK_CATEGORY_ICON = 'layout-grid';

export const CATEGORY_ICON_NAMES: ReadonlySet<string> = new Set([...Object.values(CATEGORY_ICONS), FALLBACK_CATEGORY_ICON]);
