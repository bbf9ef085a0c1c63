// Types of the Playport game SDK, version 1 (docs/game-sdk.md).

export interface PlayportUser {
  uid: number;
  nickname: string | null;
  isGuest: boolean;
}

export interface PlayportLogin {
  /** EdDSA JWT: iss the portal origin, aud "app:{appId}", sub the uid; verify with {portal}/serve/api/game/jwks.json. */
  token: string;
  expiresAt: string;
  user: PlayportUser;
}

export interface PlayportItem {
  sku: string;
  name: string;
  /** Minor units (cents). */
  amount: number;
  currency: string;
  /** A permanent item the player bought; always false for a consumable (see items.list()). */
  owned: boolean;
  kind: 'permanent' | 'consumable';
}

export interface PlayportConfig {
  appId: number;
  locale: string;
  items: PlayportItem[];
}

export interface PlayportPurchase {
  status: 'paid' | 'cancelled' | 'declined';
  orderId: string | null;
  sku: string;
}

/** Every code a call can reject with (docs/game-sdk.md, "Errors"); the play page's bridge uses the same list. */
export type PlayportErrorCode =
  | 'not_framed'
  | 'timeout'
  | 'unknown_method'
  | 'unknown_event'
  | 'busy'
  | 'unauthenticated'
  | 'forbidden'
  | 'account_not_secured'
  | 'not_found'
  | 'already_owned'
  | 'not_enough_items'
  | 'conflict'
  | 'payload_too_large'
  | 'validation'
  | 'too_many_requests'
  | 'failed'
  | 'score_out_of_bounds'
  | 'backend_only';

/** Why a call was refused: `Playport.PlayportError`. `string` leaves room for codes a later portal adds. */
export declare class PlayportError extends Error {
  constructor(code: PlayportErrorCode | (string & {}), message: string);
  readonly name: 'PlayportError';
  readonly code: PlayportErrorCode | (string & {});
}

/** What `auth.prompt()` answers: the player signed in (a new token, as `login()`), or closed the dialog. */
export type PlayportAuthPrompt = ({ status: 'signed_in' } & PlayportLogin) | { status: 'cancelled' };

/** A consumable the player holds. */
export interface PlayportInventoryItem {
  sku: string;
  name: string;
  quantity: number;
}

// Leaderboards and achievements (1.1; docs/game-sdk.md, "Leaderboards", "Achievements").
export type PlayportPeriod = 'daily' | 'weekly' | 'all-time';

export interface PlayportBoardQuery {
  /** Default 'all-time'; one of the periods the board keeps. */
  period?: PlayportPeriod;
  /** 1–50, default 10. */
  limit?: number;
}

export interface PlayportLeaderboard {
  board: {
    id: string;
    name: string;
    order: 'asc' | 'desc';
    format: 'number' | 'time';
    min: number;
    max: number;
    periods: PlayportPeriod[];
    backendOnly: boolean;
  };
  period: PlayportPeriod;
  /** Ties share a rank; `nickname` is a guest's generated one for guests. */
  entries: { rank: number; nickname: string | null; isGuest: boolean; score: number; achievedAt: string; isCaller: boolean }[];
  /** The player's own rank and best, or null without a score in the period. */
  me: { rank: number; score: number } | null;
}

export interface PlayportSubmitted {
  board: string;
  score: number;
  periods: { period: PlayportPeriod; best: number; improved: boolean }[];
}

export interface PlayportAchievement {
  id: string;
  name: string;
  description: string;
  /** Image path on the portal, or null. */
  icon: string | null;
  unlockedAt: string | null;
}

/** SDK 1.1: the player's settings on the portal (docs/game-sdk.md, "Settings"). */
export interface PlayportSettings {
  muted: boolean;
  /** The portal's language: 'en' or 'zh-CN'. */
  locale: string;
}

/** SDK 1.1: what an ad break came to (docs/game-sdk.md, "Ads"). */
export interface PlayportAdBreak {
  /** shown (midgame), rewarded (watched to the end: grant the reward), skipped, capped (too soon after the last), no_ads. */
  status: 'shown' | 'rewarded' | 'skipped' | 'capped' | 'no_ads';
}

/** SDK 1.2: whether the game's frame has storage of its own (docs/sdk/storage.md). */
export interface PlayportStorageAvailability {
  /** localStorage works (false where the browser blocks third-party storage: it throws there). */
  localStorage: boolean;
  /** indexedDB.open succeeds (where it is blocked it fails through onerror; it does not throw). */
  indexedDB: boolean;
  /** The bridge to the cloud save stands in for localStorage. */
  bridged: boolean;
}

/** SDK 1.2: what the Storage Access API gave (docs/sdk/storage.md). */
export interface PlayportStorageAccess {
  granted: boolean;
  /** The frame's own localStorage once granted, or null: use this object, not window.localStorage. */
  localStorage: Storage | null;
  /** The frame's own IndexedDB once granted, or null. */
  indexedDB: IDBFactory | null;
}

export interface Playport {
  readonly version: '1.2.0';
  /** Storage (1.2): the frame's own storage where the browser refuses it. */
  readonly storage: {
    available(): Promise<PlayportStorageAvailability>;
    /** The Storage Access API: call it from a click or a key press. */
    requestAccess(): Promise<PlayportStorageAccess>;
    /** Where localStorage is refused, a localStorage kept in the cloud save (60 KB); resolves once it holds the saved values. */
    bridge(): Promise<{ bridged: boolean }>;
    /** Resolves once the cloud save holds the bridged localStorage as it is now. */
    flush(): Promise<void>;
  };
  readonly PlayportError: typeof PlayportError;
  /** Moments of the game, for the portal's statistics and for celebrating; invite links. Signals are never awaited. */
  readonly game: {
    loadingStart(): void;
    loadingStop(): void;
    gameplayStart(): void;
    gameplayStop(): void;
    /** A happy moment (a level won, a record): the portal celebrates lightly. */
    happyTime(): void;
    /** A play page URL of the portal that opens this game with these parameters (at most 8; names a letter then letters, digits, _; values at most 200 characters). */
    inviteLink(params: Record<string, string | number | boolean>): Promise<string>;
    /** The parameters the game was opened with (from an invite link), as strings; {} when none. */
    params(): Promise<Record<string, string>>;
  };
  /** The player's settings; updated before every 'settings' event. */
  readonly settings: {
    readonly muted: boolean;
    readonly locale: string;
    get(): Promise<PlayportSettings>;
  };
  readonly ad: {
    /** Asks for an ad break; the game gets 'pause' before and 'resume' after one that shows. */
    break(kind: 'midgame' | 'rewarded'): Promise<PlayportAdBreak>;
  };
  login(): Promise<PlayportLogin>;
  getConfig(): Promise<PlayportConfig>;
  pay(request: { sku: string }): Promise<PlayportPurchase>;
  readonly data: {
    get<T = unknown>(key: string): Promise<T | null>;
    set(key: string, value: unknown): Promise<{ key: string; updatedAt: string }>;
    remove(key: string): Promise<{ key: string }>;
  };
  /** Loading of a large game: a progress bar on the play page, and the end of its loading screen. */
  readonly loading: {
    /** How far loading has come, from 0 to 1. */
    progress(fraction: number): void;
    /** The game is ready to play (the same as posting the loaded message). */
    done(): void;
  };
  /** Throws a PlayportError with code 'unknown_event' for a name the portal never sends. */
  /** Leaderboards (1.1): boards declared in the game's catalogue entry. */
  readonly leaderboard: {
    submit(board: string, score: number): Promise<PlayportSubmitted>;
    top(board: string, options?: PlayportBoardQuery): Promise<PlayportLeaderboard>;
    around(board: string, options?: PlayportBoardQuery): Promise<PlayportLeaderboard>;
  };
  /** Achievements (1.1): declared in the game's catalogue entry, unlocked once per player. */
  readonly achievements: {
    unlock(id: string): Promise<{ id: string; unlockedAt: string; newlyUnlocked: boolean }>;
    list(): Promise<PlayportAchievement[]>;
  };
  on(event: 'purchase', listener: (purchase: { orderId: string; sku: string }) => void): () => void;
  on(event: 'auth', listener: (login: PlayportLogin) => void): () => void;
  /** Accounts (SDK 1.1). */
  readonly auth: {
    prompt(): Promise<PlayportAuthPrompt>;
    onChange(listener: (login: PlayportLogin) => void): () => void;
  };
  /** Consumable items (SDK 1.1). */
  readonly items: {
    list(): Promise<PlayportInventoryItem[]>;
    consume(sku: string, options?: { quantity?: number; idempotencyKey?: string }): Promise<{ sku: string; consumed: number; remaining: number }>;
  };
  on(event: 'settings', listener: (settings: PlayportSettings) => void): () => void;
  on(event: 'pause' | 'resume', listener: (detail: { reason: 'ad' }) => void): () => void;
}

declare global {
  interface Window {
    Playport: Playport;
  }
}
