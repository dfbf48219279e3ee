import { beforeEach, describe, expect, it, vi } from 'vitest';
import { initStores, useAccountStore, useLibraryStore } from '../../stores/index.ts';
import { testEmailAccount } from '../../test/account-fixtures.ts';
import { memoryStorage, setAppStorage } from '../storage.ts';
import { createProfileSwitch } from './profile-switch.ts';

const matrix = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };
const alien = { tmdbId: '348', type: 'movie' as const, title: 'Alien', year: 1979, poster: null };
const keys = () => Object.keys(useLibraryStore.getState().bookmarks);

/** The restore handed to the switch: records which library was active when it ran. */
function setup() {
  const restoredFor: string[] = [];
  const restore = vi.fn(async () => void restoredFor.push(useLibraryStore.getState().profile));
  return { restoredFor, restore, ...createProfileSwitch({ restore }) };
}

beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
  useAccountStore.getState().setAccount(testEmailAccount());
});

describe('switching household profiles, handed the restore', () => {
  it('choosing a profile makes its library the device’s, remembers the choice, then restores it', async () => {
    const p = setup();
    useLibraryStore.getState().addBookmark(matrix);
    await p.chooseProfile('kid');
    expect(p.restoredFor).toEqual(['kid']);
    expect(useAccountStore.getState().account?.profileId).toBe('kid');
    expect(keys()).toEqual([]);
    expect(Object.keys(useLibraryStore.getState().stash['']!.bookmarks)).toEqual(['movie:603']);
  });

  it('a profile deleted while another is active: its library goes, nothing is restored', async () => {
    const p = setup();
    await p.chooseProfile('kid');
    useLibraryStore.getState().addBookmark(alien);
    await p.chooseProfile('');
    p.restore.mockClear();
    p.profileDeleted('kid');
    expect(useLibraryStore.getState().stash).not.toHaveProperty('kid');
    expect(p.restore).not.toHaveBeenCalled();
  });

  it('the active profile deleted: back to the account’s own library, asked again, then restored', async () => {
    const p = setup();
    useLibraryStore.getState().addBookmark(matrix);
    await p.chooseProfile('kid');
    useLibraryStore.getState().addBookmark(alien);
    p.profileDeleted('kid');
    expect(useLibraryStore.getState().profile).toBe('');
    expect(keys()).toEqual(['movie:603']);
    expect(useLibraryStore.getState().stash).not.toHaveProperty('kid');
    expect(useAccountStore.getState().account?.profileId).toBeUndefined();
    expect(p.restoredFor).toEqual(['kid', '']);
  });
});
