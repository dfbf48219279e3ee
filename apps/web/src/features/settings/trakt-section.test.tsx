import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TraktStatus } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useAccountStore, useLibraryStore } from '../../stores/index.ts';
import { testAccount } from '../../test/account-fixtures.ts';
import { TraktSection } from './trakt-section.tsx';
import { traktStatusKey } from './trakt-status.ts';

const status = (patch: Partial<TraktStatus> = {}): TraktStatus => ({
  state: 'unlinked',
  device: null,
  username: null,
  linkedAt: null,
  lastSyncAt: null,
  syncPending: false,
  problem: null,
  ...patch,
});
const inAMinute = () => new Date(Date.now() + 60_000).toISOString();
const pending = (interval = 1) =>
  status({
    state: 'pending',
    device: {
      userCode: 'AB12CD34',
      verificationUrl: 'https://trakt.tv/activate',
      expiresAt: inAMinute(),
      interval,
    },
  });
const linked = (patch: Partial<TraktStatus> = {}) =>
  status({ state: 'linked', username: 'ada', linkedAt: '2026-01-01T00:00:00.000Z', ...patch });

type Answer = TraktStatus | { status: number; code: string };
/** The server's Trakt routes: each answers what its queue says next (the last answer repeats). */
function traktServer(answers: Record<'GET' | 'POST link' | 'DELETE' | 'POST sync', Answer[]>) {
  const seen: { what: string; profile: string | null }[] = [];
  const fetchLike = async (input: string | URL | Request, init: RequestInit = {}) => {
    const { pathname } = new URL(String(input), 'http://localhost');
    const method = init.method ?? 'GET';
    const what = method === 'POST' ? `POST ${pathname.split('/').pop()}` : method;
    const profile = new Headers(init.headers).get('x-profile-id');
    seen.push({ what, profile });
    const queue = answers[what as keyof typeof answers] ?? [];
    const answer = (queue.length > 1 ? queue.shift() : queue[0]) ?? { status: 404, code: 'route_not_found' };
    if (!pathname.startsWith('/users/u1/trakt')) throw new Error(`unexpected ${pathname}`);
    const refused = 'code' in answer;
    return new Response(
      JSON.stringify(refused ? { errorType: 'message', code: answer.code, message: answer.code } : answer),
      { status: refused ? answer.status : 200, headers: { 'content-type': 'application/json' } },
    );
  };
  vi.stubGlobal('fetch', fetchLike);
  return seen;
}

let i18next: i18n;
let client: QueryClient;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setAppStorage(memoryStorage());
  initStores();
  useAccountStore.getState().setAccount(testAccount());
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
});
afterEach(() => vi.unstubAllGlobals());

function renderSection() {
  const view = render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={client}>
        <TraktSection />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { ...view, user: userEvent.setup() };
}
const live = () => screen.getByTestId('trakt-live').textContent;

describe('Settings → Trakt: when it shows', () => {
  it('shows nothing signed out, and asks nothing', async () => {
    const seen = traktServer({ GET: [status()], 'POST link': [], DELETE: [], 'POST sync': [] });
    useAccountStore.getState().setAccount(null);
    const { container } = renderSection();
    await act(async () => undefined);
    expect(container.textContent).toBe('');
    expect(seen).toEqual([]);
  });

  it('shows nothing where the server offers no Trakt, or has no Trakt routes', async () => {
    traktServer({ GET: [status({ state: 'unavailable' })], 'POST link': [], DELETE: [], 'POST sync': [] });
    const first = renderSection();
    await waitFor(() => expect(client.getQueryData(traktStatusKey('u1', ''))).toBeTruthy());
    expect(first.container.textContent).toBe('');
    first.unmount();

    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const seen = traktServer({
      GET: [{ status: 404, code: 'route_not_found' }],
      'POST link': [],
      DELETE: [],
      'POST sync': [],
    });
    const second = renderSection();
    await waitFor(() => expect(seen.length).toBeGreaterThan(0));
    await act(async () => undefined);
    expect(second.container.textContent).toBe('');
  });
});

describe('Settings → Trakt: linking', () => {
  it('links: the code to enter, polled until Trakt says yes, then announced with the focus on it', async () => {
    const seen = traktServer({
      GET: [status(), pending(1), linked()],
      'POST link': [pending(1)],
      DELETE: [],
      'POST sync': [],
    });
    const { user } = renderSection();
    expect(await screen.findByRole('heading', { name: 'Sync with Trakt' })).toBeTruthy();
    expect(screen.getByText(/no Trakt password or key is stored in this browser/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Link Trakt' }));
    const code = await screen.findByTestId('trakt-code');
    expect(code.textContent).toBe('AB12CD34');
    expect(document.activeElement).toBe(code);
    const link = screen.getByRole('link', { name: 'https://trakt.tv/activate' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(live()).toBe('Waiting for you to enter the code at Trakt…');
    expect(screen.getByText(/^The code expires at /)).toBeTruthy();

    const linkedLine = await screen.findByText('Linked to Trakt as ada', {}, { timeout: 5_000 });
    // The announcement follows the linked state by a render (its effect sets it).
    await waitFor(() => expect(live()).toBe('Trakt is linked as ada.'));
    await waitFor(() => expect(document.activeElement).toBe(linkedLine));
    expect(screen.getByText('Never synced yet')).toBeTruthy();
    expect(seen.filter((s) => s.what === 'GET').length).toBeGreaterThanOrEqual(2);
  });

  it('cancels a code', async () => {
    traktServer({ GET: [pending(60)], 'POST link': [], DELETE: [status()], 'POST sync': [] });
    const { user } = renderSection();
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    const button = await screen.findByRole('button', { name: 'Link Trakt' });
    expect(live()).toBe('Linking Trakt was cancelled.');
    expect(document.activeElement).toBe(button);
  });
});

describe('Settings → Trakt: linked', () => {
  it('linked: Sync now, then Unlink after a confirmation', async () => {
    const seen = traktServer({
      GET: [linked({ lastSyncAt: '2026-01-02T10:00:00.000Z', problem: 'limit_reached' })],
      'POST link': [],
      DELETE: [status()],
      'POST sync': [linked({ syncPending: true })],
    });
    const { user } = renderSection();
    expect(await screen.findByText(/^Last synced /)).toBeTruthy();
    expect(screen.getByText(/Your Trakt watchlist is full/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Sync now' }));
    expect(await screen.findByText('Syncing soon…', { selector: 'p:not([role])' })).toBeTruthy();
    expect(live()).toBe('Syncing soon…');

    await user.click(screen.getByRole('button', { name: 'Unlink' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Unlink Trakt?' });
    expect(document.activeElement?.textContent).toBe('Cancel');
    await user.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    const button = await screen.findByRole('button', { name: 'Link Trakt' });
    expect(live()).toBe('Trakt is unlinked.');
    await waitFor(() => expect(document.activeElement).toBe(button));
    expect(seen.map((s) => s.what)).toEqual(expect.arrayContaining(['POST sync', 'DELETE']));
  });
});

describe('Settings → Trakt: problems, and whose library', () => {
  it('tells a refused link in words of its own', async () => {
    traktServer({
      GET: [status({ problem: 'link_denied' })],
      'POST link': [{ status: 503, code: 'trakt_not_configured' }],
      DELETE: [],
      'POST sync': [],
    });
    const { user } = renderSection();
    expect(await screen.findByText('The link was declined at Trakt. You can try again.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Link Trakt' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      "This server isn't set up to link Trakt accounts.",
    );
  });

  it('a link Trakt no longer accepts: Link again', async () => {
    traktServer({
      GET: [status({ state: 'relink', username: 'ada' })],
      'POST link': [pending(60)],
      DELETE: [],
      'POST sync': [],
    });
    const { user } = renderSection();
    expect(await screen.findByText(/Trakt no longer accepts this link/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Link again' }));
    expect(await screen.findByTestId('trakt-code')).toBeTruthy();
  });

  it("asks for the household profile's library", async () => {
    useLibraryStore.setState({ profile: 'p1' });
    const seen = traktServer({ GET: [linked()], 'POST link': [], DELETE: [], 'POST sync': [] });
    renderSection();
    await screen.findByText('Linked to Trakt as ada');
    expect(seen[0]).toEqual({ what: 'GET', profile: 'p1' });
    expect(client.getQueryData(traktStatusKey('u1', 'p1'))).toMatchObject({ state: 'linked' });
  });
});
