import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrapeQuery, type ScrapeMediaParams } from '@marquee/contract';
import { Catalog, loadCatalogData } from '../src/modules/metadata/catalog/catalog.ts';
import { signUp, TEST_PASSWORD_COST, type Customer } from './customer-harness.ts';
import { register, startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

const inception: ScrapeMediaParams = {
  type: 'movie',
  title: 'Inception',
  releaseYear: 2010,
  tmdbId: '27205',
};
const matrix: ScrapeMediaParams = { type: 'movie', title: 'The Matrix', releaseYear: 1999, tmdbId: '603' };
/** A show numbered as the free movie (603): the metadata below has it (the scrape API refuses unknown media). */
const breakingBad: ScrapeMediaParams = {
  type: 'show',
  title: 'Breaking Bad',
  releaseYear: 2008,
  tmdbId: '603',
  season: { number: 1, tmdbId: '3572' },
  episode: { number: 1, tmdbId: '62085' },
};
/** The embedded catalog plus a copy of Breaking Bad numbered 603, as the free movie. */
function catalogWithShow603(): Catalog {
  const data = loadCatalogData();
  const show = data.shows.find((x) => x.id === 1396)!;
  return new Catalog({ ...data, shows: [...data.shows, { ...show, id: 603 }] });
}
const scrapeUrl = (media: ScrapeMediaParams, extra: Record<string, string> = {}) =>
  `/scrape?${new URLSearchParams({ ...scrapeQuery(media), ...extra })}`;
const sourceUrl = (media: ScrapeMediaParams) =>
  `/scrape/source?${new URLSearchParams(scrapeQuery(media, { id: 'sample' }))}`;

describe(`membership gate on source resolution (${testDialect})`, () => {
  let t: SyncTestApp;
  let member: Customer;
  let viewer: Customer;
  let admin: Customer;
  beforeAll(async () => {
    t = await startSyncApp({
      env: {
        VARIANT: 'subscription',
        ALLOW_SIMULATED_PAYMENTS: 'true',
        AUTH_METHODS: 'email,passphrase',
        FREE_MOVIE_TMDB_ID: '603',
        ADMIN_EMAILS: 'root@example.org',
      },
      deps: {
        accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST },
        metadataApi: catalogWithShow603(),
      },
    });
    member = await signUp(t.server);
    viewer = await signUp(t.server);
    admin = await signUp(t.server, { email: 'root@example.org' });
    const sub = await t.server.inject({
      method: 'POST',
      url: `/customers/${member.user.id}/suscription`,
      headers: member.headers,
      payload: { planId: 2, criptoName: 'BTC', code: null },
    });
    const paid = await t.server.inject({
      method: 'POST',
      url: `/api/payments/${sub.json().payment.id}/simulate-paid`,
      headers: member.headers,
    });
    expect(paid.json().membership.active).toBe(true);
  });
  afterAll(async () => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.server.inject({ method: 'GET', url, headers });
  const isStream = (res: { statusCode: number; headers: Record<string, unknown> }) =>
    res.statusCode === 200 && String(res.headers['content-type']).startsWith('text/event-stream');

  it('lets a member resolve sources (bearer header, X-auth-token, or ?access_token= for EventSource)', async () => {
    expect(isStream(await get(scrapeUrl(inception), member.headers))).toBe(true);
    expect(isStream(await get(scrapeUrl(inception), { 'x-auth-token': member.token }))).toBe(true);
    expect(isStream(await get(scrapeUrl(inception, { access_token: member.token })))).toBe(true);
    expect(isStream(await get(sourceUrl(breakingBad), member.headers))).toBe(true);
  });

  it('asks a signed-in non-member for a membership (402 membership_required) on every title but the free movie', async () => {
    for (const url of [scrapeUrl(inception), sourceUrl(inception), sourceUrl(breakingBad)]) {
      const res = await get(url, viewer.headers);
      expect(res.statusCode, url).toBe(402);
      expect(res.json()).toEqual({
        errorType: 'message',
        code: 'membership_required',
        message: 'A membership is needed to watch this title',
      });
    }
    // The free movie of the month plays for anyone; a show with the same TMDB number does not.
    expect(isStream(await get(scrapeUrl(matrix), viewer.headers))).toBe(true);
    expect(isStream(await get(sourceUrl(matrix)))).toBe(true);
  });

  it('asks an anonymous visitor to sign in (401 login_required); a bad token counts as none', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer not-a-session' },
      { authorization: 'Basic x' },
    ] as Record<string, string>[]) {
      const res = await get(scrapeUrl(inception), headers);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('login_required');
    }
    expect(isStream(await get(scrapeUrl(matrix)))).toBe(true);
  });

  it('lets admins check playback without a membership, and counts expiry', async () => {
    expect(isStream(await get(scrapeUrl(inception), admin.headers))).toBe(true);
    // (Used in between, so the session — 21 days without use — stays alive.)
    t.clock.advance(16 * 24 * 60 * 60_000);
    expect(isStream(await get(scrapeUrl(inception), member.headers))).toBe(true);
    t.clock.advance(16 * 24 * 60 * 60_000);
    expect((await get(scrapeUrl(inception), member.headers)).statusCode).toBe(402);
    const me = (await get('/customers', member.headers)).json().user;
    expect(me).toMatchObject({ hasMembership: false });
    expect(me.endSubcriptionDate).not.toBeNull();
  });

  it('gates passphrase accounts the same way (either kind of account can hold a membership)', async () => {
    const p = await register(t.server);
    expect((await get(scrapeUrl(inception), p.headers)).statusCode).toBe(402);
  });
});

describe(`no gate on the discovery site (${testDialect})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({ env: { VARIANT: 'discovery' } });
  });
  afterAll(async () => t.close());

  it('resolves sources for anyone', async () => {
    const res = await t.server.inject({ method: 'GET', url: scrapeUrl(inception) });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/event-stream/);
  });
});
