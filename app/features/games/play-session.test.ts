import { describe, expect, it } from 'vitest';
import { MAX_LOADING_MS } from '#common/game-stats.ts';
import { gameSignalOf, newSessionId, PlaySession, PlaySessionReporter, type SessionFigures } from './play-session.ts';

describe('a play session', () => {
  it('measures loading from loadingStart to loadingStop, else from the frame address to the first stop', () => {
    const withStart = new PlaySession(1000);
    withStart.loadingStart(1500);
    withStart.loadingStop(4000);
    withStart.loadingStop(9000);
    expect(withStart.figures(9000).loading_ms).toBe(2500);
    const withoutStart = new PlaySession(1000);
    withoutStart.loadingStop(3000);
    expect(withoutStart.figures(3000).loading_ms).toBe(2000);
  });

  it('counts time to the first gameplay once, and play time only while playing, visible and without an ad break', () => {
    const session = new PlaySession(0);
    session.gameplayStart(5000);
    expect(session.figures(8000)).toEqual({ loading_ms: null, to_gameplay_ms: 5000, play_ms: 3000 });
    session.visibility(false, 8000);
    session.visibility(true, 20_000);
    session.adBreak(true, 21_000);
    session.adBreak(false, 30_000);
    session.gameplayStop(32_000);
    session.gameplayStart(40_000);
    session.gameplayStop(41_000);
    // 5–8 s, 20–21 s, 30–32 s and 40–41 s.
    expect(session.figures(60_000)).toEqual({ loading_ms: null, to_gameplay_ms: 5000, play_ms: 7000 });
  });

  it('keeps figures within what the server accepts', () => {
    const session = new PlaySession(0);
    session.loadingStop(MAX_LOADING_MS * 3);
    expect(session.figures(0).loading_ms).toBe(MAX_LOADING_MS);
    const backwards = new PlaySession(5000);
    backwards.loadingStop(1000);
    expect(backwards.figures(5000).loading_ms).toBe(0);
  });

  it('knows the SDK signals and nothing else', () => {
    expect(gameSignalOf({ type: 'playport:signal', signal: 'gameplayStart' })).toBe('gameplayStart');
    expect(gameSignalOf({ type: 'playport:signal', signal: 'selfDestruct' })).toBeNull();
    expect(gameSignalOf({ type: 'playport:request', signal: 'gameplayStart' })).toBeNull();
    expect(gameSignalOf('gameplayStart')).toBeNull();
  });

  it('makes session ids the API takes', () => {
    const ids = new Set(Array.from({ length: 50 }, newSessionId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
  });
});

const setUp = () => {
  let now = 0;
  const sent: SessionFigures[] = [];
  const session = new PlaySession(0);
  const reporter = new PlaySessionReporter(
    session,
    async (figures) => {
      sent.push(figures);
    },
    () => now,
  );
  return { session, reporter, sent, at: (ms: number) => (now = ms) };
};

describe('reporting a play session in batches', () => {
  it('sends nothing before the game reported anything, then only what changed', async () => {
    const { session, reporter, sent, at } = setUp();
    await reporter.flush();
    expect(sent).toEqual([]);
    at(1200);
    session.loadingStop(1200);
    await reporter.flush();
    await reporter.flush();
    expect(sent).toEqual([{ loading_ms: 1200, to_gameplay_ms: null, play_ms: 0 }]);
    session.gameplayStart(2000);
    at(22_000);
    await reporter.flush();
    expect(sent.at(-1)).toEqual({ loading_ms: 1200, to_gameplay_ms: 2000, play_ms: 20_000 });
    session.gameplayStop(22_000);
    at(60_000);
    await reporter.flush();
    expect(sent).toHaveLength(2);
  });

  it('sends the whole session again after a failed report', async () => {
    let offline = true;
    const sent: SessionFigures[] = [];
    const session = new PlaySession(0);
    const reporter = new PlaySessionReporter(
      session,
      async (figures) => {
        if (offline) throw new Error('offline');
        sent.push(figures);
      },
      () => 500,
    );
    session.loadingStop(500);
    await reporter.flush();
    expect(sent).toEqual([]);
    offline = false;
    await reporter.flush();
    expect(sent).toEqual([{ loading_ms: 500, to_gameplay_ms: null, play_ms: 0 }]);
  });
});
