import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LibraryStatusResponse, RuntimeConfig } from '@marquee/contract';
import { LIBRARY_POLL_MS } from '../../lib/api/queries/admin.ts';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useAccountStore } from '../../stores/index.ts';
import { testCustomer, testEmailAccount } from '../../test/account-fixtures.ts';
import { contractServer, refuse } from '../../test/contract-server.ts';
import { LibrarySection } from './library-section.tsx';

const idle: LibraryStatusResponse = {
  configured: true,
  scanning: false,
  startedAt: '2026-01-15T11:59:58.000Z',
  finishedAt: '2026-01-15T12:00:00.000Z',
  lastDurationMs: 2_345,
  videos: 1_234,
  movies: 800,
  shows: 21,
  subtitles: 310,
  checked: 1_600,
  probed: 0,
  probeFailures: 1,
  skipped: [
    {
      path: '/srv/media/Movies/notes.avi',
      reason: 'not_video',
      detail: 'Invalid data found when processing input',
    },
    { path: '/srv/media/Music/song (2001).mkv', reason: 'no_video_stream', detail: 'matroska,webm' },
  ],
  skippedCount: 75,
  watching: true,
  probing: true,
};

let i18next: i18n;
/** What GET /api/admin/library answers, in turn (the last one again once they run out). */
let answers: (LibraryStatusResponse | null)[];
let scans: number;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({ variant: 'subscription' } as unknown as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
  useAccountStore.getState().setAccount(testEmailAccount({ ...testCustomer(), isAdmin: true }));
  scans = 0;
  const next = () => (answers.length > 1 ? answers.shift()! : answers[0]!);
  const server = contractServer({
    membership: {
      libraryStatus: () => next() ?? refuse(503, { code: 'internal_error' }),
      libraryScan: () => {
        scans += 1;
        return next() ?? refuse(503, { code: 'internal_error' });
      },
    },
  });
  vi.stubGlobal('fetch', server.fetch);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={client}>
        <LibrarySection />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

describe('the media library on the admin page', () => {
  it('shows the counts, the last scan, what ffprobe and the watcher do, and the skipped files', async () => {
    answers = [idle];
    renderSection();
    expect((await screen.findByTestId('admin-library-videos')).textContent).toBe('1,234');
    expect(screen.getByTestId('admin-library-movies').textContent).toBe('800');
    expect(screen.getByTestId('admin-library-shows').textContent).toBe('21');
    expect(screen.getByTestId('admin-library-subtitles').textContent).toBe('310');
    expect(screen.getByTestId('admin-library-last-scan').textContent).toMatch(/2026.*took 2\.3 s/);
    expect(screen.getByText('ffprobe reads every file, so every video format is indexed.')).toBeTruthy();
    expect(screen.getByText('Changes in the folders start a scan.')).toBeTruthy();
    expect(screen.getByText('The last 2 of 75.')).toBeTruthy();
    const skipped = screen.getAllByTestId('admin-library-skipped');
    expect(skipped.map((s) => s.textContent)).toEqual([
      '/srv/media/Movies/notes.aviNot a video file. Invalid data found when processing input',
      '/srv/media/Music/song (2001).mkvNo picture in it (music or an image). matroska,webm',
    ]);
    expect(screen.getByTestId('admin-library-progress').textContent).toBe('');
  });

  it('scans on request from the keyboard, shows the progress every 2 s while it runs, then the result', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    const running = { ...idle, scanning: true, checked: 120, probed: 7 };
    answers = [
      { ...idle, probing: false, watching: false, skipped: [], skippedCount: 0 },
      { ...running, probing: false, watching: false },
      { ...running, checked: 900, probed: 40, probing: false, watching: false },
      { ...idle, videos: 1_300, probing: false, watching: false, skipped: [], skippedCount: 0 },
    ];
    renderSection();
    const button = await screen.findByRole('button', { name: 'Scan now' });
    expect(screen.getByText('Without ffprobe only MP4 and Matroska files are indexed.')).toBeTruthy();
    expect(screen.getByText('The folders are not watched: they are scanned every minute.')).toBeTruthy();
    expect(screen.getByText('No file was skipped.')).toBeTruthy();
    await user.tab();
    expect(document.activeElement).toBe(button);
    await user.keyboard('{Enter}');
    const progress = screen.getByTestId('admin-library-progress');
    await vi.waitFor(() =>
      expect(progress.textContent).toBe('Scanning… files checked: 120, read by ffprobe: 7'),
    );
    expect(scans).toBe(1);
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(progress.getAttribute('role')).toBe('status');

    await act(() => vi.advanceTimersByTimeAsync(LIBRARY_POLL_MS));
    await vi.waitFor(() =>
      expect(progress.textContent).toBe('Scanning… files checked: 900, read by ffprobe: 40'),
    );
    await act(() => vi.advanceTimersByTimeAsync(LIBRARY_POLL_MS));
    await vi.waitFor(() => expect(screen.getByTestId('admin-library-videos').textContent).toBe('1,300'));
    expect(progress.textContent).toBe('');
    expect((button as HTMLButtonElement).disabled).toBe(false);
  });

  it('says when the instance has no library, and offers no scan', async () => {
    answers = [{ ...idle, configured: false }];
    renderSection();
    expect(
      await screen.findByText('This instance has no media library (MEDIA_LIBRARY_DIR is not set).'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Scan now' })).toBeNull();
  });

  it('says when the status cannot be read', async () => {
    answers = [null];
    renderSection();
    expect((await screen.findByRole('alert')).textContent).toBe('The media library could not be loaded.');
  });

  it('says when a scan cannot be started', async () => {
    answers = [idle, null];
    renderSection();
    await userEvent.click(await screen.findByRole('button', { name: 'Scan now' }));
    const section = screen.getByTestId('admin-library');
    expect((await within(section).findByRole('alert')).textContent).toBe('The scan could not be started.');
  });
});
