import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiErrorBody, User, UserSettings } from '@marquee/contract';
import { SecretBox, SETTINGS_KEY_FILE } from '../src/modules/settings/settings-secrets.ts';
import { login, register, startSyncApp, type SignedIn, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/*
 * Decision 094: p-stream (the newest client of the family) gets back every settings field it saves, its
 * third-party secrets sealed at rest, future fields kept within a bound; and its nickname.
 */

const body = <T = any>(res: { body: string }) => JSON.parse(res.body) as T;
const MIN = 60_000;

/** Marquee's own fields of an account that never set them. */
const ours = (id: string) => ({
  id,
  applicationTheme: null,
  applicationLanguage: null,
  defaultSubtitleLanguage: null,
  proxyUrls: null,
  enableAutoplay: null,
  subtitleStyling: null,
  defaultAudioLanguage: null,
});

const secrets = {
  febboxKey: 'febbox-SECRET-6b1d0c3e',
  debridToken: 'debrid-SECRET-91aa7f02',
  tidbKey: 'tidb-SECRET-4c7e22d9',
  traktKey: 'trakt-SECRET-e03f5a11',
};

/** Everything p-stream 5.3.7's client PUTs, as it sends it. */
const pStreamSettings = {
  applicationLanguage: 'en',
  applicationTheme: 'blue',
  defaultSubtitleLanguage: 'nl',
  proxyUrls: ['https://proxy.example/a', 'https://proxy.example/b'],
  ...secrets,
  debridService: 'realdebrid',
  lastSuccessfulSource: 'sample',
  sourceOrder: ['sample', 'library', 'other'],
  embedOrder: ['embed-a', 'embed-b'],
  homeSectionOrder: ['watching', 'bookmarks', 'trending'],
  disabledSources: ['broken'],
  disabledEmbeds: [],
  enableThumbnails: true,
  enableAutoplay: true,
  enableSkipCredits: false,
  enableAutoSkipSegments: true,
  enableDiscover: true,
  enableFeatured: false,
  enableDetailsModal: true,
  enableImageLogos: false,
  enableCarouselView: true,
  enableMinimalCards: false,
  forceCompactEpisodeView: true,
  enableSourceOrder: true,
  enableLastSuccessfulSource: false,
  enableEmbedOrder: true,
  proxyTmdb: false,
  enableLowPerformanceMode: true,
  enableNativeSubtitles: false,
  enableHoldToBoost: true,
  manualSourceSelection: false,
  enableDoubleClickToSeek: true,
  enableAutoResumeOnPlaybackError: false,
  enablePauseOverlay: true,
  enableNumberKeySeeking: false,
  keyboardShortcuts: {
    togglePlay: { key: ' ', modifiers: [] },
    seekForward: { key: 'ArrowRight', modifiers: ['shift'] },
  },
  customTheme: {
    primary: '#ff0000',
    secondary: '#00ff00',
    tertiary: '#0000ff',
    savedCustomThemes: [{ id: 't1', name: 'Mine', primary: '#1', secondary: '#2', tertiary: '#3' }],
    hiddenDefaultThemes: ['teal'],
  },
};

describe(`settings the family saves, and nicknames (${testDialect})`, () => {
  let t: SyncTestApp;
  let dataDir: string;
  let a: SignedIn;
  const iso = (offsetMs = 0) => new Date(t.clock.ms + offsetMs).toISOString();
  const call = (method: string, url: string, payload?: unknown, who: SignedIn = a) =>
    t.server.inject({
      method: method as 'GET',
      url: `/users/${who.user.id}${url}`,
      headers: who.headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const settings = async (who: SignedIn = a) =>
    body<UserSettings>(await call('GET', '/settings', undefined, who));
  const storedRow = () =>
    t.db.db.selectFrom('user_settings').selectAll().where('user_id', '=', a.user.id).executeTakeFirst();

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'marquee-settings-'));
    t = await startSyncApp({ env: { DATA_DIR: dataDir }, deps: { accounts: { rateLimits: false } } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    t.clock.advance(10 * MIN);
    a = await register(t.server);
  });

  describe('settings', () => {
    it('answers only our fields until p-stream’s are set; its full PUT comes back field for field', async () => {
      expect(await settings()).toEqual(ours(a.user.id));
      const put = await call('PUT', '/settings', pStreamSettings);
      expect(put.statusCode, put.body).toBe(200);
      const expected = { ...ours(a.user.id), ...pStreamSettings };
      expect(body(put)).toEqual(expected);
      expect(await settings()).toEqual(expected);
      // Another device of the same account reads the same.
      const other = await login(t.server, a.keys);
      expect(await settings(other)).toEqual(expected);
    });

    it('a partial PUT changes only its fields; null clears a field (answered as null from then on)', async () => {
      await call('PUT', '/settings', pStreamSettings);
      const res = await call('PUT', '/settings', {
        enableThumbnails: false,
        sourceOrder: ['other'],
        febboxKey: null,
        customTheme: null,
      });
      expect(res.statusCode, res.body).toBe(200);
      const expected = {
        ...ours(a.user.id),
        ...pStreamSettings,
        enableThumbnails: false,
        sourceOrder: ['other'],
        febboxKey: null,
        customTheme: null,
      };
      expect(body(res)).toEqual(expected);
      expect(await settings()).toEqual(expected);
    });

    it('per field, an older change to a p-stream field never overwrites a newer one; other fields land', async () => {
      await call('PUT', '/settings', { enableThumbnails: true, traktKey: 'new-key', updatedAt: iso(-MIN) });
      const stale = await call('PUT', '/settings', {
        enableThumbnails: false,
        traktKey: 'old-key',
        embedOrder: ['x'],
        updatedAt: iso(-2 * MIN),
      });
      expect(stale.statusCode).toBe(200);
      expect(await settings()).toMatchObject({
        enableThumbnails: true,
        traktKey: 'new-key',
        embedOrder: ['x'],
      });
      // A clear that is older than the value stays out too; a newer one lands.
      await call('PUT', '/settings', { traktKey: null, updatedAt: iso(-3 * MIN) });
      expect(await settings()).toMatchObject({ traktKey: 'new-key' });
      await call('PUT', '/settings', { traktKey: null });
      expect(await settings()).toMatchObject({ traktKey: null });
      const changedAt = JSON.parse((await storedRow())!.changed_at) as Record<string, number>;
      expect(changedAt).toMatchObject({ enableThumbnails: t.clock.ms - MIN, traktKey: t.clock.ms });
    });

    it('keeps future fields (well-named, any JSON) and returns them; ignores badly named ones and `id`', async () => {
      const res = await call('PUT', '/settings', {
        bookmarkRowsToShow: 3,
        gamepadMapping: { a: 'select', b: 'back' },
        preferredMinimumResolution: '1080',
        spatial_navigation: null,
        'bad-name': 1,
        _private: 2,
        ['x'.repeat(65)]: 3,
        id: 'someone-else',
      });
      expect(res.statusCode, res.body).toBe(200);
      const expected = {
        ...ours(a.user.id),
        bookmarkRowsToShow: 3,
        gamepadMapping: { a: 'select', b: 'back' },
        preferredMinimumResolution: '1080',
        spatial_navigation: null,
      };
      expect(body(res)).toEqual(expected);
      expect(await settings()).toEqual(expected);
      // Older clients' shapes are untouched by them.
      await call('PUT', '/settings', { applicationLanguage: 'de', defaultSubtitleLanguage: 'en' });
      expect(await settings()).toEqual({
        ...expected,
        applicationLanguage: 'de',
        defaultSubtitleLanguage: 'en',
      });
    });

    it('refuses an extra object past its bound with 413 settings_too_large, writing nothing of that PUT', async () => {
      await call('PUT', '/settings', { applicationLanguage: 'nl', enableThumbnails: true });
      const before = await storedRow();
      const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`future${i}`, i]));
      const big = { futureBlob: 'x'.repeat(33 * 1024) };
      for (const payload of [
        { applicationLanguage: 'fr', enableThumbnails: false, ...many },
        { applicationLanguage: 'fr', enableThumbnails: false, ...big },
      ]) {
        const res = await call('PUT', '/settings', payload);
        expect(res.statusCode, res.body).toBe(413);
        expect(body<ApiErrorBody>(res)).toMatchObject({ errorType: 'message', code: 'settings_too_large' });
      }
      expect(await storedRow()).toEqual(before);
      expect(await settings()).toEqual({
        ...ours(a.user.id),
        applicationLanguage: 'nl',
        enableThumbnails: true,
      });
      // The bound is on what is stored: two PUTs within it each, past it together.
      const half = (from: number) =>
        Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${from + i}`, i]));
      expect((await call('PUT', '/settings', half(0))).statusCode).toBe(200);
      expect((await call('PUT', '/settings', half(100))).statusCode).toBe(413);
      expect(Object.keys(await settings())).toHaveLength(Object.keys(ours('')).length + 1 + 60);
    });

    it('refuses wrong types for p-stream’s and our fields with 400, writing nothing', async () => {
      await call('PUT', '/settings', { enableThumbnails: true });
      const before = await storedRow();
      for (const bad of [
        { enableThumbnails: 'yes' },
        { enableSkipCredits: 1 },
        { sourceOrder: 'sample' },
        { sourceOrder: [1] },
        { disabledEmbeds: Array.from({ length: 201 }, (_, i) => `e${i}`) },
        { febboxKey: 5 },
        { traktKey: 'x'.repeat(2049) },
        { debridService: { name: 'rd' } },
        { keyboardShortcuts: ['space'] },
        { keyboardShortcuts: 'space' },
        { customTheme: 'red' },
        { customTheme: { primary: 5 } },
        { applicationLanguage: 5 },
        { defaultAudioLanguage: 'EN' },
        { enableAutoplay: 'true', futureField: 1 },
      ]) {
        const res = await call('PUT', '/settings', { ...bad, enableDiscover: true });
        expect(res.statusCode, JSON.stringify(bad)).toBe(400);
        expect(body<ApiErrorBody>(res).code).toBe('validation_failed');
      }
      expect(await storedRow()).toEqual(before);
    });

    it('keeps our watched threshold (a share, 0.5–1) beside the others: absent until set, per field, refused out of range', async () => {
      expect(await settings()).toEqual(ours(a.user.id));
      const put = await call('PUT', '/settings', { watchedThreshold: 0.8 });
      expect(put.statusCode, put.body).toBe(200);
      expect(body(put)).toEqual({ ...ours(a.user.id), watchedThreshold: 0.8 });
      expect(await settings(await login(t.server, a.keys))).toEqual({
        ...ours(a.user.id),
        watchedThreshold: 0.8,
      });
      // An older change (another device's, late) does not overwrite it.
      await call('PUT', '/settings', { watchedThreshold: 1, updatedAt: iso(-MIN) });
      expect((await settings()).watchedThreshold).toBe(0.8);

      const before = await storedRow();
      for (const bad of [0.3, 0.49, 1.01, 90, -1, '0.9', true, [0.9], { share: 0.9 }]) {
        const res = await call('PUT', '/settings', { watchedThreshold: bad, enableThumbnails: true });
        expect(res.statusCode, JSON.stringify(bad)).toBe(400);
        expect(body<ApiErrorBody>(res).code).toBe('validation_failed');
      }
      expect(await storedRow()).toEqual(before);

      // The bounds themselves are allowed; null clears it (answered as null from then on).
      for (const share of [0.5, 1]) {
        expect((await call('PUT', '/settings', { watchedThreshold: share })).statusCode).toBe(200);
        expect((await settings()).watchedThreshold).toBe(share);
      }
      await call('PUT', '/settings', { watchedThreshold: null });
      expect(await settings()).toEqual({ ...ours(a.user.id), watchedThreshold: null });
    });

    it('keeps the player’s details of decision 112 beside the others: round trip, last writer wins, bad ones refused', async () => {
      const details = {
        stillWatching: { episodes: 2, minutes: 60 },
        playerShortcuts: { mute: ['u'], playPause: [' ', 'p', 'MediaPlayPause'], newerAction: [] },
        enablePauseOverlay: false,
      };
      const put = await call('PUT', '/settings', details);
      expect(put.statusCode, put.body).toBe(200);
      expect(body(put)).toEqual({ ...ours(a.user.id), ...details });
      expect(await settings(await login(t.server, a.keys))).toEqual({ ...ours(a.user.id), ...details });
      // An older change (another device's, late) does not overwrite them.
      await call('PUT', '/settings', {
        stillWatching: { episodes: 0, minutes: 0 },
        playerShortcuts: { mute: ['q'] },
        updatedAt: iso(-MIN),
      });
      expect(await settings()).toMatchObject(details);

      const before = await storedRow();
      const tooMany = Object.fromEntries(Array.from({ length: 41 }, (_, i) => [`action${i}`, ['a']]));
      for (const bad of [
        { stillWatching: { episodes: 21, minutes: 60 } },
        { stillWatching: { episodes: 2, minutes: 721 } },
        { stillWatching: { episodes: -1, minutes: 60 } },
        { stillWatching: { episodes: 2.5, minutes: 60 } },
        { stillWatching: { episodes: 2 } },
        { stillWatching: 3 },
        { playerShortcuts: { mute: 'u' } },
        { playerShortcuts: { mute: ['a', 'b', 'c', 'd'] } },
        { playerShortcuts: { mute: [''] } },
        { playerShortcuts: { mute: ['x'.repeat(25)] } },
        { playerShortcuts: { 'not an action': ['u'] } },
        { playerShortcuts: tooMany },
        { playerShortcuts: ['mute'] },
      ]) {
        const res = await call('PUT', '/settings', { ...bad, enableThumbnails: true });
        expect(res.statusCode, JSON.stringify(bad).slice(0, 80)).toBe(400);
        expect(body<ApiErrorBody>(res).code).toBe('validation_failed');
      }
      expect(await storedRow()).toEqual(before);

      // The bounds fit; null clears each (answered as null from then on).
      const most = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`action${i}`, ['a']]));
      expect(
        (await call('PUT', '/settings', { stillWatching: { episodes: 20, minutes: 720 } })).statusCode,
      ).toBe(200);
      expect((await call('PUT', '/settings', { playerShortcuts: most })).statusCode).toBe(200);
      await call('PUT', '/settings', {
        stillWatching: null,
        playerShortcuts: null,
        enablePauseOverlay: null,
      });
      expect(await settings()).toEqual({
        ...ours(a.user.id),
        stillWatching: null,
        playerShortcuts: null,
        enablePauseOverlay: null,
      });
    });

    it.each(['hideSpoilers', 'hideWatchedInDiscover'])(
      'keeps %s (decisions 115, 116): round trip, last writer wins, a non-boolean refused, null clears',
      async (field) => {
        const put = await call('PUT', '/settings', { [field]: true });
        expect(put.statusCode, put.body).toBe(200);
        expect(body(put)).toEqual({ ...ours(a.user.id), [field]: true });
        expect(await settings(await login(t.server, a.keys))).toEqual({ ...ours(a.user.id), [field]: true });
        await call('PUT', '/settings', { [field]: false, updatedAt: iso(-MIN) });
        expect((await settings())[field]).toBe(true);
        const before = await storedRow();
        for (const bad of ['yes', 1, {}, []]) {
          const res = await call('PUT', '/settings', { [field]: bad, enableThumbnails: true });
          expect(res.statusCode, JSON.stringify(bad)).toBe(400);
          expect(body<ApiErrorBody>(res).code).toBe('validation_failed');
        }
        expect(await storedRow()).toEqual(before);
        await call('PUT', '/settings', { [field]: null });
        expect(await settings()).toEqual({ ...ours(a.user.id), [field]: null });
      },
    );

    it('keeps our "stop watching" marks (decision 102) as one field: round trip, last writer wins, bad ones refused', async () => {
      const marks = { 'show:1396': 1_714_564_800_000, 'show:1399': 0 };
      const put = await call('PUT', '/settings', { continueHidden: marks });
      expect(put.statusCode, put.body).toBe(200);
      expect(body(put)).toEqual({ ...ours(a.user.id), continueHidden: marks });
      expect(await settings(await login(t.server, a.keys))).toEqual({
        ...ours(a.user.id),
        continueHidden: marks,
      });
      // The whole map is the field: a newer one replaces it, an older one (another device's, late) does not.
      await call('PUT', '/settings', { continueHidden: { 'show:1': 5 }, updatedAt: iso(-MIN) });
      expect((await settings()).continueHidden).toEqual(marks);
      await call('PUT', '/settings', { continueHidden: { 'show:1396': 7 } });
      expect((await settings()).continueHidden).toEqual({ 'show:1396': 7 });

      const before = await storedRow();
      const tooMany = Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`show:${i}`, i]));
      for (const bad of [
        { 'show:1396': -1 },
        { 'show:1396': 1.5 },
        { 'show:1396': '1714564800000' },
        { 'show:1396': null },
        { '': 5 },
        { ['x'.repeat(41)]: 5 },
        tooMany,
        ['show:1396'],
        'show:1396',
        5,
      ]) {
        const res = await call('PUT', '/settings', { continueHidden: bad, enableThumbnails: true });
        expect(res.statusCode, JSON.stringify(bad).slice(0, 80)).toBe(400);
        expect(body<ApiErrorBody>(res).code).toBe('validation_failed');
      }
      expect(await storedRow()).toEqual(before);

      // 500 fit; an empty map is a value; null clears it.
      const most = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`show:${i}`, i]));
      expect((await call('PUT', '/settings', { continueHidden: most })).statusCode).toBe(200);
      await call('PUT', '/settings', { continueHidden: {} });
      expect((await settings()).continueHidden).toEqual({});
      await call('PUT', '/settings', { continueHidden: null });
      expect(await settings()).toEqual({ ...ours(a.user.id), continueHidden: null });
    });

    it('returns the secrets in plain text to their owner only; the database holds them sealed', async () => {
      await call('PUT', '/settings', { ...secrets, debridService: 'realdebrid' });
      expect(await settings()).toMatchObject({ ...secrets, debridService: 'realdebrid' });

      const row = (await storedRow())!;
      const dump = JSON.stringify(row);
      for (const secret of Object.values(secrets)) expect(dump).not.toContain(secret);
      const extra = JSON.parse(row.extra!) as Record<string, string>;
      for (const name of Object.keys(secrets)) expect(extra[name]).toMatch(/^v1\.[\w-]{8}\.[\w-]+\.[\w-]+$/);
      // What is not a secret is stored as sent.
      expect(extra.debridService).toBe('realdebrid');

      const b = await register(t.server);
      const foreign = await t.server.inject({
        method: 'GET',
        url: `/users/${a.user.id}/settings`,
        headers: b.headers,
      });
      expect(foreign.statusCode).toBe(403);
      expect(body<ApiErrorBody>(foreign).code).toBe('forbidden');
      expect(foreign.body).not.toContain('SECRET');
      // Another account's settings never show them either.
      expect(JSON.stringify(await settings(b))).not.toContain('SECRET');

      // The key lives in the data folder, readable by the server's user only.
      const keyFile = path.join(dataDir, SETTINGS_KEY_FILE);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64url')).toHaveLength(32);
    });

    it('a copy of the database without the key file reveals no secret; the other fields still come back', async () => {
      await call('PUT', '/settings', { ...secrets, enableThumbnails: true });
      const elsewhere = mkdtempSync(path.join(tmpdir(), 'marquee-settings-other-'));
      const restored = await startSyncApp({
        db: t.db,
        env: { DATA_DIR: elsewhere },
        deps: { accounts: { rateLimits: false } },
      });
      try {
        const res = await restored.server.inject({
          method: 'GET',
          url: `/users/${a.user.id}/settings`,
          headers: a.headers,
        });
        expect(res.statusCode).toBe(200);
        expect(res.body).not.toContain('SECRET');
        expect(body(res)).toEqual({ ...ours(a.user.id), enableThumbnails: true });
      } finally {
        await restored.close();
        rmSync(elsewhere, { recursive: true, force: true });
      }
    });

    it('seals each secret to its library and field: a moved envelope does not open', () => {
      const box = new SecretBox(Buffer.alloc(32, 7));
      const sealed = box.seal('token', 'user\n\ntraktKey');
      expect(box.open(sealed, 'user\n\ntraktKey')).toBe('token');
      expect(box.open(sealed, 'user\n\nfebboxKey')).toBeUndefined();
      expect(box.open(sealed, 'other\n\ntraktKey')).toBeUndefined();
      expect(new SecretBox(Buffer.alloc(32, 8)).open(sealed, 'user\n\ntraktKey')).toBeUndefined();
      const [v, id, iv, data] = sealed.split('.') as [string, string, string, string];
      const flipped = `${data.slice(0, -2)}${data.endsWith('AA') ? 'AB' : 'AA'}`;
      expect(box.open([v, id, iv, flipped].join('.'), 'user\n\ntraktKey')).toBeUndefined();
      expect(box.open('plain text', 'user\n\ntraktKey')).toBeUndefined();
    });
  });

  describe('nickname', () => {
    const me = async (who: SignedIn = a) =>
      body<{ user: User }>(await t.server.inject({ method: 'GET', url: '/users/@me', headers: who.headers }))
        .user;
    const patch = (payload: unknown, who: SignedIn = a) => call('PATCH', '', payload, who);

    it('is "" until set; PATCH sets it (trimmed), alone or with the profile; every user answer carries it', async () => {
      expect(a.user.nickname).toBe('');
      expect((await me()).nickname).toBe('');

      const res = await patch({ nickname: '  Ada Lovelace  ' });
      expect(res.statusCode, res.body).toBe(200);
      expect(body<User>(res).nickname).toBe('Ada Lovelace');
      expect((await me()).nickname).toBe('Ada Lovelace');
      expect(body<{ user: User }>(await call('GET', '')).user.nickname).toBe('Ada Lovelace');
      expect((await login(t.server, a.keys)).user.nickname).toBe('Ada Lovelace');

      // The profile alone leaves it; both together change both.
      const profile = { colorA: '#111111', colorB: '#222222', icon: 'cat' };
      expect(body<User>(await patch({ profile }))).toMatchObject({ profile, nickname: 'Ada Lovelace' });
      const both = await patch({ profile: { ...profile, icon: 'dog' }, nickname: '🎬'.repeat(64) });
      expect(both.statusCode, both.body).toBe(200);
      expect(body<User>(both)).toMatchObject({ profile: { icon: 'dog' }, nickname: '🎬'.repeat(64) });
      expect((await me()).nickname).toBe('🎬'.repeat(64));
    });

    it('refuses empty, blank, too long or control characters with 400, changing nothing', async () => {
      await patch({ nickname: 'Grace' });
      for (const nickname of [
        '',
        '   ',
        '\t\n',
        'a'.repeat(65),
        '🎬'.repeat(65),
        'Gr\u0000ace',
        'Gr\u0007ace',
        'Gr\tace',
        'Gr\nace',
        'Gr\u007face',
        'Gr\u0085ace',
        'Gr\u2028ace',
        '\u202Eecarg',
        null,
        42,
      ]) {
        const res = await patch({ nickname, profile: { colorA: 'a', colorB: 'b', icon: 'c' } });
        expect(res.statusCode, JSON.stringify(nickname)).toBe(400);
        expect(body<ApiErrorBody>(res).code).toBe('validation_failed');
      }
      expect(await me()).toMatchObject({ nickname: 'Grace', profile: { icon: 'couch' } });
    });

    it('cannot be changed through another account (403)', async () => {
      const b = await register(t.server);
      const res = await t.server.inject({
        method: 'PATCH',
        url: `/users/${a.user.id}`,
        headers: b.headers,
        payload: { nickname: 'Mallory' },
      });
      expect(res.statusCode).toBe(403);
      expect((await me()).nickname).toBe('');
    });
  });
});
