// The browser journeys known to pass only on their retry (tests/known-flakes.json): each names the
// journey by its spec file and full title, and says what is known of why. Read by scripts/test.ts.
import { readFileSync } from 'node:fs';

export interface KnownFlake {
  /** The spec file from the repository's root, as Playwright reports it. */
  file: string;
  /** The describe blocks' titles and the test's, joined by " › ". */
  title: string;
  /** What is known, and what is still open. */
  reason: string;
  seen: string;
}

export function readKnownFlakes(path = new URL('../../tests/known-flakes.json', import.meta.url)): KnownFlake[] {
  const list = (JSON.parse(readFileSync(path, 'utf8')) as { flakes: KnownFlake[] }).flakes;
  for (const flake of list) {
    if (!flake.file || !flake.title || !flake.reason?.trim())
      throw new Error(`tests/known-flakes.json: every entry needs a file, a title and a reason (${JSON.stringify(flake)})`);
  }
  return list;
}

let known: KnownFlake[] | undefined;

/** The known flake for this journey, or undefined: the summary then names its retry as new. */
export function knownFlakeOf(file: string, title: string, list: KnownFlake[] = (known ??= readKnownFlakes())): KnownFlake | undefined {
  return list.find((flake) => flake.file === file && flake.title === title);
}

/**
 * How the summary names a journey that failed and then passed on its retry, and whether the run
 * still passes: a known flake (listed with its open reason) passes, a new one fails the step, so a
 * retry can never hide a defect nobody has written down.
 */
export function retryVerdict(file: string, title: string, list?: KnownFlake[]): { passes: boolean; note: string } {
  const flake = knownFlakeOf(file, title, list);
  return flake
    ? { passes: true, note: `known flake: ${flake.reason}` }
    : { passes: false, note: 'NEW: not in tests/known-flakes.json; fails the run until its cause is fixed, or listed with what is known of it' };
}
