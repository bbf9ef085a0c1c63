import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { knownFlakeOf, readKnownFlakes } from './known-flakes.ts';

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
});
