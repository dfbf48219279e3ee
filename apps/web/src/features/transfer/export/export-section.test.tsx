import { act, fireEvent, render, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { clock } from '../../../lib/clock.ts';
import { initI18n } from '../../../lib/i18n.ts';
import { memoryStorage, setAppStorage } from '../../../lib/storage.ts';
import { initStores, useLibraryStore, usePreferencesStore } from '../../../stores/index.ts';
import { parse } from '../formats/index.ts';
import { ExportSection } from './export-section.tsx';

const NOW = new Date('2024-05-01T12:00:00.000Z');
const matrix = { tmdbId: '603', type: 'movie', title: 'The Matrix', year: 1999, poster: null } as const;
const bb = { tmdbId: '1396', type: 'show', title: 'Breaking Bad', year: 2008, poster: null } as const;

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', ['transfer']);
  setAppStorage(memoryStorage());
  await initStores();
  useLibraryStore.getState().clear();
  vi.spyOn(clock, 'now').mockReturnValue(NOW);
});

afterEach(() => vi.restoreAllMocks());

/** A film on My List watched twice (at noon UTC: the same day from UTC−11 to UTC+11), and a show's episode begun. */
function seedLibrary() {
  const library = useLibraryStore.getState();
  library.addBookmark(matrix);
  for (const day of ['2024-04-01T12:00:00.000Z', '2024-04-30T12:00:00.000Z'])
    library.recordPlay(
      { ...matrix, watchedAt: Date.parse(day), watched: 8000, duration: 8160, completed: true },
      { imported: true },
    );
  library.saveProgress({
    meta: bb,
    season: { id: '3572', number: 1, title: 'Season 1' },
    episode: { id: '62085', number: 1, title: 'Pilot' },
    watched: 1200,
    duration: 3480,
  });
}

const renderSection = () =>
  render(
    <I18nextProvider i18n={i18next}>
      <ExportSection />
    </I18nextProvider>,
  );

/**
 * The files the page hands the browser: each Blob given an object URL, and the name of the link clicked
 * for it (the click's default — a navigation in the test DOM — is prevented).
 */
function captureDownloads() {
  const blobs: Blob[] = [];
  const names: string[] = [];
  const hrefs: string[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return `blob:export-${blobs.length}`;
  });
  const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  const onClick = (event: MouseEvent) => {
    if (!(event.target instanceof HTMLAnchorElement)) return;
    names.push(event.target.download);
    hrefs.push(event.target.href);
    event.preventDefault();
  };
  document.addEventListener('click', onClick);
  onTestFinished(() => document.removeEventListener('click', onClick));
  return { blobs, names, hrefs, revoke };
}

const backupButton = () =>
  screen.getByRole<HTMLButtonElement>('button', { name: 'Download a backup (JSON)' });
const letterboxdButton = () =>
  screen.getByRole<HTMLButtonElement>('button', { name: 'Download for Letterboxd (CSV)' });
const described = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent);

describe('Export on the import and export page', () => {
  it('a labelled section: heading, intro, each button described by its hint, nothing announced yet', () => {
    seedLibrary();
    renderSection();
    const section = screen.getByRole('region', { name: 'Export' });
    expect(section.querySelector('h2')?.textContent).toBe('Export');
    expect(section.textContent).toContain('Download everything this library keeps');
    expect(described(backupButton())).toEqual(['p-stream and movie-web can read it, and so can this page.']);
    expect(described(letterboxdButton())[0]).toContain('Letterboxd keeps no shows.');
    expect(backupButton().disabled).toBe(false);
    expect(letterboxdButton().disabled).toBe(false);
    expect(screen.getByRole('status').textContent).toBe('');
    expect(screen.queryByTestId('export-empty')).toBeNull();
  });

  it('the backup: a JSON file named for the day, holding the library and settings, announced once saved', async () => {
    seedLibrary();
    usePreferencesStore
      .getState()
      .setPreferences({ theme: 'red', enableAutoplay: false, watchedThreshold: 0.95 });
    const { blobs, names, hrefs, revoke } = captureDownloads();
    renderSection();
    fireEvent.click(backupButton());

    expect(names).toEqual(['marquee-backup-2024-05-01.json']);
    expect(hrefs).toEqual(['blob:export-1']);
    expect(blobs).toHaveLength(1);
    expect(blobs[0]!.type).toBe('application/json');
    const backup = JSON.parse(await blobs[0]!.text());
    expect(backup.exportDate).toBe(NOW.toISOString());
    expect(backup.bookmarks['603']).toMatchObject({ title: 'The Matrix', year: 1999, type: 'movie' });
    expect(backup.progress['1396'].episodes['62085'].progress).toEqual({ watched: 1200, duration: 3480 });
    // Both plays: the latest in p-stream's shape, the first beside it.
    expect(backup.watchHistory['603'].watchedAt).toBe(Date.parse('2024-04-30T12:00:00.000Z'));
    expect(backup.marquee.watchHistory).toHaveLength(1);
    // The synced settings, as p-stream keeps them (the theme beside the others), and read back by name.
    expect(backup.theme).toBe('red');
    expect(backup.settings).toMatchObject({ enableAutoplay: false, watchedThreshold: 0.95 });
    const result = await parse({ name: names[0]!, bytes: new Uint8Array(await blobs[0]!.arrayBuffer()) });
    expect(result.settings).toMatchObject({
      applicationTheme: 'red',
      enableAutoplay: false,
      watchedThreshold: 0.95,
    });
    expect(screen.getByRole('status').textContent).toBe('Downloaded marquee-backup-2024-05-01.json.');
    // The temporary link is gone and its URL let go.
    expect(document.querySelector('a[download]')).toBeNull();
    await vi.waitFor(() => expect(revoke).toHaveBeenCalledWith('blob:export-1'));
  });

  it("Letterboxd: one zip of its import CSVs with the watched films and My List's films", async () => {
    seedLibrary();
    const { blobs, names, revoke } = captureDownloads();
    renderSection();
    fireEvent.click(letterboxdButton());

    expect(names).toEqual(['marquee-letterboxd-2024-05-01.zip']);
    expect(blobs[0]!.type).toBe('application/zip');
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    const result = await parse({ name: names[0]!, bytes });
    expect(result.format).toBe('letterboxd');
    expect(result.skipped).toEqual([]);
    const plays = result.records.filter((r) => r.kind === 'play');
    expect(plays.map((r) => [r.title.tmdbId, r.title.title, r.watchedAt, r.rewatch])).toEqual([
      ['603', 'The Matrix', '2024-04-01T12:00:00.000Z', false],
      ['603', 'The Matrix', '2024-04-30T12:00:00.000Z', true],
    ]);
    expect(result.records.filter((r) => r.kind === 'watchlist').map((r) => r.title.tmdbId)).toEqual(['603']);
    expect(screen.getByRole('status').textContent).toBe('Downloaded marquee-letterboxd-2024-05-01.zip.');
    await vi.waitFor(() => expect(revoke).toHaveBeenCalledWith('blob:export-1'));
  });

  it('an empty library: both buttons disabled, and why', () => {
    const { blobs } = captureDownloads();
    renderSection();
    const empty = 'Your library is empty: there is nothing to export yet.';
    expect(screen.getByTestId('export-empty').textContent).toBe(empty);
    for (const button of [backupButton(), letterboxdButton()]) {
      expect(button.disabled).toBe(true);
      expect(described(button)).toContain(empty);
      fireEvent.click(button);
    }
    expect(blobs).toEqual([]);
    expect(screen.getByRole('status').textContent).toBe('');

    // Something kept: export is there at once.
    act(() => useLibraryStore.getState().addBookmark(matrix));
    expect(backupButton().disabled).toBe(false);
    expect(screen.queryByTestId('export-empty')).toBeNull();
  });
});
