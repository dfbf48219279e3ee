import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MediaSummary, RuntimeConfig } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../../lib/i18n.ts';
import { setRuntimeConfig } from '../../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../../lib/storage.ts';
import { initStores, usePreferencesStore } from '../../../stores/index.ts';
import type { ImportOp } from '../../../stores/library/bulk-merge.ts';
import type { SyncedSettings } from '../../../stores/library/outbox.ts';
import type { ImportResult } from '../formats/index.ts';
import type { TitleMatch } from './import-plan.ts';
import { ImportSection, importWork } from './import-section.tsx';
import type { ImportWork } from './use-import.ts';

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', [...NAMESPACES, 'transfer']);
  setRuntimeConfig({ instanceName: 'Marquee', variant: 'discovery' } as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
});

const source = { file: 'diary.csv', row: 2 };
const film = (id: string, title: string, year: number): MediaSummary => ({
  id,
  type: 'movie',
  title,
  year,
  releaseDate: null,
  poster: null,
});
const letterboxd: ImportResult = {
  format: 'letterboxd',
  records: [
    { kind: 'play', title: { title: 'Alien', year: 1979 }, watchedAt: '2024-03-01T12:00:00.000Z', source },
    { kind: 'play', title: { title: 'Dune' }, watchedAt: '2024-04-01T12:00:00.000Z', source },
    {
      kind: 'watchlist',
      title: { title: 'Zzyzx Road', year: 2006 },
      updatedAt: '2024-01-01T12:00:00.000Z',
      source,
    },
  ],
  skipped: [{ file: 'diary.csv', row: 9, code: 'bad_date' }],
};
const answers: Record<string, TitleMatch> = {
  Alien: { status: 'matched', match: film('348', 'Alien', 1979), candidates: [], episodes: [] },
  Dune: {
    status: 'unsure',
    match: film('438631', 'Dune', 2021),
    candidates: [film('438631', 'Dune', 2021), film('841', 'Dune', 1984)],
    episodes: [],
  },
  'Zzyzx Road': { status: 'unmatched', match: null, candidates: [], episodes: [] },
};

function fakeWork(reply: Awaited<ReturnType<ImportWork['read']>> = { ok: true, results: [letterboxd] }) {
  const saved: ImportOp[][] = [];
  const applied: SyncedSettings[] = [];
  /** The library saves and settings applied, in order. */
  const steps: string[] = [];
  const work: ImportWork = {
    read: async () => reply,
    match: async (queries, onProgress) => {
      onProgress({ done: queries.length, total: queries.length });
      return new Map(queries.map((q) => [q.key, answers[q.title]!]));
    },
    save: async (ops) => {
      saved.push([...ops]);
      steps.push('save');
      const plays = ops.filter((op) => op.kind === 'history-add').length;
      const order = ops.find((op) => op.kind === 'group-order');
      return {
        plays,
        bookmarks: ops.filter((op) => op.kind === 'bookmark-add').length,
        progress: 0,
        lists: order?.order.length ?? 0,
        savedTo: 'device',
        historyStaysOnDevice: false,
      };
    },
    applySettings: (settings) => {
      applied.push(settings);
      steps.push('settings');
    },
  };
  return { work, saved, applied, steps };
}

const renderIt = (work: ImportWork) =>
  render(
    <I18nextProvider i18n={i18next}>
      <MemoryRouter>
        <ImportSection work={work} />
      </MemoryRouter>
    </I18nextProvider>,
  );

const choose = async (name = 'letterboxd.zip') =>
  userEvent.upload(
    screen.getByTestId('import-file-input'),
    new File(['x'], name, { type: 'application/zip' }),
  );

describe('Settings → Import', () => {
  it('a file is read, matched and reviewed; nothing is written before Import; then the plays are saved', async () => {
    const { work, saved } = fakeWork();
    renderIt(work);
    await choose();
    const review = await screen.findByTestId('import-review');
    expect(saved).toEqual([]);
    expect(within(review).getByTestId('import-matched').textContent).toBe('1 found');
    expect(within(review).getByTestId('import-unsure').textContent).toBe('1 to check');
    expect(within(review).getByTestId('import-unmatched').textContent).toBe('1 not found');
    expect(within(review).getByTestId('import-will-add').textContent).toContain(
      '2 plays to your watch history',
    );
    expect(within(review).getByTestId('import-left-out').textContent).toContain(
      '1 entry of a title not found',
    );

    // Dune: the viewer picks the 1984 film instead of the best guess.
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Match for Dune' }), 'movie:841');
    await userEvent.click(screen.getByTestId('import-confirm'));
    await screen.findByTestId('import-done');
    expect(saved).toHaveLength(1);
    expect(saved[0]!.map((op) => op.kind !== 'group-order' && op.tmdbId)).toEqual(['348', '841']);
    expect(screen.getByText('Kept in this browser. Sign in to keep it in your account too.')).toBeTruthy();
  });

  it('leaving a title out of the import', async () => {
    const { work, saved } = fakeWork();
    renderIt(work);
    await choose();
    await screen.findByTestId('import-review');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Match for Dune' }), '');
    expect(screen.getByTestId('import-will-add').textContent).toContain('1 play to your watch history');
    await userEvent.click(screen.getByTestId('import-confirm'));
    await waitFor(() =>
      expect(saved[0]?.map((op) => op.kind !== 'group-order' && op.tmdbId)).toEqual(['348']),
    );
  });

  it('a refused file says why, in words, and that nothing was imported', async () => {
    const { work, saved } = fakeWork({
      ok: false,
      refusal: { code: 'formula_in_cell', file: 'diary.csv', row: 4, column: 'Name' },
    });
    renderIt(work);
    await choose('diary.csv');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('In diary.csv:');
    expect(alert.textContent).toContain('row 4, column Name');
    expect(alert.textContent).toContain('Nothing was imported.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Choose another file' }));
    expect(screen.getByTestId('import-file-input')).toBeTruthy();
    expect(saved).toEqual([]);
  });

  it('dates a file could mean two ways are asked about before anything is matched', async () => {
    const netflix: ImportResult = {
      format: 'netflix',
      records: [
        {
          kind: 'play',
          title: { title: 'Alien' },
          watchedAt: '2024-03-04T12:00:00.000Z',
          unsure: 'date_order',
          source,
        },
      ],
      skipped: [],
    };
    const reads: unknown[] = [];
    const { work } = fakeWork({ ok: true, results: [netflix] });
    const read = work.read;
    work.read = async (files, options) => {
      reads.push(options);
      return read(files, options);
    };
    renderIt(work);
    await choose('NetflixViewingHistory.csv');
    const form = await screen.findByTestId('import-date-order');
    expect(form.textContent).toContain('03/04/2024');
    await userEvent.click(within(form).getByRole('radio', { name: 'Day first (03/04 is 3 April)' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Continue' }));
    await screen.findByTestId('import-review');
    expect(reads).toEqual([{}, { dateOrder: 'dmy' }]);
  });
});

describe("a file's lists (issue 27 item 3: named lists)", () => {
  const lists = ['Halloween', 'Noir', 'Road movies', 'Sundays', 'Festival'];
  const withLists: ImportResult = {
    format: 'letterboxd',
    records: lists.map((listName, i) => ({
      kind: 'list-item',
      title: { title: 'Alien', year: 1979 },
      listName,
      position: 1,
      source: { file: `lists/${listName}.csv`, row: 5 + i },
    })),
    skipped: [],
  };
  const option = () => screen.getByTestId<HTMLInputElement>('import-named-lists');

  it('the option names the first three lists and counts the others; on, the lists are new and go in once', async () => {
    const { work, saved } = fakeWork({ ok: true, results: [withLists] });
    renderIt(work);
    await choose();
    await screen.findByTestId('import-review');
    expect(option().checked).toBe(true);
    expect(option().parentElement!.textContent).toBe(
      'Add the titles of my lists (Halloween, Noir, Road movies, and 2 more) to My List, on lists of the same name',
    );
    expect(screen.getByTestId('import-will-add').textContent).toContain('5 new lists');
    await userEvent.click(screen.getByTestId('import-confirm'));
    await screen.findByTestId('import-done');
    expect(saved[0]!.filter((op) => op.kind === 'group-order')).toEqual([
      { kind: 'group-order', order: lists, at: 0 },
    ]);
    expect(screen.getByTestId('import-done').textContent).toContain('5 new lists');
  });

  it('off: the list entries are counted as left out, and there is nothing to import', async () => {
    const { work } = fakeWork({ ok: true, results: [withLists] });
    renderIt(work);
    await choose();
    await screen.findByTestId('import-review');
    await userEvent.click(option());
    expect(screen.getByTestId('import-left-out').textContent).toContain('5 entries on lists');
    expect(screen.getByTestId<HTMLButtonElement>('import-confirm').disabled).toBe(true);
  });

  it('one list is named as one', async () => {
    const { work } = fakeWork({
      ok: true,
      results: [{ ...withLists, records: withLists.records.slice(0, 1) }],
    });
    renderIt(work);
    await choose();
    await screen.findByTestId('import-review');
    expect(option().parentElement!.textContent).toBe(
      'Add the titles of my list Halloween to My List, on a list of the same name',
    );
  });
});

describe('a backup’s settings (issue 27: the p-stream backup imports and re-exports without loss)', () => {
  const backup: ImportResult = {
    format: 'pstream',
    records: [
      { kind: 'play', title: { title: 'Alien', year: 1979 }, watchedAt: '2024-03-01T12:00:00.000Z', source },
    ],
    skipped: [],
    // Ours (some unusable here) and p-stream's own, which this app does not sync.
    settings: {
      applicationTheme: 'red',
      applicationLanguage: 'klingon',
      enableAutoplay: false,
      watchedThreshold: 0.8,
      defaultAudioLanguage: 'JAPANESE',
      enableDiscover: true,
      sourceOrder: ['a', 'b'],
    },
  };
  const settingsBox = () =>
    screen.getByRole<HTMLInputElement>('checkbox', {
      name: "Also use this backup's settings (theme, language, subtitles…)",
    });

  it('are offered, off by default: left off, the library is imported and no setting is applied', async () => {
    const { work, saved, applied } = fakeWork({ ok: true, results: [backup] });
    renderIt(work);
    await choose('mw-account-data.json');
    await screen.findByTestId('import-review');
    expect(settingsBox().checked).toBe(false);
    await userEvent.click(screen.getByTestId('import-confirm'));
    await screen.findByTestId('import-done');
    expect(saved).toHaveLength(1);
    expect(applied).toEqual([]);
    expect(screen.queryByTestId('import-settings-applied')).toBeNull();
  });

  it('checked, are applied once the library is saved: only the fields this app knows, with usable values', async () => {
    const { work, applied, steps } = fakeWork({ ok: true, results: [backup] });
    renderIt(work);
    await choose('mw-account-data.json');
    await screen.findByTestId('import-review');
    await userEvent.click(settingsBox());
    await userEvent.click(screen.getByTestId('import-confirm'));
    expect((await screen.findByTestId('import-settings-applied')).textContent).toBe(
      "This backup's settings are now in use.",
    );
    expect(applied).toEqual([{ applicationTheme: 'red', enableAutoplay: false, watchedThreshold: 0.8 }]);
    expect(steps).toEqual(['save', 'settings']);
  });

  it('nothing new in the library: Import is possible once the settings are chosen', async () => {
    const { work, saved, applied } = fakeWork({ ok: true, results: [{ ...backup, records: [] }] });
    renderIt(work);
    await choose('mw-account-data.json');
    await screen.findByTestId('import-review');
    const confirm = screen.getByTestId<HTMLButtonElement>('import-confirm');
    expect(confirm.disabled).toBe(true);
    await userEvent.click(settingsBox());
    expect(confirm.disabled).toBe(false);
    await userEvent.click(confirm);
    await screen.findByTestId('import-done');
    expect(saved).toEqual([[]]);
    expect(applied).toHaveLength(1);
  });

  it('no setting this app can use: nothing is offered', async () => {
    const { work } = fakeWork({
      ok: true,
      results: [{ ...backup, settings: { enableDiscover: true, applicationTheme: 'mocha' } }],
    });
    renderIt(work);
    await choose('mw-account-data.json');
    await screen.findByTestId('import-review');
    expect(screen.queryByTestId('import-use-settings')).toBeNull();
  });

  it('the real step applies them as Settings does: in their stores at once', () => {
    importWork('en').applySettings({ applicationTheme: 'red', enableAutoplay: false, watchedThreshold: 0.8 });
    expect(usePreferencesStore.getState()).toMatchObject({
      theme: 'red',
      enableAutoplay: false,
      watchedThreshold: 0.8,
    });
  });
});
