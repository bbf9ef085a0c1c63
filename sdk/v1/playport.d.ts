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
  on(event: 'purchase', listener: (purchase: { orderId: string; sku: string }) => void): () => void;
}

declare global {
  interface Window {
    Playport: Playport;
  }
}
