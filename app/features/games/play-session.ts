import { MAX_LOADING_MS, MAX_PLAY_MS, MAX_TO_GAMEPLAY_MS } from '#common/game-stats.ts';

/*
 * What the play page measures of one visit (SDK 1.1 `game` events; decision 093): loading time,
 * time to the first gameplay and play time. The game only posts signals; the page keeps the
 * figures and reports the whole session so far in batches (PlaySessionReporter), so a game never
 * waits on the network and a lost report is made good by the next one.
 */

/** The game's signals (`Playport.game.*`) and the page's own moments, as `playport:signal` names. */
export const GAME_SIGNALS = ['loadingStart', 'loadingStop', 'gameplayStart', 'gameplayStop', 'happyTime'] as const;
export type GameSignal = (typeof GAME_SIGNALS)[number];

/** A `playport:signal` message of the SDK, or null for anything else. */
export function gameSignalOf(data: unknown): GameSignal | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, signal } = data as { type?: unknown; signal?: unknown };
  if (type !== 'playport:signal' || typeof signal !== 'string') return null;
  return (GAME_SIGNALS as readonly string[]).includes(signal) ? (signal as GameSignal) : null;
}

export interface SessionFigures {
  loading_ms: number | null;
  to_gameplay_ms: number | null;
  play_ms: number;
}

/** The clock of one visit: every method takes the time (ms, e.g. performance.now()) it happened at. */
export class PlaySession {
  readonly #startedAt: number;
  #loadingStartedAt: number | null = null;
  #loadingMs: number | null = null;
  #toGameplayMs: number | null = null;
  /** Play time of finished stretches. */
  #playedMs = 0;
  /** When the current stretch of play began, or null while not counting. */
  #stretchFrom: number | null = null;
  #gameplay = false;
  #visible = true;
  #breaks = 0;

  /** `startedAt`: when the page gave the frame its address. */
  constructor(startedAt: number) {
    this.#startedAt = startedAt;
  }

  loadingStart(at: number): void {
    if (this.#loadingMs === null) this.#loadingStartedAt = at;
  }

  /** loadingStop, or the game's "loaded" message: the first one counts. */
  loadingStop(at: number): void {
    if (this.#loadingMs !== null) return;
    this.#loadingMs = clamp(at - (this.#loadingStartedAt ?? this.#startedAt), MAX_LOADING_MS);
  }

  gameplayStart(at: number): void {
    this.#toGameplayMs ??= clamp(at - this.#startedAt, MAX_TO_GAMEPLAY_MS);
    this.#gameplay = true;
    this.#update(at);
  }

  gameplayStop(at: number): void {
    this.#gameplay = false;
    this.#update(at);
  }

  /** The page was hidden or shown again: a hidden page's time is not play time. */
  visibility(visible: boolean, at: number): void {
    this.#visible = visible;
    this.#update(at);
  }

  /** An ad break began or ended: its time is not play time. */
  adBreak(running: boolean, at: number): void {
    this.#breaks = Math.max(0, this.#breaks + (running ? 1 : -1));
    this.#update(at);
  }

  /** The figures at `at`, as the API takes them. */
  figures(at: number): SessionFigures {
    const running = this.#stretchFrom === null ? 0 : at - this.#stretchFrom;
    return { loading_ms: this.#loadingMs, to_gameplay_ms: this.#toGameplayMs, play_ms: clamp(this.#playedMs + running, MAX_PLAY_MS) };
  }

  #update(at: number): void {
    const counting = this.#gameplay && this.#visible && this.#breaks === 0;
    if (this.#stretchFrom !== null && !counting) {
      this.#playedMs += Math.max(0, at - this.#stretchFrom);
      this.#stretchFrom = null;
    } else if (this.#stretchFrom === null && counting) this.#stretchFrom = at;
  }
}

function clamp(ms: number, max: number): number {
  return Math.min(max, Math.max(0, Math.round(ms)));
}

/** How often a changed session is reported while the page is open. */
export const REPORT_INTERVAL_MS = 20_000;

/**
 * Sends a session's figures: every REPORT_INTERVAL_MS when something changed, and at once when
 * the page is hidden (the send must survive the page: keepalive). Nothing is sent before the game
 * reported anything, and nothing twice.
 */
export class PlaySessionReporter {
  readonly #session: PlaySession;
  readonly #send: (figures: SessionFigures) => Promise<unknown>;
  readonly #now: () => number;
  #last = '';
  #sending = false;

  constructor(session: PlaySession, send: (figures: SessionFigures) => Promise<unknown>, now: () => number) {
    this.#session = session;
    this.#send = send;
    this.#now = now;
  }

  /** Sends the figures when they changed since the last report that went through. */
  async flush(): Promise<void> {
    const figures = this.#session.figures(this.#now());
    const text = JSON.stringify(figures);
    if (text === this.#last || this.#sending) return;
    if (figures.loading_ms === null && figures.to_gameplay_ms === null && figures.play_ms === 0) return;
    this.#sending = true;
    try {
      await this.#send(figures);
      this.#last = text;
    } catch {
      // The next report carries the whole session again.
    } finally {
      this.#sending = false;
    }
  }
}

/** A random id for one visit: 22 URL-safe characters. */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}
