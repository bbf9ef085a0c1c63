/** What an outbox holds undelivered, for the operators' metrics. */
export interface OutboxState {
  /** Rows still pending (due now or waiting for a retry). */
  depth: number;
  /** How long the oldest pending row has waited since it was queued; 0 when none is. */
  oldestAgeSeconds: number;
}

/** The state from a count and the oldest pending row's `created_at`, as of `now`. */
export function outboxState(pending: { depth: number | string | bigint; oldest: string | null }, now: Date): OutboxState {
  const oldest = pending.oldest === null ? null : Date.parse(pending.oldest);
  return {
    depth: Number(pending.depth),
    oldestAgeSeconds: oldest === null || Number.isNaN(oldest) ? 0 : Math.max(0, (now.getTime() - oldest) / 1000),
  };
}
