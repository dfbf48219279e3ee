import { sourceRoutes } from '@marquee/contract/values';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n, NAMESPACES } from '../../../../lib/i18n.ts';
import { memoryStorage, setAppStorage } from '../../../../lib/storage.ts';
import errors from '../../../../locales/en/errors.json';
import { initStores } from '../../../../stores/index.ts';
import { contractServer, eventStream, refuse } from '../../../../test/contract-server.ts';
import { playerStore } from '../../core/player-store.ts';
import { chooseSource } from '../../scrape/switch-source.ts';
import { movie } from '../../session/test-meta.ts';
import { OverlayHost } from './overlay-host.tsx';

vi.mock('../../../../lib/instance-providers.ts', () => ({
  instanceProviders: async () => [{ id: 'library', name: 'Library', rank: 300, type: 'source' }],
}));

/** This instance refusing the library's file for this device, in the stream or as the answer. */
const refusing = (how: 'event' | 'answer') =>
  contractServer({
    sources: {
      scrapeSource: () =>
        how === 'event'
          ? eventStream(sourceRoutes.scrapeSource, [
              {
                event: 'error',
                data: { name: 'ProviderRefusal', message: 'hevc: no ffmpeg', code: 'media_unplayable' },
              },
            ])
          : refuse(503, { code: 'server_busy' }),
    },
  });

/** What the menu's live region says once it says something (the region is there, empty, from the start). */
async function spokenAlert() {
  return waitFor(() => {
    const text = screen.getByRole('alert').textContent;
    expect(text).not.toBe('');
    return text;
  });
}

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setAppStorage(memoryStorage());
  initStores();
  playerStore.getState().reset();
});
afterEach(() => vi.unstubAllGlobals());

describe('choosing the library in the source menu when its file cannot play here', () => {
  it('says why in the viewer’s words under the row', async () => {
    vi.stubGlobal('fetch', refusing('event').fetch);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <I18nextProvider i18n={i18next}>
          <MemoryRouter>
            <OverlayHost
              route="/settings/source"
              open={vi.fn()}
              close={vi.fn()}
              back={vi.fn()}
              meta={movie}
            />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'Library' }));
    expect(await spokenAlert()).toBe(errors.api.media_unplayable);
    const row = screen.getByRole('menuitemradio', { name: 'Library' });
    expect(document.getElementById(row.getAttribute('aria-describedby')!)?.textContent).toBe(
      errors.api.media_unplayable,
    );
  });

  it('keeps the server’s code from the stream or from the answer', async () => {
    vi.stubGlobal('fetch', refusing('event').fetch);
    expect(await chooseSource('library', movie)).toMatchObject({ kind: 'failed', code: 'media_unplayable' });
    vi.stubGlobal('fetch', refusing('answer').fetch);
    expect(await chooseSource('library', movie)).toMatchObject({ kind: 'failed', code: 'server_busy' });
  });
});

describe('choosing a source of a title the server cannot vouch for (its release check)', () => {
  /** The source menu, in the viewer's language, with the library chosen. */
  async function chooseLibrary(language: 'en' | 'fr') {
    i18next = await initI18n(language, NAMESPACES);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <I18nextProvider i18n={i18next}>
          <MemoryRouter>
            <OverlayHost
              route="/settings/source"
              open={vi.fn()}
              close={vi.fn()}
              back={vi.fn()}
              meta={movie}
            />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'Library' }));
    return spokenAlert();
  }

  it.each([
    ['en', 404, 'media_not_found', errors.api.media_not_found],
    [
      'fr',
      404,
      'media_not_found',
      'Le catalogue du serveur ne répertorie pas ce film ou cet épisode, il ne peut donc pas être lu ici.',
    ],
    ['en', 503, 'metadata_unavailable', errors.api.metadata_unavailable],
    [
      'fr',
      503,
      'metadata_unavailable',
      'Le serveur ne parvient pas à joindre sa base de données de films pour vérifier que ce titre est sorti. Réessayez dans un instant.',
    ],
  ] as const)('(%s) a %i %s answer is said in the viewer’s words', async (language, status, code, text) => {
    vi.stubGlobal(
      'fetch',
      contractServer({ sources: { scrapeSource: () => refuse(status, { code }) } }).fetch,
    );
    expect(await chooseSource('library', movie)).toMatchObject({ kind: 'failed', code });
    expect(await chooseLibrary(language)).toBe(text);
  });
});
