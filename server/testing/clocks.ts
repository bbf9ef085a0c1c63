import type { Clock } from '../lib/clock.ts';

/** A clock a test moves by hand: it stands still until `advance` or `time` moves it. */
export class ManualClock implements Clock {
  time: number;
  constructor(start = '2026-01-01T12:00:00.000Z') {
    this.time = Date.parse(start);
  }
  now() {
    return new Date(this.time);
  }
  advance(ms: number) {
    this.time += ms;
  }
}

/**
 * Real time, except that no two readings are equal: each is at least a millisecond after the last.
 * Tests of "most recent first" or "who was first" need no sleep to tell two writes apart.
 */
export class MonotonicClock implements Clock {
  #last = 0;
  now() {
    this.#last = Math.max(Date.now(), this.#last + 1);
    return new Date(this.#last);
  }
}
