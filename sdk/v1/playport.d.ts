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
  owned: boolean;
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

/** Why a call was refused (docs/game-sdk.md, "Errors"); `string` leaves room for codes a later portal adds. */
export interface PlayportError extends Error {
  code:
    | 'not_framed'
    | 'timeout'
    | 'unknown_method'
    | 'busy'
    | 'unauthenticated'
    | 'forbidden'
    | 'account_not_secured'
    | 'not_found'
    | 'conflict'
    | 'payload_too_large'
    | 'validation'
    | 'too_many_requests'
    | 'failed'
    | 'score_out_of_bounds'
    | 'backend_only'
    | (string & {});
}

export interface Playport {
  readonly version: '1.1.0';
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
}

declare global {
  interface Window {
    Playport: Playport;
  }
}
