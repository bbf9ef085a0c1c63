// What the soak run measures per phase: each kind of request's count, latencies and statuses,
// and each instance's resident memory over time.

/** The value at quantile `q` (0–1) of sorted numbers, by nearest rank; null for none. */
export function quantile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

interface KindFigures {
  latencies: number[];
  statuses: Map<number, number>;
}

export interface PhaseReport {
  phase: string;
  seconds: number;
  requests: number;
  perSecond: number;
  kinds: Record<string, { requests: number; perSecond: number; p50Ms: number | null; p99Ms: number | null; errors: Record<string, number> }>;
  errors: Record<string, number>;
  rssMb: Record<string, number | null>;
}

export class Stats {
  #phase = 'setup';
  #startedAt = Date.now();
  readonly #phases = new Map<string, { kinds: Map<string, KindFigures>; startedAt: number; endedAt: number | null }>();
  /** RSS samples per phase and instance, in bytes. */
  readonly rss = new Map<string, Map<string, number[]>>();

  constructor() {
    this.begin('setup');
  }

  get phase(): string {
    return this.#phase;
  }

  begin(phase: string): void {
    const previous = this.#phases.get(this.#phase);
    if (previous) previous.endedAt = Date.now();
    this.#phase = phase;
    this.#startedAt = Date.now();
    this.#phases.set(phase, { kinds: new Map(), startedAt: this.#startedAt, endedAt: null });
  }

  end(): void {
    const current = this.#phases.get(this.#phase);
    if (current) current.endedAt = Date.now();
  }

  record(kind: string, status: number, ms: number): void {
    const kinds = this.#phases.get(this.#phase)!.kinds;
    let figures = kinds.get(kind);
    if (!figures) kinds.set(kind, (figures = { latencies: [], statuses: new Map() }));
    figures.latencies.push(ms);
    figures.statuses.set(status, (figures.statuses.get(status) ?? 0) + 1);
  }

  sampleRss(instance: string, bytes: number): void {
    let byInstance = this.rss.get(this.#phase);
    if (!byInstance) this.rss.set(this.#phase, (byInstance = new Map()));
    let samples = byInstance.get(instance);
    if (!samples) byInstance.set(instance, (samples = []));
    samples.push(bytes);
  }

  /** Per phase: throughput, p50/p99 per kind of request, answers other than 2xx/3xx by status (0: no answer), median RSS. */
  report(phases: string[]): PhaseReport[] {
    return phases.flatMap((phase) => {
      const figures = this.#phases.get(phase);
      if (!figures) return [];
      const seconds = ((figures.endedAt ?? Date.now()) - figures.startedAt) / 1000;
      const kinds: PhaseReport['kinds'] = {};
      const errors: Record<string, number> = {};
      let requests = 0;
      for (const [kind, { latencies, statuses }] of [...figures.kinds].sort(([a], [b]) => a.localeCompare(b))) {
        const sorted = Float64Array.from(latencies).sort();
        const list = Array.from(sorted);
        const kindErrors: Record<string, number> = {};
        for (const [status, count] of statuses) {
          if (status >= 200 && status < 400) continue;
          kindErrors[status] = count;
          errors[status] = (errors[status] ?? 0) + count;
        }
        requests += latencies.length;
        kinds[kind] = {
          requests: latencies.length,
          perSecond: round(latencies.length / seconds),
          p50Ms: roundOrNull(quantile(list, 0.5)),
          p99Ms: roundOrNull(quantile(list, 0.99)),
          errors: kindErrors,
        };
      }
      const rssMb: Record<string, number | null> = {};
      for (const [instance, samples] of this.rss.get(phase) ?? []) rssMb[instance] = roundOrNull((median(samples) ?? 0) / 1024 / 1024);
      return [{ phase, seconds: round(seconds), requests, perSecond: round(requests / seconds), kinds, errors, rssMb }];
    });
  }
}

const round = (value: number) => Math.round(value * 10) / 10;
const roundOrNull = (value: number | null) => (value === null ? null : round(value));
