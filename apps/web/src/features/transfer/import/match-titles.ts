import type { TitleMatch, TitleQuery } from './import-plan.ts';

/*
 * Matching a file's titles to TMDB through the server (`POST /api/match`, decision 098): batches of the
 * endpoint's size, two at a time; titles the server could not look up now (`failed`) are asked again
 * at the end, twice; a 429 waits and tries again.
 */

export interface MatchProgress {
  done: number;
  total: number;
  /** The server asked to wait: matching resumes at this time (epoch ms). */
  waitingUntil?: number;
}

export type MatchCall = (items: TitleQuery[]) => Promise<(TitleMatch & { key: string })[]>;

export interface MatchOptions {
  call: MatchCall;
  /** Titles per request (the endpoint's MATCH_MAX_ITEMS). */
  batchSize: number;
  onProgress?(progress: MatchProgress): void;
  signal?: AbortSignal;
  wait?(ms: number): Promise<void>;
  /** Whether an error is the server's 429. */
  isRateLimited(error: unknown): boolean;
}

/** Episodes one title of a request may ask about (the endpoint's limit): a longer list goes in parts. */
export const EPISODES_PER_ITEM = 400;
const CONCURRENCY = 2;
const FAILED_ROUNDS = 2;
const RETRY_PAUSE_MS = 2_000;
const RATE_LIMIT_WAIT_MS = 15_000;
const CALL_TRIES = 3;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const failed = (): TitleMatch => ({ status: 'failed', match: null, candidates: [], episodes: [] });

/** Every query's match (`failed` for those the server could not look up after the retries). */
export async function matchTitles(
  queries: readonly TitleQuery[],
  { call, batchSize, onProgress, signal, wait = sleep, isRateLimited }: MatchOptions,
): Promise<Map<string, TitleMatch>> {
  const parts = splitLong(queries);
  const results = new Map<string, TitleMatch>();
  const total = parts.length;
  let done = 0;
  onProgress?.({ done, total });

  const pause = async (ms: number) => {
    onProgress?.({ done, total, waitingUntil: Date.now() + ms });
    await wait(ms);
  };

  /** One batch: tried again on a lost connection or a 429; its titles `failed` if it never goes through. */
  const runBatch = async (batch: TitleQuery[], count: boolean) => {
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      try {
        const answers = await call(batch);
        const byKey = new Map(answers.map((a) => [a.key, a]));
        for (const q of batch) {
          const { key: _key, ...match } = byKey.get(q.key) ?? { key: q.key, ...failed() };
          results.set(q.key, match);
        }
        break;
      } catch (error) {
        if (signal?.aborted) throw error;
        if (isRateLimited(error)) await pause(RATE_LIMIT_WAIT_MS * 2 ** Math.min(attempt, 3));
        else if (attempt + 1 >= CALL_TRIES) {
          for (const q of batch) results.set(q.key, failed());
          break;
        } else await pause(RETRY_PAUSE_MS);
      }
    }
    if (count) {
      done += batch.length;
      onProgress?.({ done, total });
    }
  };

  const runAll = async (list: readonly TitleQuery[], count: boolean) => {
    const batches: TitleQuery[][] = [];
    for (let i = 0; i < list.length; i += batchSize) batches.push(list.slice(i, i + batchSize));
    let next = 0;
    const worker = async () => {
      while (next < batches.length) await runBatch(batches[next++]!, count);
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, batches.length) }, worker));
  };

  await runAll(parts, true);
  for (let round = 0; round < FAILED_ROUNDS; round++) {
    const again = parts.filter((q) => results.get(q.key)?.status === 'failed');
    if (again.length === 0) break;
    await pause(RETRY_PAUSE_MS);
    await runAll(again, false);
  }
  return joinParts(queries, results);
}

/**
 * The queries as sent: each under a short key of its own (a title's key can be longer than the endpoint
 * takes), a title with more episodes than one item may ask about as several items.
 */
function splitLong(queries: readonly TitleQuery[]): TitleQuery[] {
  return queries.flatMap((q, i) => {
    const parts: TitleQuery[] = [];
    for (let from = 0; from === 0 || from < q.episodes.length; from += EPISODES_PER_ITEM)
      parts.push({
        ...q,
        key: `${i}.${parts.length}`,
        episodes: q.episodes.slice(from, from + EPISODES_PER_ITEM),
      });
    return parts;
  });
}

/** Each title's match, its parts' episodes joined in order (a part that failed fails the title). */
function joinParts(queries: readonly TitleQuery[], results: ReadonlyMap<string, TitleMatch>) {
  const out = new Map<string, TitleMatch>();
  queries.forEach((q, i) => {
    const parts: TitleMatch[] = [];
    for (let n = 0; results.has(`${i}.${n}`); n++) parts.push(results.get(`${i}.${n}`)!);
    const first = parts[0] ?? failed();
    const anyFailed = parts.some((p) => p.status === 'failed');
    out.set(q.key, {
      ...(anyFailed ? failed() : first),
      episodes: anyFailed ? [] : parts.flatMap((p) => p.episodes),
    });
  });
  return out;
}
