import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileClock } from './clock.ts';

describe('the test clock file (TEST_CLOCK_FILE)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'playport-clock-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('runs from the instant written in the file, and from the system time without one', async () => {
    const path = join(folder, 'now');
    const clock = fileClock(path);
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1000);
    writeFileSync(path, '2031-01-31T23:59:00.000Z');
    await new Promise((resolve) => setTimeout(resolve, 250));
    const moved = clock.now().getTime();
    expect(moved).toBeGreaterThanOrEqual(Date.parse('2031-01-31T23:59:00.000Z'));
    expect(moved).toBeLessThan(Date.parse('2031-01-31T23:59:05.000Z'));
    writeFileSync(path, 'not a time');
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1000);
  });
});
