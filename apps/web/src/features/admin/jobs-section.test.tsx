import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobsStatusResponse, RuntimeConfig } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useAccountStore } from '../../stores/index.ts';
import { testCustomer, testEmailAccount } from '../../test/account-fixtures.ts';
import { contractServer, refuse } from '../../test/contract-server.ts';
import { JobsSection } from './jobs-section.tsx';

let i18next: i18n;
let answer: JobsStatusResponse | null;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({ variant: 'subscription' } as unknown as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
  useAccountStore.getState().setAccount(testEmailAccount({ ...testCustomer(), isAdmin: true }));
  const server = contractServer({
    jobs: { status: () => answer ?? refuse(503, { code: 'internal_error' }) },
  });
  vi.stubGlobal('fetch', server.fetch);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={client}>
        <JobsSection />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

describe('the background jobs on the admin page', () => {
  it('shows where the queue lives, each kind’s counts and the last failures', async () => {
    answer = {
      backend: 'redis',
      kinds: [
        { kind: 'thumbnails', concurrency: 1, queued: 12, running: 1, done: 1234, failed: 2 },
        { kind: 'future-kind', concurrency: 4, queued: 0, running: 0, done: 0, failed: 0 },
      ],
      failures: [
        {
          kind: 'thumbnails',
          id: 'AAAAAAAAAAAAAAAAAAAAAA-100-5',
          error: 'ffmpeg exited with code 1',
          attempts: 2,
          at: '2026-01-15T12:00:00.000Z',
        },
      ],
    };
    renderSection();
    expect(await screen.findByText(/Queued in Redis/)).toBeTruthy();
    const rows = screen.getAllByTestId('admin-jobs-kind');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('rowheader').textContent).toBe('Seek thumbnails');
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['12', '1', '1,234', '2', '1']);
    // A kind this page does not know yet is shown as the server names it.
    expect(within(rows[1]!).getByRole('rowheader').textContent).toBe('future-kind');
    const failure = screen.getByTestId('admin-jobs-failure');
    expect(failure.textContent).toContain('AAAAAAAAAAAAAAAAAAAAAA-100-5');
    expect(failure.textContent).toContain('ffmpeg exited with code 1');
    expect(failure.textContent).toMatch(/attempts: 2/);
  });

  it('says when nothing is set up and nothing failed', async () => {
    answer = { backend: 'process', kinds: [], failures: [] };
    renderSection();
    expect(await screen.findByText(/Queued in this server process/)).toBeTruthy();
    expect(screen.getByText('No kind of background job is set up on this instance.')).toBeTruthy();
    expect(screen.getByText('No job has failed.')).toBeTruthy();
  });

  it('says when the list cannot be read', async () => {
    answer = null;
    renderSection();
    expect((await screen.findByRole('alert')).textContent).toBe('The background jobs could not be loaded.');
  });
});
