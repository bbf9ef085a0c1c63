/**
 * The browser and operating system a User-Agent names, read by a few patterns: enough to tell a
 * member's devices apart ("Chrome on Windows"), with no outside service and no version numbers.
 */
export interface BrowserAndSystem {
  browser: string | null;
  system: string | null;
}

const BROWSERS: [RegExp, string][] = [
  [/Edg(A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Windows/, 'Windows'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

export function browserAndSystem(userAgent: string | null | undefined): BrowserAndSystem {
  if (!userAgent) return { browser: null, system: null };
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
  return { browser, system };
}

/** "Chrome on Windows", or whichever of the two is known, or null. */
export function browserOnSystem(userAgent: string | null | undefined): string | null {
  const { browser, system } = browserAndSystem(userAgent);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system;
}
