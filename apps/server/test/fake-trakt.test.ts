import { afterEach, expect, it } from 'vitest';
import { startFakeTrakt, type FakeTrakt, type FakeTraktOptions } from './fake-trakt.ts';

/*
 * The fake Trakt keeps the documented behaviour the sync's tests rely on: the device flow's status codes,
 * tokens that expire and refresh once, history that is not deduplicated, the scrobble conflict, the
 * watchlist's account limit and last_activities moving on changes.
 */

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

let fake: FakeTrakt | undefined;
let clock = Date.UTC(2026, 0, 15, 12);

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(options: FakeTraktOptions = {}): Promise<FakeTrakt> {
  clock = Date.UTC(2026, 0, 15, 12);
  fake = await startFakeTrakt({ now: () => clock, ...options });
  return fake;
}

async function call(
  trakt: FakeTrakt,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<Answer> {
  const response = await fetch(`${trakt.url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'trakt-api-key': trakt.clientId,
      'trakt-api-version': '2',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('application/json') && text !== '';
  return { status: response.status, headers: response.headers, body: json ? JSON.parse(text) : text };
}

/** Links `username` through the device flow; answers the token JSON. */
async function link(trakt: FakeTrakt, username: string) {
  const code = await call(trakt, 'POST', '/oauth/device/code', { body: { client_id: trakt.clientId } });
  trakt.approve(code.body.user_code, username);
  const token = await call(trakt, 'POST', '/oauth/device/token', {
    body: { code: code.body.device_code, client_id: trakt.clientId, client_secret: trakt.clientSecret },
  });
  expect(token.status).toBe(200);
  return token.body as { access_token: string; refresh_token: string };
}

it('fake Trakt runs the device flow: pending, too fast, approved, then already used', async () => {
  const trakt = await start();
  const code = await call(trakt, 'POST', '/oauth/device/code', { body: { client_id: trakt.clientId } });
  expect(code.status).toBe(200);
  expect(code.body).toMatchObject({
    verification_url: 'https://trakt.tv/activate',
    expires_in: 600,
    interval: 5,
  });
  expect(code.body.device_code).toMatch(/^[0-9a-f]{40}$/);
  expect(code.body.user_code).toMatch(/^[A-Z0-9]{8}$/);
  const poll = () =>
    call(trakt, 'POST', '/oauth/device/token', {
      body: { code: code.body.device_code, client_id: trakt.clientId, client_secret: trakt.clientSecret },
    });
  expect((await poll()).status).toBe(400);
  expect((await poll()).status).toBe(429);
  clock += 5_000;
  trakt.approve(code.body.user_code, 'alice');
  const token = await poll();
  expect(token.status).toBe(200);
  expect(token.body).toMatchObject({ token_type: 'bearer', scope: 'public', expires_in: 86_400 });
  clock += 5_000;
  expect((await poll()).status).toBe(409);
  const wrongSecret = await call(trakt, 'POST', '/oauth/device/token', {
    body: { code: code.body.device_code, client_id: trakt.clientId, client_secret: 'nope' },
  });
  expect(wrongSecret.status).toBe(401);
  const settings = await call(trakt, 'GET', '/users/settings', { token: token.body.access_token });
  expect(settings.body.user).toMatchObject({ username: 'alice', vip: false });
  expect((await call(trakt, 'GET', '/users/settings')).status).toBe(401);
  expect(trakt.requests.at(-2)).toMatchObject({ path: '/users/settings', status: 200, user: 'alice' });
});

it('fake Trakt answers 401 after expireAccessTokens; the refresh token works once', async () => {
  const trakt = await start();
  const first = await link(trakt, 'bob');
  trakt.expireAccessTokens('bob');
  expect(trakt.activeTokens('bob')).toBe(0);
  expect((await call(trakt, 'GET', '/sync/last_activities', { token: first.access_token })).status).toBe(401);
  const refreshBody = {
    refresh_token: first.refresh_token,
    client_id: trakt.clientId,
    client_secret: trakt.clientSecret,
    redirect_uri: 'urn:ietf:wg:oauth:2.0:oob',
    grant_type: 'refresh_token',
  };
  const second = await call(trakt, 'POST', '/oauth/token', { body: refreshBody });
  expect(second.status).toBe(200);
  expect((await call(trakt, 'GET', '/users/settings', { token: second.body.access_token })).status).toBe(200);
  const again = await call(trakt, 'POST', '/oauth/token', { body: refreshBody });
  expect(again.status).toBe(401);
  expect(again.body.error).toBe('invalid_grant');
  expect(trakt.activeTokens('bob')).toBe(1);
});

it('fake Trakt holds a play sent twice twice, newest first', async () => {
  const trakt = await start();
  const { access_token: token } = await link(trakt, 'carol');
  const body = { movies: [{ ids: { tmdb: 603 }, watched_at: '2026-01-10T20:00:00.000Z' }] };
  for (let i = 0; i < 2; i++) {
    const added = await call(trakt, 'POST', '/sync/history', { token, body });
    expect(added.status).toBe(201);
    expect(added.body.added).toEqual({ movies: 1, episodes: 0 });
  }
  const episode = { shows: [{ ids: { tmdb: 1396 }, seasons: [{ number: 1, episodes: [{ number: 2 }] }] }] };
  await call(trakt, 'POST', '/sync/history', { token, body: episode });
  const unknown = await call(trakt, 'POST', '/sync/history', {
    token,
    body: { movies: [{ ids: { tmdb: 1 } }] },
  });
  expect(unknown.body.not_found.movies).toEqual([{ ids: { tmdb: 1 } }]);
  expect(trakt.history('carol').filter((p) => p.tmdbId === 603)).toHaveLength(2);
  const list = await call(trakt, 'GET', '/sync/history?limit=2', { token });
  expect(list.headers.get('x-pagination-item-count')).toBe('3');
  expect(list.headers.get('x-pagination-page-count')).toBe('2');
  expect(list.body[0]).toMatchObject({
    type: 'episode',
    action: 'watch',
    episode: { season: 1, number: 2, ids: { tmdb: 62086 } },
    show: { ids: { tmdb: 1396 } },
  });
  expect(list.body[1]).toMatchObject({
    watched_at: '2026-01-10T20:00:00.000Z',
    movie: { ids: { tmdb: 603 } },
  });
});

it('fake Trakt answers 409 to a second scrobble of the same item within the conflict window', async () => {
  const trakt = await start();
  const { access_token: token } = await link(trakt, 'dave');
  const body = { movie: { ids: { tmdb: 27205 } }, progress: 92 };
  const first = await call(trakt, 'POST', '/scrobble/stop', { token, body });
  expect(first.status).toBe(201);
  expect(first.body).toMatchObject({ action: 'scrobble', progress: 92, movie: { ids: { tmdb: 27205 } } });
  clock += 60_000;
  const second = await call(trakt, 'POST', '/scrobble/stop', { token, body });
  expect(second.status).toBe(409);
  expect(second.body.expires_at).toBe(new Date(clock - 60_000 + 3_600_000).toISOString());
  const paused = await call(trakt, 'POST', '/scrobble/stop', { token, body: { ...body, progress: 40 } });
  expect(paused.body.action).toBe('pause');
  expect(trakt.history('dave')).toMatchObject([{ action: 'scrobble', type: 'movie', tmdbId: 27205 }]);
  expect(trakt.scrobbles('dave').map((s) => s.answered)).toEqual([201, 409, 201]);
});

it('fake Trakt answers 420 when the watchlist would pass its limit, adding nothing', async () => {
  const trakt = await start({ watchlistLimit: 2 });
  const { access_token: token } = await link(trakt, 'erin');
  const two = { movies: [{ ids: { tmdb: 603 } }, { ids: { tmdb: 550 } }] };
  expect((await call(trakt, 'POST', '/sync/watchlist', { token, body: two })).body.added.movies).toBe(2);
  const full = await call(trakt, 'POST', '/sync/watchlist', {
    token,
    body: { shows: [{ ids: { tmdb: 1396 } }] },
  });
  expect(full.status).toBe(420);
  expect(full.headers.get('x-account-limit')).toBe('2');
  expect(full.headers.get('x-upgrade-url')).toBe('https://trakt.tv/vip');
  expect(trakt.watchlist('erin').map((w) => w.tmdbId)).toEqual([603, 550]);
});

it('fake Trakt keeps one rating per title, newest first; a rating outside 1–10 is not found', async () => {
  const trakt = await start();
  const { access_token: token } = await link(trakt, 'gale');
  const before = (await call(trakt, 'GET', '/sync/last_activities', { token })).body;
  clock += 1_000;
  const added = await call(trakt, 'POST', '/sync/ratings', {
    token,
    body: {
      movies: [
        { rated_at: '2020-01-01T00:00:00.000Z', rating: 7, ids: { tmdb: 603 } },
        { rating: 11, ids: { tmdb: 550 } },
        { rating: 5, ids: { tmdb: 999999 } },
      ],
      shows: [{ rating: 9, ids: { tmdb: 1396 } }],
    },
  });
  expect(added.status).toBe(201);
  expect(added.body.added).toEqual({ movies: 1, shows: 1, seasons: 0, episodes: 0 });
  expect(added.body.not_found.movies).toHaveLength(2);
  const after = (await call(trakt, 'GET', '/sync/last_activities', { token })).body;
  expect(after.movies.rated_at).toBe(new Date(clock).toISOString());
  expect(after.shows.rated_at).toBe(new Date(clock).toISOString());
  expect(after.movies.watched_at).toBe(before.movies.watched_at);
  // Rated again: replaced, not added.
  await call(trakt, 'POST', '/sync/ratings', {
    token,
    body: { movies: [{ rating: 8, ids: { tmdb: 603 } }] },
  });
  const movies = (await call(trakt, 'GET', '/sync/ratings/movies', { token })).body;
  expect(movies).toEqual([
    expect.objectContaining({
      rating: 8,
      type: 'movie',
      movie: expect.objectContaining({ title: 'The Matrix' }),
    }),
  ]);
  const shows = (await call(trakt, 'GET', '/sync/ratings/shows', { token })).body;
  expect(shows.map((r: { show: { ids: { tmdb: number } } }) => r.show.ids.tmdb)).toEqual([1396]);
  const removed = await call(trakt, 'POST', '/sync/ratings/remove', {
    token,
    body: { shows: [{ ids: { tmdb: 1396 } }] },
  });
  expect(removed.body.deleted.shows).toBe(1);
  expect(trakt.ratings('gale').map((r) => [r.type, r.tmdbId, r.rating])).toEqual([['movie', 603, 8]]);
});

it('fake Trakt moves last_activities on changes made through the API and at trakt.tv', async () => {
  const trakt = await start();
  const { access_token: token } = await link(trakt, 'finn');
  const before = (await call(trakt, 'GET', '/sync/last_activities', { token })).body;
  clock += 1_000;
  trakt.addPlay('finn', { type: 'episode', tmdbId: 66732, season: 1, number: 3 });
  const afterPlay = (await call(trakt, 'GET', '/sync/last_activities', { token })).body;
  expect(afterPlay.episodes.watched_at).toBe(new Date(clock).toISOString());
  expect(afterPlay.movies.watched_at).toBe(before.movies.watched_at);
  expect(afterPlay.all).toBe(afterPlay.episodes.watched_at);
  clock += 1_000;
  await call(trakt, 'POST', '/sync/watchlist', { token, body: { movies: [{ ids: { tmdb: 348 } }] } });
  const afterList = (await call(trakt, 'GET', '/sync/last_activities', { token })).body;
  expect(afterList.movies.watchlisted_at).toBe(new Date(clock).toISOString());
  expect(afterList.watchlist.updated_at).toBe(afterList.movies.watchlisted_at);
  expect(afterList.shows.watchlisted_at).toBe(before.shows.watchlisted_at);
});

it('fake Trakt fails on demand, goes down, and limits writes', async () => {
  const trakt = await start({ postRateLimit: { requests: 1, windowMs: 1_000 } });
  const { access_token: token } = await link(trakt, 'gil');
  trakt.failNext(1, { status: 503, body: '<html>down</html>' }, { pathPrefix: '/sync' });
  const failed = await call(trakt, 'GET', '/sync/history', { token });
  expect(failed.status).toBe(503);
  expect(failed.body).toBe('<html>down</html>');
  const body = { movies: [{ ids: { tmdb: 550 } }] };
  expect((await call(trakt, 'POST', '/sync/history', { token, body })).status).toBe(201);
  const limited = await call(trakt, 'POST', '/sync/history', { token, body });
  expect(limited.status).toBe(429);
  expect(limited.headers.get('retry-after')).toBe('1');
  expect(JSON.parse(limited.headers.get('x-ratelimit')!)).toMatchObject({ name: 'AUTHED_API_POST_LIMIT' });
  trakt.setDown(true);
  await expect(call(trakt, 'GET', '/sync/history', { token })).rejects.toThrow();
  trakt.setDown(false);
  expect((await call(trakt, 'GET', '/sync/history', { token })).status).toBe(200);
});
