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

export interface PlayportError extends Error {
  code: 'not_framed' | 'timeout' | 'cancelled' | 'unauthenticated' | 'payload_too_large' | 'not_found' | 'validation' | 'failed' | string;
}

export interface Playport {
  readonly version: '1.0.0';
  login(): Promise<PlayportLogin>;
  getConfig(): Promise<PlayportConfig>;
  pay(request: { sku: string }): Promise<PlayportPurchase>;
  readonly data: {
    get<T = unknown>(key: string): Promise<T | null>;
    set(key: string, value: unknown): Promise<{ key: string; updatedAt: string }>;
    remove(key: string): Promise<{ key: string }>;
  };
  on(event: 'purchase', listener: (purchase: { orderId: string; sku: string }) => void): () => void;
}

declare global {
  interface Window {
    Playport: Playport;
  }
}
