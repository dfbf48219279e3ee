import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPath,
  closedToKids,
  errorResponses,
  listEndpoints,
  scrapeQuery,
  titleAge,
  type ContentLimit,
  type CustomerUser,
  type Endpoint,
  type MediaSummary,
  type ProfileEnterResponse,
  type ProfileUnlockResponse,
} from '@marquee/contract';
import { loadCatalogData } from '../src/modules/metadata/catalog/catalog.ts';
import {
  callOn,
  loginCustomer,
  PASSWORD,
  signUp,
  TEST_PASSWORD_COST,
  type Caller,
  type Customer,
} from './customer-harness.ts';
import { movieMeta, startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/*
 * Kids' profiles (decision 106): a device that entered a kids' profile is the kid's until it enters
 * another profile (with that profile's PIN when it has one). Every signed-in route of the contract is
 * tried from such a device — those not open to kids must refuse with `kids_profile` — and every metadata
 * route and the scrape API are tried under and over the kid's limit, next to a grown-up's answer.
 */

const LIMIT: ContentLimit = { region: 'US', maxAge: 10, showUnrated: false };
const PIN = '1357';
const PARENT = 'parent@example.org';
const certifications = loadCatalogData().certifications!;
const ageOf = (title: { type: 'movie' | 'tv'; id: string }) =>
  titleAge(certifications[title.type][title.id] ?? {}, LIMIT.region, title.type);

/** Titles of the embedded catalog, with their US ratings. */
const MATRIX = { type: 'movie', id: '603' } as const; // R
const TOY_STORY = { type: 'movie', id: '862' } as const; // G
const INCEPTION = { type: 'movie', id: '27205' } as const; // PG-13
const TWELVE_ANGRY_MEN = { type: 'movie', id: '389' } as const; // released unrated
const BREAKING_BAD = '1396'; // TV-MA
const BLUEY = '82728'; // TV-Y

describe(`kids' profiles (${testDialect})`, () => {
  let t: SyncTestApp;
  let owner: Customer;
  /** The same account on the family tablet, which enters the kid's profile. */
  let tablet: Customer;
  let kid: string;
  let teen: string;

  const call: Caller = (...args) => callOn(t.server, ...args);
  const enter = (who: Customer, profileId: string, token?: string) =>
    call(
      'POST',
      `/customers/${who.user.id}/profile-enter`,
      {
        ...who.headers,
        ...(token ? { 'x-profile-token': token } : {}),
      },
      { profileId },
    );
  const unlockOwn = async (who: Customer) => {
    const res = await call('POST', `/customers/${who.user.id}/profile-unlock`, who.headers, {
      profileId: '',
      pin: PIN,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as ProfileUnlockResponse).token;
  };
  const codeOf = (res: { body: string }) => (JSON.parse(res.body) as { code?: string }).code;

  beforeAll(async () => {
    // The parent runs the instance: the admin pages are theirs, and still not their kid's.
    t = await startSyncApp({
      env: { ADMIN_EMAILS: PARENT },
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
    });
    owner = await signUp(t.server, { fullname: 'Parent', email: PARENT });
    tablet = await loginCustomer(t.server, owner.email);
    const made = async (fullname: string, kids?: ContentLimit) => {
      const res = await call('POST', `/customers/${owner.user.id}/profiles`, owner.headers, {
        fullname,
        icon: 'cat',
        ...(kids ? { kids } : {}),
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { profile: { _id: string } }).profile._id;
    };
    kid = await made('Kid', LIMIT);
    teen = await made('Teen');
    const pinned = await call('PUT', `/customers/${owner.user.id}/profile-pin`, owner.headers, {
      profileId: '',
      pin: PIN,
      password: PASSWORD,
    });
    expect(pinned.statusCode, pinned.body).toBe(200);
    const entered = await enter(tablet, kid);
    expect(entered.statusCode, entered.body).toBe(200);
    expect(entered.json() as ProfileEnterResponse).toEqual({ profileId: kid, kids: LIMIT });
  });
  afterAll(async () => t.close());

  it('shows which profiles are kids’ and their limits', async () => {
    const user = ((await call('GET', '/customers', owner.headers)).json() as { user: CustomerUser }).user;
    expect(user.profiles.map((p) => [p.fullname, p.kids])).toEqual([
      ['Kid', LIMIT],
      ['Teen', null],
    ]);
  });

  describe('the signed-in routes', () => {
    const signedIn = listEndpoints().filter(
      ({ endpoint }) => endpoint.auth === 'session' || endpoint.auth === 'admin',
    );
    const urlOf = (endpoint: Endpoint) =>
      buildPath(endpoint.path, {
        uid: owner.user.id,
        sid: 'x',
        profileId: teen,
        tmdbId: '603',
        code: '123456',
        paymentId: 'p',
        passkeyId: 'k',
        access: 'x',
        fileId: 'A'.repeat(22),
        type: 'intro',
      });

    it.each(
      signedIn
        .filter(({ endpoint }) => closedToKids(endpoint))
        .map(({ id, endpoint }) => [`${id}: ${endpoint.method} ${endpoint.path}`, endpoint] as const),
    )('%s refuses a kids’ profile, named or entered', async (_name, endpoint) => {
      expect(errorResponses(endpoint).get(403)).toContain('kids_profile');
      const url = urlOf(endpoint);
      // The tablet is in the kid's profile, whatever its request names (or leaves out).
      for (const headers of [tablet.headers, { ...tablet.headers, 'x-profile-id': teen }]) {
        const res = await call(endpoint.method, url, headers, endpoint.method === 'GET' ? undefined : {});
        expect([res.statusCode, codeOf(res)], res.body).toEqual([403, 'kids_profile']);
      }
      // The parent's device, naming the kid's profile.
      const named = await call(endpoint.method, url, { ...owner.headers, 'x-profile-id': kid }, undefined);
      expect([named.statusCode, codeOf(named)], named.body).toEqual([403, 'kids_profile']);
    });

    it('opens to kids only their own library’s routes and what leaving needs', () => {
      const open = signedIn.filter(({ endpoint }) => !closedToKids(endpoint)).map(({ id }) => id);
      expect(open.filter((id) => !/^(sync|history|ratings|trakt)\./.test(id)).sort()).toEqual([
        'accounts.getUser',
        'accounts.me',
        'customers.enterProfile',
        'customers.me',
        'customers.unlockProfile',
      ]);
    });

    it('gives the kid’s device the kid’s library, and refuses another profile’s', async () => {
      const put = await call('POST', `/users/${owner.user.id}/bookmarks/862`, tablet.headers, {
        tmdbId: '862',
        meta: movieMeta('Toy Story', 1995),
      });
      expect(put.statusCode, put.body).toBe(200);
      const rows = await t.db.db
        .selectFrom('bookmarks')
        .select(['profile_id', 'tmdb_id'])
        .where('user_id', '=', owner.user.id)
        .execute();
      expect(rows).toEqual([{ profile_id: kid, tmdb_id: '862' }]);
      const other = await call('GET', `/users/${owner.user.id}/bookmarks`, {
        ...tablet.headers,
        'x-profile-id': teen,
      });
      expect([other.statusCode, codeOf(other)]).toEqual([403, 'kids_profile']);
      const teens = await call('GET', `/users/${owner.user.id}/bookmarks`, {
        ...owner.headers,
        'x-profile-id': teen,
      });
      expect(teens.json()).toEqual([]);
    });
  });

  describe('the metadata routes', () => {
    const metadata = listEndpoints().filter(({ id }) => id.startsWith('metadata.'));
    const get = (url: string, who?: Customer) => call('GET', url, who?.headers ?? {});
    const within = (list: MediaSummary[]) => list.every((title) => (ageOf(title) ?? 99) <= LIMIT.maxAge);

    it('are all tried here', () => {
      expect(metadata.map(({ id }) => id).sort()).toEqual([
        'metadata.details',
        'metadata.discover',
        'metadata.findByImdb',
        'metadata.genres',
        'metadata.legacyJustWatch',
        'metadata.list',
        'metadata.match',
        'metadata.search',
        'metadata.season',
      ]);
    });

    it('search: a kid finds nothing over the limit, and what is within it', async () => {
      const matrix = await get('/api/search?query=the%20matrix');
      expect(titles(matrix).some((r) => r.id === MATRIX.id)).toBe(true);
      expect(
        titles(await get('/api/search?query=the%20matrix', tablet)).filter((r) => r.id === MATRIX.id),
      ).toEqual([]);
      const toys = titles(await get('/api/search?query=toy%20story', tablet));
      expect(toys.map((r) => r.id)).toContain(TOY_STORY.id);
      expect(within(toys)).toBe(true);
      expect(titles(await get('/api/search?query=toy%20story', tablet)).length).toBeLessThanOrEqual(
        titles(await get('/api/search?query=toy%20story')).length,
      );
    });

    it('lists and Discover rows keep to the limit, and are not empty', async () => {
      for (const url of [
        '/api/lists/movie/popular',
        '/api/lists/movie/top_rated',
        '/api/lists/tv/popular',
        '/api/discover/movie?genre=16',
        '/api/discover/tv?genre=16',
      ]) {
        const all = titles(await get(url));
        const kids = titles(await get(url, tablet));
        expect(
          all.some((title) => !((ageOf(title) ?? 99) <= LIMIT.maxAge)),
          url,
        ).toBe(true);
        expect(kids.length, url).toBeGreaterThan(0);
        expect(within(kids), url).toBe(true);
        expect(kids.map((r) => r.id)).toEqual(
          all.filter((r) => kids.some((k) => k.id === r.id)).map((r) => r.id),
        );
      }
    });

    it('genres carry no titles: the same for everyone', async () => {
      expect((await get('/api/genres/movie', tablet)).body).toBe((await get('/api/genres/movie')).body);
    });

    it('details, seasons and IMDb lookups refuse a title over the limit; recommendations keep to it', async () => {
      const over = [
        `/api/media/movie/${MATRIX.id}`,
        `/api/media/movie/${INCEPTION.id}`,
        `/api/media/movie/${TWELVE_ANGRY_MEN.id}`,
        `/api/media/tv/${BREAKING_BAD}`,
        `/api/media/tv/${BREAKING_BAD}/season/1`,
        '/api/find/tt0133093',
      ];
      for (const url of over) {
        expect((await get(url)).statusCode, url).toBe(200);
        const res = await get(url, tablet);
        expect([res.statusCode, codeOf(res)], url).toEqual([403, 'over_content_limit']);
      }
      const toyStory = await get(`/api/media/movie/${TOY_STORY.id}`, tablet);
      expect(toyStory.statusCode).toBe(200);
      expect(toyStory.json().contentRating).toBe('G');
      expect(within(toyStory.json().recommendations)).toBe(true);
      expect((await get(`/api/media/tv/${BLUEY}/season/1`, tablet)).statusCode).toBe(200);
      // Old JustWatch keys resolve to a title through their lookup (none here), then the same rule.
      const legacy = listEndpoints().find(({ id }) => id === 'metadata.legacyJustWatch')!.endpoint;
      expect(errorResponses(legacy).get(403)).toContain('over_content_limit');
    });

    it('keep to the limit for a device that names the kid’s profile without having entered it', async () => {
      const naming = { ...owner.headers, 'x-profile-id': kid };
      const res = await call('GET', `/api/media/movie/${MATRIX.id}`, naming);
      expect([res.statusCode, codeOf(res)]).toEqual([403, 'over_content_limit']);
      expect(
        titles(await call('GET', '/api/search?query=the%20matrix', naming)).map((r) => r.id),
      ).not.toContain(MATRIX.id);
      // A token that opens no session is no one's: the answer is anyone's.
      const stale = await call('GET', `/api/media/movie/${MATRIX.id}`, {
        authorization: 'Bearer not-a-session',
        'x-profile-id': kid,
      });
      expect(stale.statusCode).toBe(200);
    });

    it('unrated titles are hidden unless the limit shows them', async () => {
      const url = `/api/media/movie/${TWELVE_ANGRY_MEN.id}`;
      const patch = (kids: ContentLimit) =>
        call('PATCH', `/customers/${owner.user.id}/profiles/${kid}`, owner.headers, { kids });
      expect((await patch({ ...LIMIT, showUnrated: true })).statusCode).toBe(200);
      expect((await get(url, tablet)).statusCode).toBe(200);
      expect((await patch(LIMIT)).statusCode).toBe(200);
      expect((await get(url, tablet)).statusCode).toBe(403);
    });

    it('matching an import leaves out what is over the limit', async () => {
      const body = {
        items: [
          { key: 'm', title: 'The Matrix', year: 1999, type: 'movie' },
          { key: 't', title: 'Toy Story', year: 1995, type: 'movie' },
        ],
      };
      const grownUp = (await call('POST', '/api/match', {}, body)).json().results;
      const kids = (await call('POST', '/api/match', tablet.headers, body)).json().results;
      expect(grownUp.map((r: { status: string }) => r.status)).toEqual(['matched', 'matched']);
      expect(
        kids.map((r: { status: string; match: MediaSummary | null }) => [r.status, r.match?.id ?? null]),
      ).toEqual([
        ['unmatched', null],
        ['matched', TOY_STORY.id],
      ]);
    });
  });

  it('refuses playback over the limit, and plays within it', async () => {
    const url = (title: string, releaseYear: number, tmdbId: string) =>
      `/scrape?${new URLSearchParams(scrapeQuery({ type: 'movie', title, releaseYear, tmdbId }))}`;
    const isStream = (res: { statusCode: number; headers: Record<string, unknown> }) =>
      res.statusCode === 200 && String(res.headers['content-type']).startsWith('text/event-stream');
    const scrape = listEndpoints().find(({ id }) => id === 'sources.scrape')!.endpoint;
    expect(errorResponses(scrape).get(403)).toContain('over_content_limit');
    const matrix = await call('GET', url('The Matrix', 1999, MATRIX.id), tablet.headers);
    expect([matrix.statusCode, codeOf(matrix)]).toEqual([403, 'over_content_limit']);
    const toys = await call('GET', url('Toy Story', 1995, TOY_STORY.id), tablet.headers);
    expect(isStream(toys), toys.body).toBe(true);
    const teenage = { ...owner.headers, 'x-profile-id': teen };
    expect(isStream(await call('GET', url('The Matrix', 1999, MATRIX.id), teenage))).toBe(true);
  });

  describe('leaving', () => {
    it('to a profile with a PIN needs its PIN entered on this device; to one without, nothing', async () => {
      const locked = await enter(tablet, '');
      expect([locked.statusCode, codeOf(locked)]).toEqual([403, 'profile_locked']);
      // Another device's unlock is not this one's.
      const elsewhere = await enter(tablet, '', await unlockOwn(owner));
      expect([elsewhere.statusCode, codeOf(elsewhere)]).toEqual([403, 'profile_locked']);
      const sessions = `/users/${owner.user.id}/sessions`;
      expect((await call('GET', sessions, tablet.headers)).statusCode).toBe(403);

      const teenage = await enter(tablet, teen);
      expect(teenage.json()).toEqual({ profileId: teen, kids: null });
      expect((await call('GET', sessions, tablet.headers)).statusCode).toBe(200);
      expect(
        titles(await call('GET', '/api/search?query=the%20matrix', tablet.headers)).map((r) => r.id),
      ).toContain(MATRIX.id);

      expect((await enter(tablet, kid)).statusCode).toBe(200);
      expect((await call('GET', sessions, tablet.headers)).statusCode).toBe(403);
      const own = await enter(tablet, '', await unlockOwn(tablet));
      expect(own.json()).toEqual({ profileId: '', kids: null });
      expect((await call('GET', sessions, tablet.headers)).statusCode).toBe(200);
    });

    it('a kids’ profile that is a kid’s no more limits nothing; one of another account is not found', async () => {
      expect((await enter(tablet, kid)).statusCode).toBe(200);
      const lifted = await call('PATCH', `/customers/${owner.user.id}/profiles/${kid}`, owner.headers, {
        kids: null,
      });
      expect(lifted.json().profile.kids).toBeNull();
      expect((await call('GET', `/api/media/movie/${MATRIX.id}`, tablet.headers)).statusCode).toBe(200);
      const stranger = await signUp(t.server);
      const res = await enter(stranger, kid);
      expect([res.statusCode, codeOf(res)]).toEqual([404, 'profile_not_found']);
    });
  });

  it('refuses a limit that is not one, keeps a limit the older client’s profile list leaves out', async () => {
    for (const kids of [
      { region: 'XX', maxAge: 10, showUnrated: false },
      { region: 'US', maxAge: 30, showUnrated: false },
      { region: 'US', maxAge: 1.5 },
      'PG',
    ]) {
      const res = await call('PATCH', `/customers/${owner.user.id}/profiles/${teen}`, owner.headers, {
        kids,
      });
      expect([res.statusCode, codeOf(res)], JSON.stringify(kids)).toEqual([400, 'validation_failed']);
    }
    await call('PATCH', `/customers/${owner.user.id}/profiles/${teen}`, owner.headers, { kids: LIMIT });
    const user = ((await call('GET', '/customers', owner.headers)).json() as { user: CustomerUser }).user;
    const res = await call('POST', `/customers/${owner.user.id}/update`, owner.headers, {
      profiles: user.profiles.map(({ _id, fullname, icon }) => ({ _id, fullname, icon })),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { user: CustomerUser }).user.profiles.find((p) => p._id === teen)?.kids).toEqual(
      LIMIT,
    );
  });

  function titles(res: { body: string }) {
    return (JSON.parse(res.body) as { results: MediaSummary[] }).results;
  }
});
