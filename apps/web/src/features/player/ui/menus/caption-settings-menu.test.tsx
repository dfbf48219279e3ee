import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n, NAMESPACES } from '../../../../lib/i18n.ts';
import { memoryStorage, setAppStorage } from '../../../../lib/storage.ts';
import { testAccount } from '../../../../test/account-fixtures.ts';
import { initStores, useAccountStore, useLibraryStore, useSubtitlesStore } from '../../../../stores/index.ts';
import { makePlayerMeta } from '../../core/meta.ts';
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

beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
});

describe('caption styling in the player', () => {
  it('starts at the defaults: about 74 % background, no blur', () => {
    const styling = useSubtitlesStore.getState().styling;
    expect(styling).toMatchObject({ backgroundOpacity: 0.74, backgroundBlur: 0, size: 1, bold: false });
  });

  it('is a synced setting: changed in the player, it is queued for the account like a change in Settings', async () => {
    useAccountStore.getState().setAccount(testAccount());
    const i18next = await initI18n('en', NAMESPACES);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <I18nextProvider i18n={i18next}>
          <MemoryRouter>
            <OverlayHost
              route="/settings/captions/settings"
              meta={movie}
              open={vi.fn()}
              close={vi.fn()}
              back={vi.fn()}
            />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    fireEvent.change(await screen.findByTestId('caption-opacity'), { target: { value: '40' } });
    fireEvent.click(screen.getByTestId('caption-bold'));
    expect(useSubtitlesStore.getState().styling).toMatchObject({ backgroundOpacity: 0.4, bold: true });
    const queued = useLibraryStore.getState().outbox.filter((op) => op.kind === 'settings');
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      settings: { subtitleStyling: { backgroundOpacity: 0.4, bold: true, color: '#ffffff' } },
    });
  });
});
