import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n, NAMESPACES } from '../../../../lib/i18n.ts';
import player from '../../../../locales/en/player.json';
import { memoryStorage, setAppStorage } from '../../../../lib/storage.ts';
import { initStores } from '../../../../stores/index.ts';
import { CaptionFetchError } from '../../captions/caption-fetch.ts';
import { makePlayerMeta } from '../../core/meta.ts';
import { playerStore } from '../../core/player-store.ts';
import { OverlayHost } from './overlay-host.tsx';

const actions = vi.hoisted(() => ({
  selectCaption: vi.fn(),
  uploadCaption: vi.fn(),
}));
vi.mock('../../captions/caption-actions.ts', async (original) => ({
  ...(await original<object>()),
  ...actions,
}));
vi.mock('../../../../lib/instance-providers.ts', () => ({ instanceProviders: async () => [] }));

const movie = makePlayerMeta({
  type: 'movie',
  title: 'The Matrix',
  releaseYear: 1999,
  tmdbId: '603',
  imdbId: null,
  poster: null,
  mediaKey: 'tmdb-movie-603-the-matrix',
});
const show = makePlayerMeta({
  ...movie,
  type: 'show',
  season: { id: 's1', number: 1, title: 'Season 1' },
  episode: { id: 'e1', number: 1, title: 'Pilot', airDate: '2020-01-01' },
  episodes: [],
  seasons: [{ id: 's1', number: 1, title: 'Season 1' }],
});

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setAppStorage(memoryStorage());
  initStores();
  playerStore.getState().reset();
});
afterEach(() => vi.unstubAllGlobals());

const renderHost = (route: string, meta = movie) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18next}>
        <MemoryRouter>
          <OverlayHost route={route} open={vi.fn()} close={vi.fn()} back={vi.fn()} meta={meta} />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );

describe('OverlayHost', () => {
  // Choices are menus named by their title; the caption settings and the shortcuts are panels (dialogs).
  it.each([
    ['/settings', 'settings-menu', 'menu', player.settings.title],
    ['/settings/quality', 'quality-menu', 'menu', player.settings.quality],
    ['/settings/captions', 'captions-menu', 'menu', player.settings.subtitles],
    ['/captions', 'captions-menu', 'menu', player.settings.subtitles],
    ['/settings/captions/settings', 'caption-settings', 'dialog', player.captions.settings],
    ['/settings/source', 'source-menu', 'menu', player.settings.source],
    ['/settings/playback', 'playback-menu', 'menu', player.settings.playback],
    ['/settings/audio', 'audio-menu', 'menu', player.settings.audio],
    ['/shortcuts', 'shortcuts-list', 'dialog', player.shortcuts.title],
  ] as const)('%s opens %s, a %s', async (route, testId, role, name) => {
    renderHost(route);
    await act(async () => undefined);
    expect(screen.getByTestId('overlay-host')).toBeTruthy();
    const card = screen.getByTestId(testId);
    const named = screen.getByRole(role, { name });
    expect(card === named || card.contains(named)).toBe(true);
  });

  it('episodes only for shows; unknown routes show nothing', async () => {
    // The season's episodes never arrive: only the menu's frame matters here.
    vi.stubGlobal('fetch', () => new Promise(() => undefined));
    renderHost('/episodes/seasons', show);
    expect(screen.getByTestId('seasons-menu')).toBeTruthy();
    renderHost('/episodes', movie).unmount();
    renderHost('/nowhere').unmount();
    expect(screen.getAllByTestId('overlay-host')).toHaveLength(1);
  });

  it('caption languages are radios, checked when chosen; the menu opens on the checked one', async () => {
    const item = (id: string, language: string) => ({
      id,
      language,
      url: 'u',
      type: 'srt' as const,
      needsProxy: false,
      opensubtitles: false,
    });
    playerStore.getState().setCaptionList([item('c1', 'en'), item('c2', 'fr')]);
    const checked = () =>
      screen.getAllByRole('menuitemradio').map((r) => [r.textContent, r.getAttribute('aria-checked')]);
    const first = renderHost('/captions');
    expect(checked()).toEqual([
      [player.captions.off, 'true'],
      ['English', 'false'],
      ['French', 'false'],
    ]);
    expect(document.activeElement).toBe(screen.getByTestId('caption-off'));
    first.unmount();
    playerStore.getState().setCaption({ id: 'c2', language: 'fr', cues: [], srtData: '' });
    renderHost('/captions');
    expect(checked()).toEqual([
      [player.captions.off, 'false'],
      ['English', 'false'],
      ['French', 'true'],
    ]);
    expect(document.activeElement?.textContent).toBe('French');
    // Upload and Customize are actions, not choices.
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual([
      player.captions.upload,
      player.captions.customize,
    ]);
  });

  it("forced tracks come first among the source's captions, each with the file's name of it", () => {
    const item = (id: string, language: string, o: { forced?: boolean; label?: string } = {}) => ({
      id,
      language,
      url: id,
      type: 'vtt' as const,
      needsProxy: false,
      opensubtitles: false,
      ...o,
    });
    playerStore
      .getState()
      .setCaptionList([
        item('en', 'en'),
        item('en-sdh', 'en', { label: 'SDH' }),
        item('fr', 'fr'),
        item('en-forced', 'en', { forced: true, label: 'Signs' }),
        item('fr-forced', 'fr', { forced: true }),
      ]);
    renderHost('/captions');
    const own = within(screen.getByTestId('source-captions'));
    expect(own.getAllByRole('menuitemradio').map((r) => r.textContent)).toEqual([
      `English · Signs ${player.captions.forced}`,
      `French ${player.captions.forced}`,
      'English',
      'English · SDH',
      'French',
    ]);
    // The search finds a track by its name in the file too.
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'sdh' } });
    expect(own.getAllByRole('menuitemradio').map((r) => r.dataset.language)).toEqual(['en']);
  });

  it('caption failures show their translated text, not the error', async () => {
    playerStore
      .getState()
      .setCaptionList([
        { id: 'c1', language: 'en', url: 'u', type: 'srt', needsProxy: true, opensubtitles: false },
      ]);
    actions.selectCaption.mockRejectedValueOnce(new CaptionFetchError('extension'));
    actions.uploadCaption.mockRejectedValueOnce(new Error('NotReadableError: internal detail'));
    renderHost('/captions');
    await act(async () => fireEvent.click(screen.getByTestId('caption-option')));
    expect(screen.getByRole('alert').textContent).toBe(player.captions.errors.extension);
    const file = new File(['x'], 'a.srt');
    await act(async () =>
      fireEvent.change(screen.getByTestId('caption-file'), { target: { files: [file] } }),
    );
    const texts = screen.getAllByRole('alert').map((a) => a.textContent);
    expect(texts).toContain(player.captions.errors.read);
    expect(texts.join(' ')).not.toContain('internal detail');
  });
});
