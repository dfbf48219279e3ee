import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
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
import type { CaptionListItem, ImageSubtitleItem, PlayerSource } from '../../core/types.ts';
import { OverlayHost } from './overlay-host.tsx';

vi.mock('../../../../lib/instance-providers.ts', () => ({ instanceProviders: async () => [] }));

const movie = makePlayerMeta({
  type: 'movie',
  title: 'Toy Story',
  releaseYear: 1995,
  tmdbId: '862',
  imdbId: null,
  poster: null,
  mediaKey: 'tmdb-movie-862-toy-story',
});

const file: PlayerSource = { type: 'file', qualities: { '1080': { type: 'webm', url: '/lib/toy.mkv' } } };
const burned: PlayerSource = { type: 'hls', url: '/lib/hls/v1080.a1c.b3/master.m3u8', conversion: true };
const PGS: ImageSubtitleItem = {
  id: 'pgs-3',
  language: 'en',
  label: 'English (PGS)',
  forced: false,
  sources: { default: burned },
};
const SRT: CaptionListItem = {
  id: 'srt-2',
  language: 'fr',
  url: '/lib/subtitles/2.vtt',
  type: 'vtt',
  needsProxy: false,
  opensubtitles: false,
};

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setAppStorage(memoryStorage());
  initStores();
  playerStore.getState().reset();
  playerStore.getState().setSource(file, {
    sourceId: 'library',
    captions: [SRT],
    imageSubtitles: { items: [PGS], activeId: null, plain: file },
  });
  playerStore.getState().updatePlayback({ time: 75, hasPlayedOnce: true, isPlaying: true, isPaused: false });
});

function renderMenu(route: string) {
  const calls = { open: vi.fn(), close: vi.fn(), back: vi.fn() };
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18next}>
        <MemoryRouter>
          <OverlayHost route={route} meta={movie} {...calls} />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  return calls;
}

describe('the captions menu with a picture subtitle', () => {
  it('lists it among the source captions, saying it is burned into the picture', async () => {
    renderMenu('/captions');
    await act(async () => undefined);
    const options = within(screen.getByTestId('source-captions')).getAllByTestId('caption-option');
    expect(options.map((o) => o.dataset.language)).toEqual(['en', 'fr']);
    expect(options[0]!.textContent).toBe(`English · English (PGS) ${player.captions.burnedIn}`);
    expect(options[0]!.getAttribute('aria-checked')).toBe('false');
  });

  it('choosing it plays the burned-in playlist from where the viewer is; Off goes back to the file', async () => {
    const { close } = renderMenu('/captions');
    await act(async () => undefined);
    const option = screen.getAllByTestId('caption-option').find((o) => o.dataset.kind === 'image')!;
    await userEvent.click(option);
    expect(close).toHaveBeenCalled();
    expect(playerStore.getState()).toMatchObject({ source: burned, startAt: 75, imageSubtitleId: 'pgs-3' });
    expect(option.getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('caption-off').getAttribute('aria-checked')).toBe('false');

    playerStore.getState().updatePlayback({ time: 80 });
    await userEvent.click(screen.getByTestId('caption-off'));
    expect(playerStore.getState()).toMatchObject({ source: file, startAt: 80, imageSubtitleId: null });
  });

  it('the settings menu shows its language as the subtitles playing', async () => {
    playerStore.getState().chooseImageSubtitle('pgs-3');
    renderMenu('/settings');
    await act(async () => undefined);
    expect(screen.getByTestId('menu-captions').textContent).toContain('English');
    expect(screen.getByTestId('toggle-subtitles').getAttribute('aria-checked')).toBe('true');
  });
});
