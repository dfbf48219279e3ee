import { beforeEach, describe, expect, it } from 'vitest';
import {
  initStores,
  useAccountStore,
  useLibraryStore,
  usePreferencesStore,
  useSubtitlesStore,
} from '../../stores/index.ts';
import type { OutboxOp } from '../../stores/library/outbox.ts';
import { emptySettings, testAccount } from '../../test/account-fixtures.ts';
import { memoryStorage, setAppStorage } from '../storage.ts';
import { applySettings, changeSyncedSettings } from './settings-sync.ts';

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
});
