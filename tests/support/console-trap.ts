// A console.error during a test fails it, as it fails a browser test (tests/e2e/fixtures.ts):
// an error the code logs is a defect unless the test says it expects it. Loaded by every Vitest
// project (vitest.config.ts).
import { format } from 'node:util';
import { afterEach, beforeEach } from 'vitest';

let allowed: (string | RegExp)[] = [];
let seen: string[] = [];

/** This test expects a console.error matching `pattern` (a substring or a regular expression). */
export function allowConsoleError(pattern: string | RegExp): void {
  allowed.push(pattern);
}

// Replaced by hand rather than with vi.spyOn, so a test's own vi.restoreAllMocks() keeps the trap.
const original = console.error;

beforeEach(() => {
  allowed = [];
  seen = [];
  console.error = (...args: unknown[]) => {
    seen.push(format(...args));
    original.apply(console, args);
  };
});

afterEach(() => {
  console.error = original;
  const unexpected = seen.filter((line) => !allowed.some((pattern) => (typeof pattern === 'string' ? line.includes(pattern) : pattern.test(line))));
  if (unexpected.length > 0) {
    throw new Error(
      `console.error during the test (allow it with allowConsoleError if it is expected):\n${unexpected.map((line) => `  ${line.split('\n')[0]}`).join('\n')}`,
    );
  }
});
