import { describe, expect, it } from 'vitest';
import type { TitleMatch, TitleQuery } from './import-plan.ts';
import { EPISODES_PER_ITEM, matchTitles, type MatchCall, type MatchProgress } from './match-titles.ts';

const query = (n: number, episodes = 0): TitleQuery => ({
  key: `title:${'a very long title key '.repeat(8)}${n}|2000|`,
  title: `Film ${n}`,
  episodes: Array.from({ length: episodes }, (_, i) => ({ season: 1, number: i + 1 })),
});
const found = (q: TitleQuery): TitleMatch & { key: string } => ({
  key: q.key,
  status: 'matched',
  match: { id: q.title.slice(5), type: 'movie', title: q.title, year: 2000, releaseDate: null, poster: null },
  candidates: [],
  episodes: q.episodes.map((e) => ({
    seasonId: 's1',
    seasonNumber: 1,
    seasonTitle: '',
    id: `e${e.number}`,
    number: e.number!,
    title: '',
  })),
});
const RATE_LIMITED = new Error('429');
const noWait = async () => {};

describe('matching a file’s titles through the server', () => {
  it('asks in batches of the endpoint’s size with keys it accepts, and reports progress', async () => {
    const sizes: number[] = [];
    const keys: string[] = [];
    const call: MatchCall = async (items) => {
      sizes.push(items.length);
      keys.push(...items.map((i) => i.key));
      return items.map(found);
    };
    const progress: MatchProgress[] = [];
    const queries = Array.from({ length: 60 }, (_, i) => query(i));
    const result = await matchTitles(queries, {
      call,
      batchSize: 25,
      onProgress: (p) => progress.push(p),
      isRateLimited: () => false,
      wait: noWait,
    });
    expect(sizes.sort((a, b) => b - a)).toEqual([25, 25, 10]);
    expect(keys.every((k) => k.length <= 100)).toBe(true);
    expect([...result.keys()]).toEqual(queries.map((q) => q.key));
    expect(result.get(queries[7]!.key)!.match!.title).toBe('Film 7');
    expect(progress.at(-1)).toEqual({ done: 60, total: 60 });
  });

  it('asks again for titles the server could not look up, and waits out a 429', async () => {
    let calls = 0;
    const waits: number[] = [];
    const call: MatchCall = async (items) => {
      calls++;
      if (calls === 1) throw RATE_LIMITED;
      // The first answer fails every title; the next ones find them.
      if (calls === 2) return items.map((i) => ({ ...found(i), status: 'failed' as const, match: null }));
      return items.map(found);
    };
    const result = await matchTitles([query(1), query(2)], {
      call,
      batchSize: 25,
      isRateLimited: (e) => e === RATE_LIMITED,
      wait: async (ms) => void waits.push(ms),
    });
    expect([...result.values()].map((m) => m.status)).toEqual(['matched', 'matched']);
    expect(waits.length).toBe(2);
    expect(waits[0]).toBeGreaterThanOrEqual(10_000);
  });

  it('a batch that never goes through leaves its titles failed', async () => {
    const result = await matchTitles([query(1)], {
      call: async () => {
        throw new Error('offline');
      },
      batchSize: 25,
      isRateLimited: () => false,
      wait: noWait,
    });
    expect(result.get(query(1).key)!.status).toBe('failed');
  });

  it('a show with more episodes than one item may ask about goes in parts, joined in order', async () => {
    const asked: number[] = [];
    const long = query(5, EPISODES_PER_ITEM * 2 + 3);
    const result = await matchTitles([long], {
      call: async (items) => {
        asked.push(...items.map((i) => i.episodes.length));
        return items.map(found);
      },
      batchSize: 25,
      isRateLimited: () => false,
      wait: noWait,
    });
    expect(asked).toEqual([EPISODES_PER_ITEM, EPISODES_PER_ITEM, 3]);
    expect(result.get(long.key)!.episodes.map((e) => e!.number)).toEqual(long.episodes.map((e) => e.number));
  });

  it('stops when the viewer cancels', async () => {
    const controller = new AbortController();
    const call: MatchCall = async (items) => {
      controller.abort();
      return items.map(found);
    };
    const queries = Array.from({ length: 80 }, (_, i) => query(i));
    await expect(
      matchTitles(queries, {
        call,
        batchSize: 25,
        signal: controller.signal,
        isRateLimited: () => false,
        wait: noWait,
      }),
    ).rejects.toThrow();
  });
});
