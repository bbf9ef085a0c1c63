import { api, ApiError } from '../../lib/api-client.ts';
import { session } from '../accounts/session.ts';

/*
 * The play page's side of the game SDK (sdk/v1/playport.js; decision 064). The game's frame has an
 * opaque origin, so its messages are known by `event.source` (the frame's window), never by
 * origin, and answers go to that window only.
 */

export interface BridgeRequest {
  type: 'playport:request';
  id: number;
  method: string;
  params: Record<string, unknown>;
}

export interface BridgeAnswer {
  type: 'playport:response';
  id: number;
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
}

/** A request from the game, or null for anything else. */
export function bridgeRequestOf(data: unknown): BridgeRequest | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, id, method, params } = data as Partial<BridgeRequest>;
  if (type !== 'playport:request' || typeof id !== 'number' || !Number.isSafeInteger(id) || typeof method !== 'string') return null;
  return { type, id, method, params: typeof params === 'object' && params !== null ? params : {} };
}

/** What the SDK's error says: a short code a game can branch on, and the portal's message. */
export function bridgeError(error: unknown, fallback: string): { code: string; message: string } {
  if (error instanceof BridgeRefusal) return { code: error.code, message: error.message };
  if (error instanceof ApiError) {
    const code = ({ 401: 'unauthenticated', 403: 'forbidden', 404: 'not_found', 409: 'conflict', 413: 'payload_too_large', 422: 'validation', 429: 'too_many_requests' } as Record<number, string>)[error.status] ?? 'failed';
    return { code, message: error.message };
  }
  return { code: 'failed', message: fallback };
}

export class BridgeRefusal extends Error {
  override name = 'BridgeRefusal';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

function keyOf(params: Record<string, unknown>): string {
  const key = params.key;
  if (typeof key !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(key)) throw new BridgeRefusal('validation', 'A save key is 1–64 letters, digits, _ . or -.');
  return key;
}

/** The calls the page answers at once (everything but `pay`, which has its own flow). */
export async function answerCall(appId: number, locale: string, method: string, params: Record<string, unknown>): Promise<unknown> {
  // Every visitor has a session from the second page on; a game opened first makes it now.
  if (!session.snapshot().token) await session.signInAnonymously();
  const save = (key: string) => `/game/saves/${appId}/${encodeURIComponent(key)}` as const;
  switch (method) {
    case 'login':
      return (await api.post(`/game/login/${appId}`)).data;
    case 'getConfig': {
      const { data } = await api.get(`/game/config/${appId}`);
      return { appId, locale, items: data.items };
    }
    case 'data.get':
      return (await api.get(save(keyOf(params)))).data;
    case 'data.set': {
      const { data } = await api.put(save(keyOf(params)), { value: params.value ?? null });
      return { key: data.key, updatedAt: data.updatedAt };
    }
    case 'data.remove':
      await api.delete(save(keyOf(params)));
      return { key: params.key };
    default:
      throw new BridgeRefusal('unknown_method', `The portal has no "${method}".`);
  }
}
