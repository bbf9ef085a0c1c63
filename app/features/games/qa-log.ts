import type { GameTraffic } from './game-traffic.ts';

/** One line of the QA mode's log: a call with its answer once it came, an event the portal sent, or another message of the game. */
export type QaLogEntry =
  | {
      kind: 'call';
      /** The call's id in the game's SDK. */
      id: number;
      method: string;
      params: unknown;
      at: number;
      /** Pending until the answer came. */
      outcome: { ok: true; result: unknown; ms: number } | { ok: false; code: string; message: string; ms: number } | null;
    }
  | { kind: 'event'; event: string; data: unknown; at: number }
  | { kind: 'message'; direction: GameTraffic['direction']; type: string; data: unknown; at: number };

/** The most lines kept: a game that saves every second fills the log, the oldest lines go. */
export const QA_LOG_LIMIT = 500;

const record = (value: unknown): Record<string, unknown> | null => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null);

/** The log with one more message in it (newest last); a message that is not the SDK's is left out. */
export function withTraffic(log: readonly QaLogEntry[], traffic: GameTraffic): QaLogEntry[] {
  const message = record(traffic.message);
  const type = message?.type;
  if (!message || typeof type !== 'string' || !type.startsWith('playport:')) return [...log];
  if (traffic.direction === 'from-game' && type === 'playport:request' && typeof message.id === 'number' && typeof message.method === 'string')
    return keep([...log, { kind: 'call', id: message.id, method: message.method, params: message.params ?? {}, at: traffic.at, outcome: null }]);
  if (traffic.direction === 'to-game' && type === 'playport:response' && typeof message.id === 'number') {
    // The newest call with that id (a restarted game numbers its calls from 1 again).
    const index = log.findLastIndex((entry) => entry.kind === 'call' && entry.id === message.id && entry.outcome === null);
    if (index >= 0) {
      const call = log[index] as Extract<QaLogEntry, { kind: 'call' }>;
      const ms = traffic.at - call.at;
      const error = record(message.error);
      const outcome =
        message.ok === true
          ? { ok: true as const, result: message.result, ms }
          : { ok: false as const, code: String(error?.code ?? 'failed'), message: String(error?.message ?? ''), ms };
      return log.map((entry, i) => (i === index ? { ...call, outcome } : entry));
    }
  }
  if (traffic.direction === 'to-game' && type === 'playport:event' && typeof message.event === 'string')
    return keep([...log, { kind: 'event', event: message.event, data: message.data, at: traffic.at }]);
  const { type: _, ...data } = message;
  return keep([...log, { kind: 'message', direction: traffic.direction, type, data, at: traffic.at }]);
}

function keep(log: QaLogEntry[]): QaLogEntry[] {
  return log.length > QA_LOG_LIMIT ? log.slice(log.length - QA_LOG_LIMIT) : log;
}

/** A value as one short line of JSON for the log: long strings (a token) shortened, the whole at most `limit` characters. */
export function logValue(value: unknown, limit = 400): string {
  let text: string;
  try {
    text = JSON.stringify(value, (_, inner: unknown) => (typeof inner === 'string' && inner.length > 60 ? `${inner.slice(0, 24)}…` : inner)) ?? 'undefined';
  } catch {
    text = String(value);
  }
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

const two = (n: number) => String(n).padStart(2, '0');

/** A time of day with milliseconds, as the log shows it (the browser's time zone). */
export function logTime(at: number): string {
  const time = new Date(at);
  return `${two(time.getHours())}:${two(time.getMinutes())}:${two(time.getSeconds())}.${String(time.getMilliseconds()).padStart(3, '0')}`;
}
