import { readFileSync, statSync } from 'node:fs';

/** The time source services use, so tests can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}

/**
 * Tests only (`TEST_CLOCK_FILE`, refused unless APP_ENV=test): a clock that runs from the instant
 * written in `path` (ISO 8601) at the moment the file was written, so that a journey in a browser
 * can move a whole server past a month's end. Read again at most every 200 ms; without the file,
 * or with something else in it, the system's time.
 */
export function fileClock(path: string): Clock {
  let offsetMs = 0;
  let checkedAt = 0;
  let seenMtimeMs = -1;
  return {
    now() {
      const real = Date.now();
      if (real - checkedAt > 200) {
        checkedAt = real;
        try {
          const { mtimeMs } = statSync(path);
          if (mtimeMs !== seenMtimeMs) {
            seenMtimeMs = mtimeMs;
            const target = Date.parse(readFileSync(path, 'utf8').trim());
            offsetMs = Number.isFinite(target) ? target - mtimeMs : 0;
          }
        } catch {
          offsetMs = 0;
        }
      }
      return new Date(real + offsetMs);
    },
  };
}
