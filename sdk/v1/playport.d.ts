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
    | (string & {});
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

export interface Playport {
  readonly version: '1.1.0';
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
  on(event: 'purchase', listener: (purchase: { orderId: string; sku: string }) => void): () => void;
  on(event: 'settings', listener: (settings: PlayportSettings) => void): () => void;
  on(event: 'pause' | 'resume', listener: (detail: { reason: 'ad' }) => void): () => void;
}

declare global {
  interface Window {
    Playport: Playport;
  }
}
