import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgressListItem, ProgressPage } from '@marquee/contract';
import { movieMeta, register, showMeta, startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

const body = <T = any>(res: { body: string }) => JSON.parse(res.body) as T;

/* p-stream's "clean up progress" (its admin page): DELETE /users/:uid/progress/cleanup. */
describe(`progress cleanup (${testDialect})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { rateLimits: false } } });
  });
  afterAll(async () => t.close());

  it('removes what is barely started or as good as finished, keeps the rest, and other devices see the removals', async () => {
    const a = await register(t.server);
    const call = (method: string, path: string, payload?: unknown) =>
      t.server.inject({
        method: method as 'GET',
        url: `/users/${a.user.id}${path}`,
        headers: a.headers,
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });
    const episode = (episodeId: string, watched: number) => ({
      meta: showMeta(),
      duration: 2900,
      watched,
      seasonId: '3572',
      episodeId,
      seasonNumber: 1,
      episodeNumber: Number(episodeId) - 62084,
    });
    await call('PUT', '/progress/603', { meta: movieMeta(), duration: 8000, watched: 10 }); // barely started
    await call('PUT', '/progress/550', { meta: movieMeta('Fight Club'), duration: 8000, watched: 7950 }); // finished
    await call('PUT', '/progress/680', { meta: movieMeta('Pulp Fiction'), duration: 9000, watched: 3000 }); // kept
    await call('PUT', '/progress/1396', episode('62085', 2850)); // finished
    await call('PUT', '/progress/1396', episode('62086', 1200)); // kept
    const { version } = body<ProgressPage>(await call('GET', '/progress?limit=100'));

    const res = await call('DELETE', '/progress/cleanup');
    expect(res.statusCode).toBe(200);
    expect(body(res)).toMatchObject({ deletedCount: 3 });
    expect(typeof body(res).message).toBe('string');

    const left = body<ProgressListItem[]>(await call('GET', '/progress'));
    expect(left.map((r) => `${r.tmdbId}/${r.episode.id ?? ''}`).sort()).toEqual(['1396/62086', '680/']);
    const since = body<ProgressPage>(await call('GET', `/progress?updatedSince=${version}`));
    expect(since.removed.map((r) => `${r.tmdbId}/${r.episodeId ?? ''}`).sort()).toEqual([
      '1396/62085',
      '550/',
      '603/',
    ]);
    // Nothing left to clean: nothing removed, and the word is never taken for a title id.
    expect(body(await call('DELETE', '/progress/cleanup'))).toMatchObject({ deletedCount: 0 });
  });
});
