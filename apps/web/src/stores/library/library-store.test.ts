import { beforeEach, describe, expect, it } from 'vitest';
import { continueWatching } from './library-rules.ts';
import { memoryStorage, setAppStorage, type KeyValueStorage } from '../../lib/storage.ts';
import { useAccountStore } from '../account-store.ts';
import { useMigrationStatus } from '../migration-status.ts';
import { backupKey } from '../persisted.ts';
import { usePreferencesStore } from '../preferences-store.ts';
import { usePlayerPrefsStore, useOnboardingStore } from '../player-prefs-store.ts';
import { useSubtitlesStore } from '../subtitles-store.ts';
import { initStores } from '../index.ts';
import { useLibraryStore } from './library-store.ts';

const mw = (state: unknown) => JSON.stringify({ state, version: 0 });

/** What movie-web / sudo-flix store (the app family's client behaviour), with a movie and a show sharing TMDB id 1396. */
function legacyStorage(): KeyValueStorage {
  return memoryStorage({
    '__MW::bookmarks': mw({
      bookmarks: {
        '603': {
          title: 'The Matrix',
          year: 1999,
          poster: 'https://img/m.jpg',
          type: 'movie',
          updatedAt: 1_700_000_000_000,
        },
        '999': { title: 'Anime thing', type: 'anime', updatedAt: 1 },
      },
      updateQueue: [{ id: '1', action: 'add', tmdbId: '603' }],
    }),
    '__MW::progress': mw({
      items: {
        '1396': {
          title: 'Breaking Bad',
          year: 2008,
          type: 'show',
          updatedAt: 1_700_000_500_000,
          seasons: { '3572': { id: '3572', number: 1, title: 'Season 1' } },
          episodes: {
            '62085': {
              id: '62085',
              number: 2,
              title: 'Cat’s in the Bag',
              seasonId: '3572',
              updatedAt: 1_700_000_500_000,
              progress: { watched: 600, duration: 2900 },
            },
          },
        },
        '680': {
          title: 'Pulp Fiction',
          year: 1994,
          type: 'movie',
          updatedAt: 1_700_000_100_000,
          progress: { watched: 1200, duration: 9000 },
        },
      },
      updateQueue: [],
    }),
    '__MW::auth': mw({
      account: {
        token: 'jwt',
        userId: 'u1',
        sessionId: 's1',
        deviceName: 'a.b.c',
        seed: 'c2VlZA==',
        profile: { colorA: '#0A54FF', colorB: '#CF2E68', icon: 'cat' },
      },
      backendUrl: null,
      proxySet: ['https://proxy.example', 42],
    }),
    '__MW::subtitles': mw({
      enabled: true,
      lastSelectedLanguage: 'de',
      styling: { color: '#FFAA00', size: 50, backgroundOpacity: -1, backgroundBlur: 0.2 },
      delay: 900,
    }),
    '__MW::theme': mw({ theme: 'blue' }),
    '__MW::locale': mw({ language: 'fr' }),
    '__MW::preferences': mw({ enableThumbnails: true, enableAutoplay: false }),
    '__MW::volume': mw({ volume: 0.4 }),
    '__MW::quality': mw({ quality: { automaticQuality: false, lastChosenQuality: '720' } }),
    '__MW::onboarding': mw({ completed: true }),
  });
}

beforeEach(() => {
  useMigrationStatus.setState({ failed: [], dismissed: false });
});

describe('import of the older clients’ data on first start', () => {
  it('brings every store over, keyed by kind, clamped, leaving the old keys in place', () => {
    const storage = legacyStorage();
    const before = storage.getItem('__MW::progress');
    setAppStorage(storage);
    initStores();

    const lib = useLibraryStore.getState();
    expect(Object.keys(lib.bookmarks)).toEqual(['movie:603']);
    expect(lib.bookmarks['movie:603']).toMatchObject({
      title: 'The Matrix',
      year: 1999,
      poster: 'https://img/m.jpg',
      updatedAt: 1_700_000_000_000,
    });
    expect(Object.keys(lib.progress).sort()).toEqual(['movie:680', 'show:1396']);
    expect(lib.outbox).toEqual([]);
    expect(continueWatching(lib.progress, lib.bookmarks).map((c) => c.entry.title)).toEqual([
      'Breaking Bad',
      'Pulp Fiction',
    ]);

    expect(useAccountStore.getState()).toMatchObject({
      account: { userId: 'u1', token: 'jwt', profile: { icon: 'cat' } },
      proxyUrls: ['https://proxy.example'],
    });
    expect(useSubtitlesStore.getState()).toMatchObject({
      enabled: true,
      lastSelectedLanguage: 'de',
      delay: 500,
      styling: { color: '#ffaa00', size: 10, backgroundOpacity: 0, backgroundBlur: 0.2, bold: false },
    });
    expect(usePreferencesStore.getState()).toMatchObject({
      theme: 'blue',
      language: 'fr',
      enableThumbnails: true,
      enableAutoplay: false,
    });
    expect(usePlayerPrefsStore.getState()).toMatchObject({
      volume: 0.4,
      automaticQuality: false,
      lastChosenQuality: '720',
    });
    expect(useOnboardingStore.getState().completed).toBe(true);

    expect(storage.getItem('__MW::progress')).toBe(before);
    expect(storage.getItem(backupKey(0, 'library'))).toContain('Breaking Bad');
    expect(JSON.parse(storage.getItem('marquee:library')!).version).toBe(1);
    expect(useMigrationStatus.getState().failed).toEqual([]);
  });

  it('unreadable old data does not stop the start', () => {
    setAppStorage(memoryStorage({ '__MW::bookmarks': '{oops', '__MW::progress': mw({ items: 'nonsense' }) }));
    initStores();
    expect(useLibraryStore.getState().bookmarks).toEqual({});
    expect(useLibraryStore.getState().progress).toEqual({});
  });
});

describe('library changes', () => {
  let storage: KeyValueStorage;
  beforeEach(() => {
    storage = memoryStorage();
    setAppStorage(storage);
    initStores();
  });
  const matrix = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };

  it('signed out: changes apply locally and nothing is queued', () => {
    useLibraryStore.getState().toggleBookmark(matrix);
    expect(useLibraryStore.getState().bookmarks['movie:603']).toBeDefined();
    expect(useLibraryStore.getState().outbox).toEqual([]);
  });

  it('signed in: the change and its outbox op are written together, in one storage write', () => {
    useAccountStore.getState().setAccount({
      token: 't',
      userId: 'u',
      sessionId: 's',
      deviceName: 'x',
      seed: 'y',
      profile: { colorA: 'a', colorB: 'b', icon: 'cat' },
    });
    useLibraryStore.getState().toggleBookmark(matrix);
    const stored = JSON.parse(storage.getItem('marquee:library')!).state;
    expect(stored.bookmarks['movie:603']).toBeDefined();
    expect(stored.outbox).toHaveLength(1);
    expect(stored.outbox[0]).toMatchObject({ kind: 'bookmark-add', tmdbId: '603', type: 'movie' });
    useLibraryStore.getState().toggleBookmark(matrix);
    expect(useLibraryStore.getState().bookmarks).toEqual({});
    expect(useLibraryStore.getState().outbox.map((o) => o.kind)).toEqual(['bookmark-remove']);
  });

  it('a change made after a newer one from another device is still ordered after it', () => {
    useAccountStore.getState().setAccount({
      token: 't',
      userId: 'u',
      sessionId: 's',
      deviceName: 'x',
      seed: 'y',
      profile: { colorA: 'a', colorB: 'b', icon: 'cat' },
    });
    const future = Date.now() + 3_600_000;
    useLibraryStore.setState({ bookmarks: { 'movie:603': { ...matrix, updatedAt: future } } });
    useLibraryStore.getState().removeBookmark('movie', '603');
    expect(useLibraryStore.getState().bookmarks).toEqual({});
    expect(useLibraryStore.getState().outbox[0]!.at).toBe(future + 1);
  });

  it('a bookmark added again after a removal with a fast clock is ordered after the removal', () => {
    const future = Date.now() + 3_600_000;
    useLibraryStore.setState({ removals: { bookmarks: { 'movie:603': future }, progress: {} } });
    useLibraryStore.getState().addBookmark(matrix);
    expect(useLibraryStore.getState().bookmarks['movie:603']!.updatedAt).toBe(future + 1);
    expect(useLibraryStore.getState().removals.bookmarks).toEqual({});
  });

  it('restore keeps the removals known here and read, forgets old ones, and keeps late older writes out', () => {
    const now = Date.now();
    const old = now - 200 * 24 * 3_600_000;
    useLibraryStore.setState({
      removals: { bookmarks: { 'movie:1': now - 10, 'movie:2': old }, progress: {} },
    });
    useLibraryStore.getState().mergeServer({
      bookmarks: {},
      progress: {},
      removals: { bookmarks: {}, progress: { 'show:7': [{ seasonId: '', episodeId: '', at: now - 5 }] } },
    });
    expect(useLibraryStore.getState().removals).toEqual({
      bookmarks: { 'movie:1': now - 10 },
      progress: { 'show:7': [{ seasonId: '', episodeId: '', at: now - 5 }] },
      history: {},
      ratings: {},
    });
    // A server answer without removals (an older server) keeps what this device knows.
    useLibraryStore.getState().mergeServer({ bookmarks: {}, progress: {} });
    expect(useLibraryStore.getState().removals.bookmarks).toEqual({ 'movie:1': now - 10 });
    useLibraryStore.getState().clear();
    expect(useLibraryStore.getState().removals).toEqual({
      bookmarks: {},
      progress: {},
      history: {},
      ratings: {},
    });
  });

  it('progress of a movie and a show with the same TMDB number never collide; removal from continue watching', () => {
    const s = useLibraryStore.getState();
    s.saveProgress({ meta: { ...matrix, tmdbId: '1396' }, watched: 300, duration: 6000 });
    s.saveProgress({
      meta: { tmdbId: '1396', type: 'show', title: 'Breaking Bad', year: 2008, poster: null },
      watched: 500,
      duration: 3000,
      season: { id: 's1', number: 1, title: 'Season 1' },
      episode: { id: 'e2', number: 2, title: 'Two' },
    });
    const { progress, bookmarks } = useLibraryStore.getState();
    expect(Object.keys(progress).sort()).toEqual(['movie:1396', 'show:1396']);
    expect(continueWatching(progress, bookmarks)).toHaveLength(2);
    useLibraryStore.getState().removeFromContinueWatching('show', '1396');
    expect(Object.keys(useLibraryStore.getState().progress)).toEqual(['movie:1396']);
  });
});

describe('named lists, favourite episodes and the order of lists', () => {
  beforeEach(() => {
    setAppStorage(memoryStorage());
    initStores();
    useAccountStore.getState().setAccount({
      token: 't',
      userId: 'u',
      sessionId: 's',
      deviceName: 'x',
      seed: 'y',
      profile: { colorA: 'a', colorB: 'b', icon: 'cat' },
    });
  });
  const matrix = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };
  const heat = { tmdbId: '949', type: 'movie' as const, title: 'Heat', year: 1995, poster: null };
  const pulp = { tmdbId: '680', type: 'movie' as const, title: 'Pulp Fiction', year: 1994, poster: null };
  const show = { tmdbId: '1396', type: 'show' as const, title: 'Breaking Bad', year: 2008, poster: null };
  const lib = () => useLibraryStore.getState();
  const bookmarkOps = () => lib().outbox.filter((op) => op.kind === 'bookmark-add');

  it('a title put on lists is bookmarked with exactly those lists (cleaned, repeats dropped)', () => {
    lib().setBookmarkLists(matrix, [' Sci-fi ', 'Weekend', 'Sci-fi', '']);
    expect(lib().bookmarks['movie:603']).toMatchObject({
      title: 'The Matrix',
      groups: ['Sci-fi', 'Weekend'],
    });
    expect(lib().outbox).toEqual([
      expect.objectContaining({ kind: 'bookmark-add', tmdbId: '603', groups: ['Sci-fi', 'Weekend'] }),
    ]);
    expect(lib().outbox[0]).not.toHaveProperty('favoriteEpisodes');
    lib().setBookmarkLists(matrix, []);
    expect(lib().bookmarks['movie:603']!.groups).toEqual([]);
    expect(lib().outbox).toHaveLength(1);
    expect(lib().outbox[0]).toMatchObject({ groups: [] });
  });

  it('a favourite episode toggles in the show’s bookmark, bookmarking the show if needed', () => {
    lib().toggleFavoriteEpisode(show, 'e1');
    lib().toggleFavoriteEpisode(show, 'e2');
    expect(lib().bookmarks['show:1396']!.favoriteEpisodes).toEqual(['e1', 'e2']);
    lib().toggleFavoriteEpisode(show, 'e1');
    expect(lib().bookmarks['show:1396']!.favoriteEpisodes).toEqual(['e2']);
    expect(lib().outbox).toHaveLength(1);
    expect(lib().outbox[0]).toMatchObject({ kind: 'bookmark-add', favoriteEpisodes: ['e2'] });
  });

  it('a newer bookmark write keeps the lists of the pending one it replaces; after a removal it clears them', () => {
    lib().setBookmarkLists(show, ['Drama']);
    lib().toggleFavoriteEpisode(show, 'e1');
    expect(lib().outbox).toEqual([
      expect.objectContaining({ kind: 'bookmark-add', groups: ['Drama'], favoriteEpisodes: ['e1'] }),
    ]);
    lib().removeBookmark('show', '1396');
    lib().addBookmark(show);
    expect(lib().bookmarks['show:1396']).not.toHaveProperty('groups');
    // The removal is not sent any more: the write says what it would have left.
    expect(lib().outbox).toEqual([
      expect.objectContaining({ kind: 'bookmark-add', groups: [], favoriteEpisodes: [] }),
    ]);
  });

  it('the order of lists is one op, the newest replacing a pending one', () => {
    lib().setGroupOrder(['B', ' A ', 'B']);
    lib().setGroupOrder(['A', 'B', 'Empty']);
    expect(lib().groupOrder).toEqual(['A', 'B', 'Empty']);
    expect(lib().outbox).toEqual([
      expect.objectContaining({ kind: 'group-order', order: ['A', 'B', 'Empty'] }),
    ]);
  });

  it('renaming or deleting a list changes only the bookmarks holding it, one op each, and the order', () => {
    lib().setBookmarkLists(matrix, ['Sci-fi', 'Weekend']);
    lib().setBookmarkLists(heat, ['Weekend']);
    lib().setBookmarkLists(pulp, ['Crime']);
    lib().setGroupOrder(['Weekend', 'Crime', 'Sci-fi']);
    useLibraryStore.setState({ outbox: [] });

    lib().renameList('Weekend', ' Saturday ');
    expect(lib().bookmarks['movie:603']!.groups).toEqual(['Sci-fi', 'Saturday']);
    expect(lib().bookmarks['movie:949']!.groups).toEqual(['Saturday']);
    expect(lib().bookmarks['movie:680']!.groups).toEqual(['Crime']);
    expect(lib().groupOrder).toEqual(['Saturday', 'Crime', 'Sci-fi']);
    expect(
      bookmarkOps()
        .map((op) => op.tmdbId)
        .sort(),
    ).toEqual(['603', '949']);
    expect(lib().outbox.filter((op) => op.kind === 'group-order')).toHaveLength(1);

    useLibraryStore.setState({ outbox: [] });
    lib().deleteList('Sci-fi');
    expect(lib().bookmarks['movie:603']).toMatchObject({ groups: ['Saturday'] });
    expect(lib().groupOrder).toEqual(['Saturday', 'Crime']);
    expect(bookmarkOps().map((op) => op.tmdbId)).toEqual(['603']);
    expect(lib().outbox.map((op) => op.kind)).toEqual(['bookmark-add', 'group-order']);

    // A bad new name, or a list nobody holds: nothing changes.
    useLibraryStore.setState({ outbox: [] });
    lib().renameList('Crime', '  ');
    lib().deleteList('Nobody');
    expect(lib().outbox).toEqual([]);
  });

  it('restore keeps a pending order over the server’s and takes the server’s otherwise', () => {
    lib().setGroupOrder(['Mine']);
    lib().mergeServer({ bookmarks: {}, progress: {}, groupOrder: ['Theirs'] });
    expect(lib().groupOrder).toEqual(['Mine']);
    useLibraryStore.setState({ outbox: [] });
    lib().mergeServer({ bookmarks: {}, progress: {}, groupOrder: ['Theirs'] });
    expect(lib().groupOrder).toEqual(['Theirs']);
  });
});
