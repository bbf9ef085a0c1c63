import {
  Brain,
  Calculator,
  Crown,
  Dices,
  Gamepad2,
  Grid3x3,
  Joystick,
  LayoutGrid,
  type LucideIcon,
  MousePointerClick,
  Palette,
  Puzzle,
  Rocket,
  Shapes,
  Spade,
  Sparkles,
  Target,
  Trophy,
  Wrench,
  Zap,
} from 'lucide-react';

/**
 * The icons a category may name in the catalogue files. A fixed list, imported one by one:
 * the whole icon set would weigh hundreds of kilobytes in the browser.
 */
const ICONS: Record<string, LucideIcon> = {
  action: Zap,
  arcade: Joystick,
  board: Grid3x3,
  brain: Brain,
  calculator: Calculator,
  card: Spade,
  cards: Spade,
  casual: Sparkles,
  classic: Crown,
  creative: Palette,
  dice: Dices,
  gamepad: Gamepad2,
  'gamepad-2': Gamepad2,
  grid: Grid3x3,
  'grid-3x3': Grid3x3,
  joystick: Joystick,
  palette: Palette,
  puzzle: Puzzle,
  reflex: Target,
  rocket: Rocket,
  shapes: Shapes,
  skill: Target,
  spade: Spade,
  sparkles: Sparkles,
  strategy: Crown,
  target: Target,
  tap: MousePointerClick,
  tools: Wrench,
  trophy: Trophy,
  wrench: Wrench,
  zap: Zap,
};

/** The icon of a category, by its icon name or else its slug; a neutral grid when neither is known. */
export function CategoryIcon({ icon, slug, className }: { icon: string | null; slug: string; className?: string }) {
  const Icon = ICONS[icon ?? ''] ?? ICONS[slug] ?? LayoutGrid;
  return <Icon aria-hidden="true" className={className} />;
}
