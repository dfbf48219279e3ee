import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PartyView } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../../lib/i18n.ts';
import { memoryStorage, setAppStorage } from '../../../lib/storage.ts';
import { initStores } from '../../../stores/index.ts';
import { PartyPanel } from './party-panel.tsx';
import { partyStore, PartySession } from './party-session.ts';

const NOW = Date.UTC(2026, 11, 1, 20);

const view = (over: Partial<PartyView['playback']> = {}, hostOnly = false): PartyView => ({
  id: 'A'.repeat(22),
  title: { type: 'movie', tmdbId: '27205', title: 'Inception', releaseYear: 2010 },
  hostOnly,
  playback: { playing: true, position: 10, at: NOW, rate: 1, waitingFor: [], holdUntil: null, ...over },
  members: [
    { id: 'ana', name: 'Ana', host: true, guest: false },
    { id: 'ben', name: 'Ben', host: false, guest: true },
  ],
  version: 3,
  serverTime: NOW,
});

let i18next: i18n;
let session: PartySession;
beforeEach(async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true, now: NOW });
  i18next = await initI18n('en', NAMESPACES);
  setAppStorage(memoryStorage());
  initStores();
  session = new PartySession('A'.repeat(22), { memberId: 'ben', token: 't'.repeat(43) });
  partyStore.setState({
    partyId: session.partyId,
    memberId: 'ben',
    view: view(),
    status: 'live',
    errorCode: null,
    chat: [],
    reactions: [],
    offsetMs: 0,
    driftMs: 12,
  });
});

function renderPanel() {
  return render(
    <I18nextProvider i18n={i18next}>
      <MemoryRouter initialEntries={[`/media/tmdb-movie-27205-inception?party=${'A'.repeat(22)}`]}>
        <PartyPanel session={session} />
      </MemoryRouter>
    </I18nextProvider>,
  );
}

describe('the party beside the video', () => {
  it('names who is here, which one is the viewer and the host, and labels every reaction', () => {
    renderPanel();
    expect(screen.getByRole('list', { name: '2 watching' }).textContent).toBe('Ana · hostBen · you');
    const reactions = screen.getByRole('group', { name: 'Reactions' });
    expect(reactions.querySelectorAll('button')).toHaveLength(8);
    expect(screen.getByRole('button', { name: 'React with 🔥' })).toBeTruthy();
    expect(screen.getByTestId('party-panel').getAttribute('data-drift-ms')).toBe('12');
    // Not the host: no switch, and nothing said while anyone may control playback.
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('says whom the room waits for while it holds, and stops saying it when the hold ends', async () => {
    partyStore.setState({ view: view({ waitingFor: ['ana'], holdUntil: NOW + 10_000 }) });
    renderPanel();
    expect(screen.getByRole('status').textContent).toBe('Waiting for Ana…');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_100);
    });
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('sends a chat line and a reaction as the member, and shows what arrives', async () => {
    const say = vi.spyOn(session, 'say').mockResolvedValue(true);
    renderPanel();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'popcorn?{Enter}');
    expect(say).toHaveBeenCalledWith({ text: 'popcorn?' });
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLInputElement).value).toBe('');
    await user.click(screen.getByRole('button', { name: 'React with 😂' }));
    expect(say).toHaveBeenCalledWith({ reaction: '😂' });
    act(() =>
      partyStore.setState({ chat: [{ id: '1', memberId: 'ana', name: 'Ana', text: 'yes!', at: NOW }] }),
    );
    expect(screen.getByRole('log', { name: 'Party chat' }).textContent).toBe('Ana: yes!');
  });

  it('explains a refusal, and the end of the party with a way to keep watching', () => {
    partyStore.setState({ view: view({}, true), errorCode: 'party_host_only' });
    const { unmount } = renderPanel();
    expect(screen.getByRole('alert').textContent).toBe('Only the host controls playback in this party.');
    expect(screen.getByText('Only the host controls playback.')).toBeTruthy();
    unmount();
    partyStore.setState({ status: 'ended' });
    renderPanel();
    expect(screen.getByRole('status').textContent).toBe('The party has ended.');
    expect(screen.getByRole('button', { name: 'Keep watching on my own' })).toBeTruthy();
    expect(screen.queryByRole('log')).toBeNull();
  });

  it('gives the host the switch that keeps playback to them', async () => {
    partyStore.setState({ memberId: 'ana' });
    const command = vi.spyOn(session, 'command').mockResolvedValue();
    renderPanel();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(screen.getByRole('checkbox', { name: 'Only I control playback' }));
    expect(command).toHaveBeenCalledWith({ type: 'hostOnly', value: true });
  });
});
