import { afterEach, describe, expect, it, vi } from 'vitest';
import { PeriodicWork } from './periodic-work.ts';

describe('periodic work', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs a round each interval, never two at once, reports a failed round and goes on; stop waits for the round in flight', async () => {
    vi.useFakeTimers();
    let started = 0;
    let finish: (() => void) | null = null;
    const errors: unknown[] = [];
    const work = new PeriodicWork(async () => {
      started++;
      if (started === 2) throw new Error('database away');
      await new Promise<void>((resolve) => (finish = resolve));
    });
    work.start(1000, (error) => errors.push(error));
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toBe(1);
    // The first round is still running: the next ticks start nothing.
    await vi.advanceTimersByTimeAsync(3000);
    expect(started).toBe(1);
    finish!();
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toBe(2);
    expect(errors).toEqual([new Error('database away')]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toBe(3);
    let stopped = false;
    const stopping = work.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish!();
    await stopping;
    await vi.advanceTimersByTimeAsync(5000);
    expect(started).toBe(3);
  });
});
