import { Monitor, Moon, Sun } from 'lucide-react';
import type { ColorMode } from './color-mode.ts';

export const COLOR_MODE_ICONS: Record<ColorMode, typeof Sun> = { system: Monitor, light: Sun, dark: Moon };
