import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n, NAMESPACES } from '../../../../lib/i18n.ts';
import { memoryStorage, setAppStorage } from '../../../../lib/storage.ts';
import player from '../../../../locales/en/player.json';
import { initStores } from '../../../../stores/index.ts';
import { makePlayerMeta } from '../../core/meta.ts';
import { playerStore } from '../../core/player-store.ts';
import type { AudioTrackItem, PlayerSource } from '../../core/types.ts';
import { OverlayHost } from './overlay-host.tsx';

vi.mock('../../../../lib/instance-providers.ts', () => ({ instanceProviders: async () => [] }));

const movie = makePlayerMeta({
  type: 'movie',
  title: 'Amélie',
  releaseYear: 2001,
  tmdbId: '194',
  imdbId: null,
  poster: null,
  mediaKey: 'tmdb-movie-194-amelie',
});

const file: PlayerSource = { type: 'file', qualities: { '1080': { type: 'mp4', url: '/lib/amelie.mkv' } } };
const hls = (track: string): PlayerSource => ({ type: 'hls', url: `/lib/hls/${track}/master.m3u8` });
const TRACKS: AudioTrackItem[] = [
  { id: 'fr', language: 'fr', label: null, channels: 6, isDefault: true, source: file },
  { id: 'en', language: 'en', label: 'Commentary', channels: 2, isDefault: false, source: hls('en') },
  { id: 'x', language: 'und', label: null, channels: 4, isDefault: false, source: hls('x') },
];

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setAppStorage(memoryStorage());
  initStores();
  playerStore.getState().reset();
});

function renderMenu(route: string, language?: i18n) {
  const calls = { open: vi.fn(), close: vi.fn(), back: vi.fn() };
  const view = render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={language ?? i18next}>
        <MemoryRouter>
          <OverlayHost route={route} meta={movie} {...calls} />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  return { ...calls, ...view };
}

const playing = (tracks = TRACKS, activeId = 'fr') => {
  playerStore.getState().setSource(file, { sourceId: 'library', audioTracks: { tracks, activeId } });
  playerStore
    .getState()
    .updatePlayback({ time: 3605, hasPlayedOnce: true, isPlaying: true, isPaused: false });
};

describe('the settings menu', () => {
  it('offers Audio, with the language playing, when the title has two tracks or more', async () => {
    playing();
    const { open } = renderMenu('/settings');
    await act(async () => undefined);
    const row = screen.getByTestId('settings-audio');
    expect(row.getAttribute('role')).toBe('menuitem');
    expect(row.textContent).toBe(`${player.settings.audio}French`);
    await userEvent.click(row);
    expect(open).toHaveBeenCalledWith('/settings/audio');
  });

  it('has no Audio row for one track or a source without tracks', async () => {
    playing([TRACKS[0]!]);
    const first = renderMenu('/settings');
    await act(async () => undefined);
    expect(screen.queryByTestId('settings-audio')).toBeNull();
    first.unmount();
    playerStore.getState().setSource(hls('other'), { sourceId: 'links' });
    renderMenu('/settings');
    await act(async () => undefined);
    expect(screen.queryByTestId('settings-audio')).toBeNull();
  });
});

describe('/settings/audio', () => {
  it('lists each track by language, channels, its name in the file and Default; the playing one checked and focused', () => {
    playing();
    renderMenu('/settings/audio');
    const menu = screen.getByRole('menu', { name: player.settings.audio });
    expect(menu).toBeTruthy();
    const radios = screen.getAllByRole('menuitemradio');
    expect(radios.map((r) => [r.textContent, r.getAttribute('aria-checked')])).toEqual([
      [`French 5.1 · ${player.audio.default}`, 'true'],
      [`English ${player.audio.stereo} · Commentary`, 'false'],
      // Four channels have no common name; an undetermined language says so.
      [player.captions.unknownLanguage, 'false'],
    ]);
    expect(document.activeElement).toBe(radios[0]);
  });

  it('choosing a track plays it from where the viewer is and closes the menus', async () => {
    playing();
    const version = playerStore.getState().sourceVersion;
    const { close } = renderMenu('/settings/audio');
    await userEvent.click(screen.getAllByRole('menuitemradio')[1]!);
    expect(close).toHaveBeenCalledOnce();
    const s = playerStore.getState();
    expect(s).toMatchObject({ source: hls('en'), startAt: 3605, audioTrackId: 'en', sourceId: 'library' });
    expect(s.sourceVersion).toBe(version + 1);
    expect(s.audioTracks).toBe(TRACKS);
  });

  it('follows the WAI-ARIA menu keys: arrows walk the tracks, Enter chooses, Escape goes back', async () => {
    playing();
    const keys = userEvent.setup();
    const { back, close } = renderMenu('/settings/audio');
    const radios = screen.getAllByRole('menuitemradio');
    await keys.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(radios[1]);
    await keys.keyboard('{End}');
    expect(document.activeElement).toBe(radios[2]);
    await keys.keyboard('{ArrowUp}');
    await keys.keyboard('{Enter}');
    expect(close).toHaveBeenCalledOnce();
    expect(playerStore.getState().audioTrackId).toBe('en');
    await keys.keyboard('{Escape}');
    expect(back).toHaveBeenCalled();
  });

  it('names languages in the UI language', async () => {
    playing();
    const german = await initI18n('de', NAMESPACES);
    renderMenu('/settings/audio', german);
    expect(screen.getAllByRole('menuitemradio')[1]!.textContent).toBe('Englisch Stereo · Commentary');
    expect(screen.getByRole('menu', { name: 'Audio' })).toBeTruthy();
  });
});
