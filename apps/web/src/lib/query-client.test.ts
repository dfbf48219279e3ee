import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initStores } from '../stores/index.ts';
import { api, ApiError } from './api/index.ts';
import { METADATA_BUDGET_MS } from './api/client.ts';
import { searchQueries } from './api/queries/search.ts';
import { createQueryClient, shouldRetry } from './query-client.ts';
import { memoryStorage, setAppStorage } from './storage.ts';

/*
 * Decision 082 in the browser: one metadata request waits at most METADATA_BUDGET_MS (8 s) in all. The
 * server already tried both TMDB hosts within its 7 s, so the browser does not ask again; a lost
 * connection to our own server is tried once more inside the budget. Fake timers stand in for the waits.
 */

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const unavailable = () =>
  json({ errorType: 'message', code: 'metadata_unavailable', message: 'Failed to load metadata' }, 503);
const results = () => json({ results: [] });

/** A fetch that plays `steps` in turn: an answer after `afterMs`, a lost connection, or no answer ever. */
function server(...steps: ({ afterMs: number; answer: () => Response } | 'lost' | 'hang')[]) {
  const calls: number[] = [];
  const fetch = vi.fn((_url: string, init: RequestInit) => {
    calls.push(Date.now());
    const step = steps.shift() ?? 'hang';
    return new Promise<Response>((resolve, reject) => {
      const abort = () => reject(init.signal!.reason);
      init.signal?.addEventListener('abort', abort);
      if (step === 'lost') reject(new TypeError('Failed to fetch'));
      else if (step !== 'hang') setTimeout(() => resolve(step.answer()), step.afterMs);
    });
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, calls };
}

/** Runs a search as the search page does (the app's QueryClient), and says how it ended and when. */
async function search() {
  const client = createQueryClient();
  const started = Date.now();
  let ended: number | undefined;
  const outcome = client
    .fetchQuery(searchQueries.results('alien', 'en'))
    .then(
      (value) => ({ value, error: undefined }),
      (error: unknown) => ({ value: undefined, error }),
    )
    .finally(() => (ended = Date.now()));
  // Far past any budget: whatever retries the policy allows have happened by then.
  await vi.advanceTimersByTimeAsync(120_000);
  client.clear();
  return { ...(await outcome), ms: ended! - started };
}

beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('one user-visible metadata request (decision 082)', () => {
  it("shows the server's error when TMDB hangs: one call, answered within the server's budget", async () => {
    const { fetch } = server({ afterMs: 7_000, answer: unavailable });
    const { error, ms } = await search();
    expect(error).toMatchObject({ status: 503, code: 'metadata_unavailable' });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(ms).toBe(7_000);
  });

  it('gives up on a server that does not answer after the budget, without asking again', async () => {
    const { fetch } = server('hang');
    const { error, ms } = await search();
    expect(error).toMatchObject({ status: 0, code: 'network_error', final: true });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(ms).toBe(METADATA_BUDGET_MS);
  });

  it('tries a lost connection once more, within the same budget', async () => {
    const recovered = server('lost', { afterMs: 100, answer: results });
    expect(await search()).toMatchObject({ value: { results: [] }, error: undefined });
    expect(recovered.fetch).toHaveBeenCalledTimes(2);

    const lostThenHung = server('lost', 'hang');
    const { error, ms } = await search();
    expect(error).toMatchObject({ code: 'network_error', final: true });
    expect(lostThenHung.fetch).toHaveBeenCalledTimes(2);
    expect(ms).toBe(METADATA_BUDGET_MS);
  });

  it('does not try a lost connection again when too little of the budget is left', async () => {
    const { fetch } = server({ afterMs: 0, answer: () => results() });
    fetch.mockImplementationOnce(
      (_url: string) =>
        new Promise<Response>((_resolve, reject) =>
          setTimeout(() => reject(new TypeError('Failed to fetch')), METADATA_BUDGET_MS - 500),
        ),
    );
    const { error, ms } = await search();
    expect(error).toMatchObject({ code: 'network_error' });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(ms).toBe(METADATA_BUDGET_MS - 500);
  });

  it('never asks twice for what the server refused (4xx)', async () => {
    const { fetch } = server({
      afterMs: 10,
      answer: () => json({ errorType: 'message', code: 'bad_request', message: 'no' }, 400),
    });
    expect((await search()).error).toMatchObject({ status: 400 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('keeps the 20 s timeout and query retries for calls outside the metadata budget', async () => {
    const { fetch } = server('lost');
    const error = await api.account.me().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'network_error', final: false });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('shouldRetry', () => {
  const error = (status: number, code: ApiError['code'], final = false) =>
    new ApiError(status, code, 'x', [], final);

  it('never retries a 4xx, a failure the server retried, or a call that spent its budget', () => {
    expect(shouldRetry(0, error(404, 'media_not_found'))).toBe(false);
    expect(shouldRetry(0, error(429, 'rate_limited'))).toBe(false);
    expect(shouldRetry(0, error(503, 'metadata_unavailable'))).toBe(false);
    expect(shouldRetry(0, error(503, 'metadata_rate_limited'))).toBe(false);
    expect(shouldRetry(0, error(502, 'metadata_bad_answer'))).toBe(false);
    expect(shouldRetry(0, error(0, 'network_error', true))).toBe(false);
  });

  it('gives other network and server failures two more tries', () => {
    expect(shouldRetry(0, error(0, 'network_error'))).toBe(true);
    expect(shouldRetry(1, error(503, 'database_unavailable'))).toBe(true);
    expect(shouldRetry(2, error(500, 'internal_error'))).toBe(false);
    expect(shouldRetry(1, new Error('boom'))).toBe(true);
  });
});
