import { describe, expect, it } from 'vitest';
import { calibratedCpuMultiplier, mainThreadAfterPaint, type TraceEvent } from './lighthouse-runner.ts';

const PAGE = { pid: 10, tid: 10 };
const GAME = { pid: 20, tid: 21 };
const task = (where: { pid: number; tid: number }, ts: number, cpuMs: number, wallMs = cpuMs): TraceEvent => ({
  name: 'RunTask',
  ph: 'X',
  ...where,
  ts,
  dur: wallMs * 1000,
  tdur: cpuMs * 1000,
});

/** A trace as Chromium writes it: the page in one process, the game's frame (its subdomain) in another. */
function trace(): TraceEvent[] {
  return [
    {
      name: 'TracingStartedInBrowser',
      ph: 'I',
      pid: 1,
      tid: 1,
      ts: 0,
      args: { data: { frames: [{ frame: 'MAIN', isOutermostMainFrame: true, processId: 5 }] } },
    },
    { name: 'FrameCommittedInBrowser', ph: 'I', pid: 1, tid: 1, ts: 50, args: { data: { url: 'http://localhost:3000/play/2048', processId: PAGE.pid } } },
    { name: 'FrameCommittedInBrowser', ph: 'I', pid: 1, tid: 1, ts: 60, args: { data: { url: 'http://2048.games.localhost:3001/', processId: GAME.pid } } },
    { name: 'thread_name', ph: 'M', ...GAME, ts: 0, args: { name: 'CrRendererMain' } },
    { name: 'thread_name', ph: 'M', pid: GAME.pid, tid: 22, ts: 0, args: { name: 'Compositor' } },
    { name: 'firstContentfulPaint', ph: 'I', ...PAGE, ts: 1000, args: { frame: 'MAIN' } },
    // Before the first paint: not counted.
    task(PAGE, 500, 40),
    // After it: a task of 20 ms of CPU that lasted 60 ms on the clock, and a short one.
    task(PAGE, 1100, 20, 60),
    task(PAGE, 1200, 5),
    // Another thread of the page's process: not its main thread.
    task({ pid: PAGE.pid, tid: 11 }, 1300, 30),
    // The game's main thread, and its compositor (not counted).
    task(GAME, 1400, 12),
    task(GAME, 900, 7),
    task({ pid: GAME.pid, tid: 22 }, 1500, 9),
  ];
}

describe('the main thread after the first paint, by CPU time', () => {
  it("counts the page's main-thread tasks after its first paint by CPU time, and the game's main thread apart", () => {
    // 20 ms × 4 = 80 → 30 ms blocking; 5 ms × 4 = 20 → none. By wall-clock time it would be 190 ms.
    expect(mainThreadAfterPaint(trace(), 4, 'games.localhost')).toEqual({ mainThreadCpuMs: 25, cpuBlockingMs: 30, gameCpuMs: 12 });
  });

  it('reports no game work without a games host, and nothing at all without a first paint', () => {
    expect(mainThreadAfterPaint(trace(), 4).gameCpuMs).toBe(0);
    expect(
      mainThreadAfterPaint(
        trace().filter((event) => event.name !== 'firstContentfulPaint'),
        4,
      ),
    ).toEqual({ mainThreadCpuMs: 0, cpuBlockingMs: 0, gameCpuMs: 0 });
  });

  it('calibrates the slowdown from the benchmark index as Lighthouse documents it', () => {
    expect(calibratedCpuMultiplier(150)).toBe(1);
    expect(calibratedCpuMultiplier(800)).toBe(2);
    expect(calibratedCpuMultiplier(1300)).toBe(3);
    expect(calibratedCpuMultiplier(2000)).toBe(6);
  });
});
