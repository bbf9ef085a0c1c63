import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { knownFlakeOf, readKnownFlakes, retryVerdict } from './known-flakes.ts';

describe('the known flakes', () => {
  it('name journeys that exist, each with a reason', () => {
    const flakes = readKnownFlakes();
    for (const flake of flakes) {
      expect(existsSync(flake.file), flake.file).toBe(true);
      expect(flake.reason.length).toBeGreaterThan(20);
    }
  });

  it('know a retry only of the journey named, by file and whole title', () => {
    const list = [{ file: 'a/b.spec.ts', title: 'group › a test', reason: 'a reason that is still open', seen: '2026-11-28' }];
    expect(knownFlakeOf('a/b.spec.ts', 'group › a test', list)).toBe(list[0]);
    expect(knownFlakeOf('a/b.spec.ts', 'group › another test', list)).toBeUndefined();
    expect(knownFlakeOf('a/c.spec.ts', 'group › a test', list)).toBeUndefined();
  });

  it('let a retried journey pass the run only when it is listed with its reason', () => {
    const list = [{ file: 'a/b.spec.ts', title: 'group › a test', reason: 'a reason that is still open', seen: '2026-11-28' }];
    expect(retryVerdict('a/b.spec.ts', 'group › a test', list)).toEqual({ passes: true, note: 'known flake: a reason that is still open' });
    const unknown = retryVerdict('a/b.spec.ts', 'group › another test', list);
    expect(unknown.passes).toBe(false);
    expect(unknown.note).toMatch(/^NEW: /);
  });

  it('refuse an entry without a reason', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'flakes-')), 'known-flakes.json');
    writeFileSync(path, JSON.stringify({ flakes: [{ file: 'a/b.spec.ts', title: 'group › a test', reason: ' ', seen: '2026-11-28' }] }));
    expect(() => readKnownFlakes(pathToFileURL(path))).toThrow(/needs a file, a title and a reason/);
  });
});
