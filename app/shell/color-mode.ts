import { useSyncExternalStore } from 'react';
import { THEME_COLOR } from '#common/constants.ts';

/** Spec section 4: system, light or dark, stored locally. */
export type ColorMode = 'system' | 'light' | 'dark';
export const COLOR_MODES: readonly ColorMode[] = ['system', 'light', 'dark'];
const COLOR_MODE_STORAGE_KEY = 'color-mode';
/** Spec section 2: the browser's theme colour, #18181B in dark mode and white otherwise. */
export { THEME_COLOR };

/** A theme-color meta of our own, ahead of the page's two media-bound ones, for an explicit mode. */
const THEME_COLOR_OVERRIDE_ID = 'theme-color-mode';

/**
 * Runs in <head> before the body is parsed, so a server-rendered page never flashes the wrong
 * theme: it reads the stored mode and sets the `dark` class and `color-scheme` on <html>. With an
 * explicit mode it puts a theme-color meta of that mode's colour first (browsers use the first
 * that applies); the page's own metas, which answer the system setting, stay as React rendered them.
 */
export const COLOR_MODE_SCRIPT = `(function(){var d=document.documentElement,m;try{m=localStorage.getItem(${JSON.stringify(COLOR_MODE_STORAGE_KEY)})}catch(e){}if(m!=='light'&&m!=='dark')m='system';var k=m==='dark'||(m==='system'&&matchMedia('(prefers-color-scheme: dark)').matches);d.classList.toggle('dark',k);d.style.colorScheme=k?'dark':'light';if(m!=='system'){var o=document.createElement('meta');o.name='theme-color';o.id=${JSON.stringify(THEME_COLOR_OVERRIDE_ID)};o.content=k?${JSON.stringify(THEME_COLOR.dark)}:${JSON.stringify(THEME_COLOR.light)};var f=document.querySelector('meta[name="theme-color"]');f?f.before(o):document.head.appendChild(o)}})()`;

const listeners = new Set<() => void>();
let current: ColorMode | null = null;
let mediaBound = false;

function isColorMode(value: unknown): value is ColorMode {
  return typeof value === 'string' && (COLOR_MODES as readonly string[]).includes(value);
}

function readStored(): ColorMode {
  try {
    const value = localStorage.getItem(COLOR_MODE_STORAGE_KEY);
    return isColorMode(value) ? value : 'system';
  } catch {
    return 'system';
  }
}

function systemPrefersDark(): boolean {
  return window.matchMedia('(prefers-color-scheme: dark)').matches;
}

/** The mode in effect once "system" is resolved. */
function resolveColorMode(mode: ColorMode, prefersDark: boolean): 'light' | 'dark' {
  return mode === 'dark' || (mode === 'system' && prefersDark) ? 'dark' : 'light';
}

function apply(mode: ColorMode): void {
  const dark = resolveColorMode(mode, systemPrefersDark()) === 'dark';
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
  let override = document.getElementById(THEME_COLOR_OVERRIDE_ID) as HTMLMetaElement | null;
  if (mode === 'system') {
    override?.remove();
    return;
  }
  if (!override) {
    override = document.createElement('meta');
    override.name = 'theme-color';
    override.id = THEME_COLOR_OVERRIDE_ID;
    const first = document.querySelector('meta[name="theme-color"]');
    if (first) first.before(override);
    else document.head.append(override);
  }
  override.content = dark ? THEME_COLOR.dark : THEME_COLOR.light;
}

function bindMedia(): void {
  if (mediaBound) return;
  mediaBound = true;
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    if (getColorMode() !== 'system') return;
    apply('system');
    for (const listener of listeners) listener();
  });
}

function getColorMode(): ColorMode {
  current ??= readStored();
  return current;
}

/** Stores and applies a mode; every tab's components follow. */
function setColorMode(mode: ColorMode): void {
  current = mode;
  try {
    localStorage.setItem(COLOR_MODE_STORAGE_KEY, mode);
  } catch {
    // Storage may be blocked (private mode); the choice then lasts for this page only.
  }
  apply(mode);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  bindMedia();
  const onStorage = (event: StorageEvent) => {
    if (event.key !== COLOR_MODE_STORAGE_KEY) return;
    current = isColorMode(event.newValue) ? event.newValue : 'system';
    apply(current);
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const snapshot = () => {
  const mode = getColorMode();
  return `${mode}:${resolveColorMode(mode, systemPrefersDark())}`;
};

/** The stored mode and the resolved one; null until hydrated (the server cannot know either). */
export function useColorMode(): { mode: ColorMode | null; resolved: 'light' | 'dark' | null; setMode: (mode: ColorMode) => void } {
  const value = useSyncExternalStore(subscribe, snapshot, () => null);
  if (value === null) return { mode: null, resolved: null, setMode: setColorMode };
  const [mode, resolved] = value.split(':') as [ColorMode, 'light' | 'dark'];
  return { mode, resolved, setMode: setColorMode };
}
