/** One call of the TMDB client as the admin self-test reports it (both hosts and a 429 retry count as one). */
export interface TmdbCallRecord {
  /** When it ended (epoch ms). */
  at: number;
  /** How long it took, hosts and retries included. */
  durationMs: number;
  /** Which host answered: the primary, the fallback, or none (it failed). */
  host: 'primary' | 'fallback' | null;
  /** The AppError code it failed with; absent when it succeeded. */
  errorCode?: string;
  /** What went wrong, host by host (no key, no URL). */
  errorMessage?: string;
}

export interface TmdbCallSummary {
  /** How many calls the figures cover (the most recent, at most `capacity`). */
  calls: number;
  p50Ms: number | null;
  p95Ms: number | null;
  /** Calls the fallback host answered. */
  fallbackAnswers: number;
  /** Failed calls by error code. */
  errors: Record<string, number>;
  lastError: { at: string; code: string; message: string } | null;
}

/** The value at quantile `q` (0..1) of sorted numbers, nearest-rank. */
function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1]!;
}

/**
 * The most recent TMDB calls of this process, in a ring of `capacity` (decision 082): what the admin
 * self-test shows as TMDB's latency and errors. In memory only; a restart starts it empty.
 */
export class TmdbStats {
  private readonly ring: TmdbCallRecord[] = [];
  private next = 0;
  private lastError: TmdbCallRecord | undefined;

  constructor(readonly capacity = 200) {}

  record(call: TmdbCallRecord): void {
    if (this.ring.length < this.capacity) this.ring.push(call);
    else this.ring[this.next] = call;
    this.next = (this.next + 1) % this.capacity;
    if (call.errorCode) this.lastError = call;
  }

  summary(): TmdbCallSummary {
    const durations = this.ring.map((c) => c.durationMs).sort((a, b) => a - b);
    const errors: Record<string, number> = {};
    for (const call of this.ring)
      if (call.errorCode) errors[call.errorCode] = (errors[call.errorCode] ?? 0) + 1;
    const last = this.lastError;
    return {
      calls: this.ring.length,
      p50Ms: quantile(durations, 0.5),
      p95Ms: quantile(durations, 0.95),
      fallbackAnswers: this.ring.filter((c) => c.host === 'fallback').length,
      errors,
      lastError: last
        ? { at: new Date(last.at).toISOString(), code: last.errorCode!, message: last.errorMessage ?? '' }
        : null,
    };
  }
}
