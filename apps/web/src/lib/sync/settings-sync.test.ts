import { beforeEach, describe, expect, it } from 'vitest';
import {
  initStores,
  useAccountStore,
  useLibraryStore,
  usePreferencesStore,
  useSubtitlesStore,
} from '../../stores/index.ts';
import { WATCHED_SHARE } from '../../stores/library/history-rules.ts';
import type { OutboxOp, SyncedSettings } from '../../stores/library/outbox.ts';
import { emptySettings, testAccount } from '../../test/account-fixtures.ts';
import { memoryStorage, setAppStorage } from '../storage.ts';
import {
  applySettings,
  changeSyncedSettings,
  knownSyncedSettings,
  readSyncedSettings,
  writeSyncedSettings,
} from './settings-sync.ts';

beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
});

describe('synced settings', () => {
  it('the server’s settings land in their stores, with the changes still pending here laid over them', () => {
    const pending: OutboxOp[] = [
      { kind: 'settings', id: 'p1', at: 1, settings: { applicationTheme: 'teal' } },
      { kind: 'bookmark-remove', id: 'p2', at: 2, type: 'movie', tmdbId: '603' },
    ];
    applySettings(
      {
        ...emptySettings(),
        applicationTheme: 'red',
        applicationLanguage: 'fr',
        defaultSubtitleLanguage: 'es',
        enableAutoplay: false,
        defaultAudioLanguage: 'de',
      },
      pending,
    );
    expect(usePreferencesStore.getState()).toMatchObject({
      theme: 'teal',
      language: 'fr',
      enableAutoplay: false,
      audioLanguage: 'de',
    });
    expect(useSubtitlesStore.getState().lastSelectedLanguage).toBe('es');
  });

  it('a setting the server has not got (null) leaves this device’s choice alone', () => {
    usePreferencesStore.getState().setPreferences({ theme: 'blue', enableAutoplay: false });
    applySettings(emptySettings(), []);
    expect(usePreferencesStore.getState()).toMatchObject({ theme: 'blue', enableAutoplay: false });
  });

  it('a change applies at once, and is recorded in the outbox while signed in', () => {
    changeSyncedSettings({ applicationTheme: 'red' });
    expect(usePreferencesStore.getState().theme).toBe('red');
    expect(useLibraryStore.getState().outbox).toEqual([]);
    useAccountStore.getState().setAccount(testAccount());
    changeSyncedSettings({ applicationTheme: 'gray' });
    expect(usePreferencesStore.getState().theme).toBe('gray');
    expect(useLibraryStore.getState().outbox).toMatchObject([
      { kind: 'settings', settings: { applicationTheme: 'gray' } },
    ]);
  });

  it('the watched threshold: the server’s lands, a pending change wins, null or out of range is the default', () => {
    expect(usePreferencesStore.getState().watchedThreshold).toBe(WATCHED_SHARE);
    applySettings({ ...emptySettings(), watchedThreshold: 0.8 }, []);
    expect(usePreferencesStore.getState().watchedThreshold).toBe(0.8);
    applySettings({ ...emptySettings(), watchedThreshold: 0.7 }, [
      { kind: 'settings', id: 'p1', at: 1, settings: { watchedThreshold: 1 } },
    ]);
    expect(usePreferencesStore.getState().watchedThreshold).toBe(1);
    // Not set on the server: this device's choice stays.
    applySettings(emptySettings(), []);
    expect(usePreferencesStore.getState().watchedThreshold).toBe(1);
    writeSyncedSettings({ watchedThreshold: null });
    expect(usePreferencesStore.getState().watchedThreshold).toBe(WATCHED_SHARE);
    writeSyncedSettings({ watchedThreshold: 0.95 });
    writeSyncedSettings({ watchedThreshold: 3 });
    expect(usePreferencesStore.getState().watchedThreshold).toBe(WATCHED_SHARE);
  });

  it('a change of the threshold applies at once and is recorded for the account', () => {
    useAccountStore.getState().setAccount(testAccount());
    changeSyncedSettings({ watchedThreshold: 0.95 });
    expect(usePreferencesStore.getState().watchedThreshold).toBe(0.95);
    expect(useLibraryStore.getState().outbox).toMatchObject([
      { kind: 'settings', settings: { watchedThreshold: 0.95 } },
    ]);
  });
  it('the "stop watching" marks: the server’s land, a pending change wins, null or not a map is none', () => {
    expect(usePreferencesStore.getState().continueHidden).toEqual({});
    applySettings({ ...emptySettings(), continueHidden: { 'show:1396': 5 } }, []);
    expect(usePreferencesStore.getState().continueHidden).toEqual({ 'show:1396': 5 });
    applySettings({ ...emptySettings(), continueHidden: { 'show:1396': 5 } }, [
      { kind: 'settings', id: 'p1', at: 1, settings: { continueHidden: { 'show:1399': 9 } } },
    ]);
    // The whole map is one setting: the pending one replaces the server's.
    expect(usePreferencesStore.getState().continueHidden).toEqual({ 'show:1399': 9 });
    // Not set on the server: this device's marks stay.
    applySettings(emptySettings(), []);
    expect(usePreferencesStore.getState().continueHidden).toEqual({ 'show:1399': 9 });
    writeSyncedSettings({ continueHidden: null });
    expect(usePreferencesStore.getState().continueHidden).toEqual({});
    writeSyncedSettings({ continueHidden: { 'show:1': 1 } });
    writeSyncedSettings({ continueHidden: 'show:1' as never });
    expect(usePreferencesStore.getState().continueHidden).toEqual({});
  });

  it('marks another client wrote keep their valid entries, the newest 200', () => {
    const many = Object.fromEntries(Array.from({ length: 260 }, (_, i) => [`show:${i}`, 1000 + i]));
    writeSyncedSettings({
      continueHidden: { ...many, '': 5, ['x'.repeat(41)]: 5, 'show:bad': -1, 'show:half': 1.5 },
    });
    const kept = usePreferencesStore.getState().continueHidden;
    expect(Object.keys(kept)).toHaveLength(200);
    expect(kept['show:259']).toBe(1259);
    expect(kept['show:60']).toBe(1060);
    expect(kept['show:59']).toBeUndefined();
  });

  it('a change of the marks applies at once and is recorded for the account', () => {
    useAccountStore.getState().setAccount(testAccount());
    changeSyncedSettings({ continueHidden: { 'show:1396': 7 } });
    expect(usePreferencesStore.getState().continueHidden).toEqual({ 'show:1396': 7 });
    expect(useLibraryStore.getState().outbox).toMatchObject([
      { kind: 'settings', settings: { continueHidden: { 'show:1396': 7 } } },
    ]);
  });
});

describe('the player’s details (decision 112)', () => {
  it('the server’s pause overlay, "still watching" limits and keys land; a pending change wins; null is the default', () => {
    const prefs = () => usePreferencesStore.getState();
    expect([prefs().enablePauseOverlay, prefs().stillWatching, prefs().playerShortcuts]).toEqual([
      true,
      { episodes: 3, minutes: 90 },
      {},
    ]);
    applySettings(
      {
        ...emptySettings(),
        enablePauseOverlay: false,
        stillWatching: { episodes: 5, minutes: 0 },
        playerShortcuts: { mute: ['u'] },
      },
      [{ kind: 'settings', id: 'p1', at: 1, settings: { stillWatching: { episodes: 0, minutes: 0 } } }],
    );
    expect([prefs().enablePauseOverlay, prefs().stillWatching, prefs().playerShortcuts]).toEqual([
      false,
      { episodes: 0, minutes: 0 },
      { mute: ['u'] },
    ]);
    // Not set on the server: this device's choices stay.
    applySettings(emptySettings(), []);
    expect(prefs().enablePauseOverlay).toBe(false);
    writeSyncedSettings({ enablePauseOverlay: null, stillWatching: null, playerShortcuts: null });
    expect([prefs().enablePauseOverlay, prefs().stillWatching, prefs().playerShortcuts]).toEqual([
      true,
      { episodes: 3, minutes: 90 },
      {},
    ]);
  });

  it('limits out of range or keys of the wrong shape are not taken', () => {
    applySettings(
      {
        ...emptySettings(),
        stillWatching: { episodes: 99, minutes: 90 } as never,
        playerShortcuts: { mute: 'u' } as never,
      },
      [],
    );
    expect(usePreferencesStore.getState().stillWatching).toEqual({ episodes: 3, minutes: 90 });
    // A map whose entries are not lists keeps the usable ones (none here).
    expect(usePreferencesStore.getState().playerShortcuts).toEqual({});
    expect(
      knownSyncedSettings({
        enablePauseOverlay: 'yes',
        stillWatching: { episodes: 2.5, minutes: 60 },
        playerShortcuts: ['m'],
      }),
    ).toEqual({});
    expect(
      knownSyncedSettings({
        enablePauseOverlay: false,
        stillWatching: { episodes: 2, minutes: 60 },
        playerShortcuts: { mute: ['u', 'u', 'x'.repeat(40)], 'not an action': ['q'] },
      }),
    ).toEqual({
      enablePauseOverlay: false,
      stillWatching: { episodes: 2, minutes: 60 },
      playerShortcuts: { mute: ['u'] },
    });
  });

  it('a change is recorded for the account and kept per household profile', () => {
    useAccountStore.getState().setAccount(testAccount());
    changeSyncedSettings({ stillWatching: { episodes: 2, minutes: 60 }, playerShortcuts: { mute: ['u'] } });
    expect(useLibraryStore.getState().outbox).toMatchObject([
      {
        kind: 'settings',
        settings: { stillWatching: { episodes: 2, minutes: 60 }, playerShortcuts: { mute: ['u'] } },
      },
    ]);
  });
});

describe('hiding spoilers (decision 115)', () => {
  it('the server’s choice lands, a pending change wins, null is shown (the default); a file brings a boolean only', () => {
    const hidden = () => usePreferencesStore.getState().hideSpoilers;
    expect(hidden()).toBe(false);
    applySettings({ ...emptySettings(), hideSpoilers: true }, []);
    expect(hidden()).toBe(true);
    applySettings({ ...emptySettings(), hideSpoilers: true }, [
      { kind: 'settings', id: 'p1', at: 1, settings: { hideSpoilers: false } },
    ]);
    expect(hidden()).toBe(false);
    applySettings({ ...emptySettings(), hideSpoilers: 'yes' as never }, []);
    expect(hidden()).toBe(false);
    writeSyncedSettings({ hideSpoilers: true });
    writeSyncedSettings({ hideSpoilers: null });
    expect(hidden()).toBe(false);
    expect(knownSyncedSettings({ hideSpoilers: 'on' })).toEqual({});
    expect(knownSyncedSettings({ hideSpoilers: true })).toEqual({ hideSpoilers: true });
  });

  it('a change applies at once and is recorded for the account', () => {
    useAccountStore.getState().setAccount(testAccount());
    changeSyncedSettings({ hideSpoilers: true });
    expect(usePreferencesStore.getState().hideSpoilers).toBe(true);
    expect(useLibraryStore.getState().outbox).toMatchObject([
      { kind: 'settings', settings: { hideSpoilers: true } },
    ]);
  });
});

describe('watched movies hidden from Discover (decision 116)', () => {
  it('the server’s choice lands, a pending change wins, null is shown; a file brings a boolean only', () => {
    const hidden = () => usePreferencesStore.getState().hideWatchedInDiscover;
    applySettings({ ...emptySettings(), hideWatchedInDiscover: true }, []);
    expect(hidden()).toBe(true);
    applySettings({ ...emptySettings(), hideWatchedInDiscover: true }, [
      { kind: 'settings', id: 'p1', at: 1, settings: { hideWatchedInDiscover: false } },
    ]);
    expect(hidden()).toBe(false);
    writeSyncedSettings({ hideWatchedInDiscover: true });
    writeSyncedSettings({ hideWatchedInDiscover: null });
    expect(hidden()).toBe(false);
    expect(knownSyncedSettings({ hideWatchedInDiscover: 1 })).toEqual({});
    expect(knownSyncedSettings({ hideWatchedInDiscover: true })).toEqual({ hideWatchedInDiscover: true });
  });
});

describe('reading the synced settings back (the backup carries them)', () => {
  it('what was written reads back by the same wire names and values', () => {
    const written: Required<SyncedSettings> = {
      applicationLanguage: 'pt-BR',
      applicationTheme: 'teal',
      defaultSubtitleLanguage: 'es',
      proxyUrls: ['https://proxy.example.com', '|type=api|https://api.example.com'],
      enableAutoplay: false,
      subtitleStyling: {
        color: '#e2e535',
        backgroundOpacity: 0.2,
        backgroundBlur: 0.5,
        size: 1.5,
        bold: true,
      },
      defaultAudioLanguage: 'ja',
      watchedThreshold: 0.8,
      continueHidden: { 'show:1396': 1_700_000_000_000 },
      enablePauseOverlay: false,
      stillWatching: { episodes: 0, minutes: 120 },
      playerShortcuts: { mute: ['u'], playPause: [' ', 'p'] },
      hideSpoilers: true,
      hideWatchedInDiscover: true,
    };
    writeSyncedSettings(written);
    expect(readSyncedSettings()).toEqual(written);
  });

  it('what was never chosen reads as not set (null), the defaults as they are', () => {
    expect(readSyncedSettings()).toEqual({
      applicationLanguage: null,
      applicationTheme: null,
      defaultSubtitleLanguage: null,
      proxyUrls: null,
      enableAutoplay: true,
      subtitleStyling: useSubtitlesStore.getState().styling,
      defaultAudioLanguage: null,
      watchedThreshold: WATCHED_SHARE,
      continueHidden: null,
      enablePauseOverlay: true,
      stillWatching: { episodes: 3, minutes: 90 },
      playerShortcuts: null,
      hideSpoilers: false,
      hideWatchedInDiscover: false,
    });
    // What reads back, written again, changes nothing.
    const before = readSyncedSettings();
    writeSyncedSettings(before as SyncedSettings);
    expect(readSyncedSettings()).toEqual(before);
  });
});

describe('the synced settings a file brings', () => {
  it('keeps the fields this app knows with values it can use, and leaves out the rest', () => {
    usePreferencesStore.getState().setPreferences({ continueHidden: { 'show:1399': 10, 'show:60059': 3 } });
    expect(
      knownSyncedSettings({
        applicationLanguage: 'fr-CA',
        applicationTheme: 'red',
        defaultSubtitleLanguage: 'pt-BR',
        proxyUrls: ['https://proxy.example.com', 'not a url', 5],
        enableAutoplay: false,
        subtitleStyling: { color: '#80B1FA', backgroundOpacity: 2, size: 5, bold: true },
        defaultAudioLanguage: 'de',
        watchedThreshold: 0.95,
        continueHidden: { 'show:1396': 20, 'show:1399': 5, 'show:bad': 'soon' },
        // p-stream's own and unknown fields.
        enableDiscover: true,
        sourceOrder: ['a'],
        febboxKey: 'secret',
      }),
    ).toEqual({
      applicationLanguage: 'fr',
      applicationTheme: 'red',
      defaultSubtitleLanguage: 'pt-BR',
      // A file's proxies are never taken (they would route the viewer's streams).
      enableAutoplay: false,
      // Within its limits (synced sizes stop at 2); what it lacks as it is here.
      subtitleStyling: {
        ...useSubtitlesStore.getState().styling,
        color: '#80b1fa',
        backgroundOpacity: 1,
        size: 2,
        bold: true,
      },
      defaultAudioLanguage: 'de',
      watchedThreshold: 0.95,
      // Added to this device's marks (the later of each): a file never brings a stopped show back.
      continueHidden: { 'show:1396': 20, 'show:1399': 10, 'show:60059': 3 },
    });
    expect(knownSyncedSettings({ applicationTheme: 'default' })).toEqual({ applicationTheme: null });
  });

  it('ignores what it cannot use: unknown languages and themes, wrong types, nulls, hostile values', () => {
    expect(
      knownSyncedSettings({
        applicationLanguage: 'tlh',
        applicationTheme: 'mocha',
        defaultSubtitleLanguage: 'en"><script>',
        proxyUrls: ['javascript:alert(1)'],
        enableAutoplay: 'false',
        subtitleStyling: { color: 'red; background: url(x)' },
        defaultAudioLanguage: 'ENGLISH',
        watchedThreshold: 0.2,
        continueHidden: ['show:1396'],
      }),
    ).toEqual({ subtitleStyling: useSubtitlesStore.getState().styling });
    expect(
      knownSyncedSettings({
        applicationLanguage: null,
        applicationTheme: null,
        proxyUrls: null,
        subtitleStyling: [],
        watchedThreshold: '0.9',
        continueHidden: { 'show:1396': null },
      }),
    ).toEqual({});
  });
});
