import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RuntimeConfig } from '@marquee/contract';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n, NAMESPACES } from '../../../lib/i18n.ts';
import { setRuntimeConfig } from '../../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../../lib/storage.ts';
import errors from '../../../locales/en/errors.json';
import player from '../../../locales/en/player.json';
import { initStores } from '../../../stores/index.ts';
import { makePlayerMeta } from '../core/meta.ts';
import { playerStore, type ScrapeState } from '../core/player-store.ts';
import type { ScrapeSegment } from '../core/types.ts';
import type { SessionProblem } from '../scrape/session.ts';
import { PlayerDepsProvider, type PlayerDeps } from '../session/player-deps.tsx';
import { inertPlayerDeps } from '../session/test-deps.ts';
import { sourceOutcomes } from './error-details.tsx';
import { PlayerView } from './player-view.tsx';
import { PlaybackErrorView, ScrapingView } from './status-views.tsx';

// The view and the session hook are real; the session's run (scraping) is the test's, and what needs a
// browser (the video, casting, thumbnails) stands aside: the view's deps are fakes.
const runSession = vi.fn<PlayerDeps['runSession']>(() => new Promise(() => undefined));
const deps = inertPlayerDeps({
  runSession,
  instanceProviders: async () => [{ id: 'menu', name: 'Menu Source', rank: 1, type: 'source' }],
});

const movie = makePlayerMeta({
  type: 'movie',
  title: 'The Matrix',
  releaseYear: 1999,
  tmdbId: '603',
  imdbId: null,
  poster: null,
  mediaKey: 'tmdb-movie-603-the-matrix',
});

/** A run that tried four sources: one had nothing, one found an embed that failed, one broke, one never ran. */
const report: ScrapeState = {
  order: ['a', 'b', 'b-embed', 'c', 'd'],
  current: 'c',
  segments: {
    a: { id: 'a', name: 'Source A', status: 'notfound', percentage: 100, reason: 'no stream' },
    b: { id: 'b', name: 'Source B', status: 'success', percentage: 100 },
    'b-embed': {
      id: 'b-embed',
      name: 'Embed X',
      embedId: 'x',
      parentId: 'b',
      status: 'failure',
      percentage: 100,
      error: 'Error: 403',
    },
    c: { id: 'c', name: 'Source C', status: 'failure', percentage: 100, error: 'TypeError: boom' },
    d: { id: 'd', name: 'Source D', status: 'waiting', percentage: 0 },
  },
};

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({ captcha: { provider: 'none', siteKey: null } } as unknown as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
  playerStore.getState().reset();
  vi.stubGlobal('fetch', () => new Promise(() => undefined));
  runSession.mockReset();
});
afterEach(() => vi.unstubAllGlobals());

const wrap = (ui: React.ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18next}>
        <MemoryRouter initialEntries={['/media/tmdb-movie-603-the-matrix']}>
          <PlayerDepsProvider value={deps}>{ui}</PlayerDepsProvider>
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );

describe('scrape progress', () => {
  it('is said politely when the source being checked changes, not on each tick', () => {
    wrap(<ScrapingView />);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe(player.scraping.searching);
    const changes: MutationRecord[] = [];
    const observer = new MutationObserver((records) => changes.push(...records));
    observer.observe(status, { childList: true, subtree: true, characterData: true });
    const a = { id: 'a', name: 'Source A', status: 'pending' as const, percentage: 0 };
    const b = { id: 'b', name: 'Source B', status: 'waiting' as const, percentage: 0 };
    act(() => playerStore.getState().setScrape({ order: ['a', 'b'], current: 'a', segments: { a, b } }));
    expect(status.textContent).toBe('Checking Source A…');
    observer.takeRecords();
    changes.length = 0;
    for (const percentage of [20, 60, 90])
      act(() =>
        playerStore.getState().setScrape({
          order: ['a', 'b'],
          current: 'a',
          segments: { a: { ...a, percentage }, b },
        }),
      );
    expect([...changes, ...observer.takeRecords()]).toEqual([]);
    act(() =>
      playerStore.getState().setScrape({
        order: ['a', 'b'],
        current: 'b',
        segments: { a: { ...a, status: 'notfound' }, b: { ...b, status: 'pending' } },
      }),
    );
    expect(status.textContent).toBe('Checking Source B…');
    observer.disconnect();
  });
});

describe('"We couldn\'t find that"', () => {
  it('is said once (an alert), Retry runs the search again, and the details list each source tried and its outcome', async () => {
    // user-event's clipboard stands in for the browser's.
    const keys = userEvent.setup();
    runSession
      .mockImplementationOnce(async (store) => {
        store.getState().setScraping();
        store.getState().setScrape(report);
        store.getState().setScrapeNotFound();
        return null;
      })
      // The second run is still searching.
      .mockImplementationOnce(() => new Promise(() => undefined));
    wrap(<PlayerView meta={movie} backTo="/" startOnOpen={false} />);

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading').textContent).toBe(player.scraping.notFound);
    expect(alert.textContent).toContain(player.scraping.notFoundText);
    // The buttons are not part of what is said.
    expect(within(alert).queryByRole('button')).toBeNull();

    await keys.click(screen.getByRole('button', { name: player.errors.showDetails }));
    const dialog = screen.getByRole('dialog', { name: player.errors.details });
    const details = within(dialog).getByTestId('error-details').textContent;
    expect(details.split('\n')).toEqual([
      `Page: ${window.location.href}`,
      'Sources tried:',
      '- Source A — not found: no stream',
      '- Source B — found',
      '    - Embed X — failed: Error: 403',
      '- Source C — failed: TypeError: boom',
    ]);
    await keys.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toContain(details);
    expect(within(dialog).getByRole('button', { name: 'Copied' })).toBeTruthy();
    await keys.click(within(dialog).getByRole('button', { name: 'Close' }));

    const retry = screen.getByRole('button', { name: 'Try again' });
    // Retry is the primary action, before the way home.
    const actions = screen.getByTestId('player-error').querySelectorAll('a, button');
    expect(actions[0]).toBe(retry);
    expect(actions[1]?.textContent).toBe(player.goHome);
    await keys.click(retry);
    expect(runSession).toHaveBeenCalledTimes(2);
    expect(screen.queryByTestId('player-error')).toBeNull();
    expect(screen.getByTestId('scraping-view')).toBeTruthy();
  });
});

describe('a playback error', () => {
  it('is said once, Retry loads the same source again where it stopped, and the details name the source that failed to play', async () => {
    const keys = userEvent.setup();
    const store = playerStore.getState();
    store.setScrape({
      ...report,
      segments: { ...report.segments, c: { ...report.segments.c!, status: 'success', error: undefined } },
    } as ScrapeState);
    store.setSource({ type: 'hls', url: '/media/c.m3u8' }, { sourceId: 'c' });
    store.updatePlayback({ time: 42 });
    store.displayError({ source: 'hls', code: 'network', message: 'fragLoadError' });
    const version = playerStore.getState().sourceVersion;
    wrap(<PlaybackErrorView />);

    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading').textContent).toBe(player.playbackError.title);
    expect(alert.textContent).toContain(player.playbackError.codes.network);

    await keys.click(screen.getByRole('button', { name: player.errors.showDetails }));
    const details = screen.getByTestId('error-details').textContent.split('\n');
    expect(details).toContain('Error: hls network: fragLoadError');
    expect(details).toContain(`- Source C — found; playback failed: ${player.playbackError.codes.network}`);
    await keys.click(screen.getByRole('button', { name: 'Close' }));

    await keys.click(screen.getByRole('button', { name: 'Try again' }));
    const after = playerStore.getState();
    expect(after.status).toBe('playing');
    expect(after.error).toBeNull();
    expect(after.source).toEqual({ type: 'hls', url: '/media/c.m3u8' });
    expect(after.sourceVersion).toBe(version + 1);
    expect(after.startAt).toBe(42);
  });
});

describe('sourceOutcomes', () => {
  it('leaves out what never ran, says what was still running, and adds a source picked from the menu', () => {
    const running: ScrapeState = {
      order: ['a', 'd'],
      current: 'd',
      segments: { a: report.segments.a!, d: { ...report.segments.d!, status: 'pending' } },
    };
    expect(sourceOutcomes(running, null).map((o) => [o.name, o.outcome])).toEqual([
      ['Source A', 'notFound'],
      ['Source D', 'unfinished'],
    ]);
    const failed = { sourceId: 'menu', sourceName: 'Menu Source', error: 'decode' };
    expect(sourceOutcomes(running, failed).at(-1)).toEqual({
      name: 'Menu Source',
      isEmbed: false,
      outcome: 'playbackFailed',
      reason: 'decode',
    });
  });
});

describe("the library's file cannot play here, or the server is busy (issue 24)", () => {
  const library: ScrapeSegment = {
    id: 'library',
    name: 'Library',
    status: 'failure',
    percentage: 100,
    error: 'ProviderRefusal: hevc, dts; no ffmpeg',
    errorCode: 'media_unplayable',
  };

  it('the scraping view says why the library failed while the next source is checked', () => {
    const links = { id: 'links', name: 'Links', status: 'pending' as const, percentage: 10 };
    playerStore
      .getState()
      .setScrape({ order: ['library', 'links'], current: 'links', segments: { library, links } });
    wrap(<ScrapingView />);
    const row = screen.getAllByTestId('scrape-segment').find((r) => r.dataset.id === 'library')!;
    expect(row.textContent).toContain(errors.api.media_unplayable);
    expect(row.textContent).not.toContain(player.scraping.items.failure);
    expect(screen.getByRole('status').textContent).toBe('Checking Links…');
  });

  it("nothing else found: the error screen and its report say why, in the viewer's words", async () => {
    const keys = userEvent.setup();
    runSession.mockImplementationOnce(async (store) => {
      store.getState().setScraping();
      store.getState().setScrape({
        order: ['library', 'a'],
        current: 'a',
        segments: { library, a: report.segments.a! },
      });
      store.getState().setScrapeNotFound();
      return null;
    });
    wrap(<PlayerView meta={movie} backTo="/" startOnOpen={false} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(errors.api.media_unplayable);
    await keys.click(screen.getByRole('button', { name: player.errors.showDetails }));
    expect(screen.getByTestId('error-details').textContent.split('\n')).toContain(
      `- Library — failed: ${errors.api.media_unplayable}`,
    );
  });

  it.each([
    ['server_busy', errors.api.server_busy],
    ['conversion_failed', errors.api.conversion_failed],
  ] as const)(
    "a %s answer while playing is said in the viewer's words; Try again reloads",
    async (code, text) => {
      const keys = userEvent.setup();
      const store = playerStore.getState();
      store.setSource(
        { type: 'hls', url: '/api/sources/library/x/f/hls/t/master.m3u8' },
        { sourceId: 'library' },
      );
      store.updatePlayback({ time: 300 });
      store.displayError({
        source: 'hls',
        code: 'network',
        message: 'fragLoadError (HTTP 503)',
        serverCode: code,
      });
      wrap(<PlaybackErrorView />);
      const alert = screen.getByRole('alert');
      expect(alert.textContent).toContain(text);
      expect(alert.textContent).not.toContain(player.playbackError.codes.network);
      await keys.click(screen.getByRole('button', { name: 'Try again' }));
      expect(playerStore.getState()).toMatchObject({ status: 'playing', startAt: 300 });
    },
  );

  it('the report keeps the source’s own words for failures the server did not explain', () => {
    const other = { ...library, id: 'x', name: 'X', errorCode: 'internal_error' as const };
    const unexplained = { ...library, id: 'y', name: 'Y', errorCode: 'media_url_expired' as const };
    const outcomes = sourceOutcomes(
      { order: ['library', 'x', 'y'], current: null, segments: { library, x: other, y: unexplained } },
      null,
    );
    expect(outcomes.map((o) => o.code)).toEqual(['media_unplayable', 'internal_error', undefined]);
  });
});

describe('the instance cannot vouch for the title (release check: not in its metadata, metadata down)', () => {
  const en = { errors, player, tryAgain: 'Try again' };
  // French as the catalog says it (only the English catalogs are typed JSON imports).
  const fr = {
    errors: {
      api: {
        media_not_found:
          'Le catalogue du serveur ne répertorie pas ce film ou cet épisode, il ne peut donc pas être lu ici.',
        metadata_unavailable:
          'Le serveur ne parvient pas à joindre sa base de données de films pour vérifier que ce titre est sorti. Réessayez dans un instant.',
      },
    },
    player: {
      goHome: 'Accueil',
      problems: {
        notInCatalog: 'Ce titre ne figure pas au catalogue',
        metadataUnavailable: 'Impossible de vérifier ce titre pour le moment',
      },
    },
    tryAgain: 'Réessayer',
  };

  /** The player of a title whose session ends with `problem`, in `language`. */
  async function showProblem(problem: SessionProblem, language: 'en' | 'fr') {
    i18next = await initI18n(language, NAMESPACES);
    runSession
      .mockResolvedValueOnce(problem)
      // A second run (Retry) is still searching.
      .mockImplementationOnce(() => new Promise(() => undefined));
    wrap(<PlayerView meta={movie} backTo="/" startOnOpen={false} />);
    return screen.findByRole('alert');
  }

  it.each([
    ['en', en],
    ['fr', fr],
  ] as const)(
    'media_not_found (%s): "not in the catalog", with the way home and no Retry',
    async (language, t) => {
      const alert = await showProblem({ kind: 'notInCatalog' }, language);
      expect(within(alert).getByRole('heading').textContent).toBe(t.player.problems.notInCatalog);
      expect(alert.textContent).toContain(t.errors.api.media_not_found);
      const card = screen.getByTestId('player-error');
      expect(within(card).getByRole('link', { name: t.player.goHome }).getAttribute('href')).toBe('/');
      expect(within(card).queryByRole('button', { name: t.tryAgain })).toBeNull();
    },
  );

  it.each([
    ['en', en],
    ['fr', fr],
  ] as const)(
    'metadata_unavailable (%s): "can\'t check this title right now", and Try again runs the session again',
    async (language, t) => {
      const keys = userEvent.setup();
      const alert = await showProblem({ kind: 'metadataUnavailable' }, language);
      expect(within(alert).getByRole('heading').textContent).toBe(t.player.problems.metadataUnavailable);
      expect(alert.textContent).toContain(t.errors.api.metadata_unavailable);
      const card = screen.getByTestId('player-error');
      const retry = within(card).getByRole('button', { name: t.tryAgain });
      // Retry is the primary action, before the way home.
      const actions = card.querySelectorAll('a, button');
      expect(actions[0]).toBe(retry);
      expect(actions[1]?.textContent).toBe(t.player.goHome);
      await keys.click(retry);
      expect(runSession).toHaveBeenCalledTimes(2);
      expect(screen.queryByTestId('player-error')).toBeNull();
      expect(screen.getByTestId('scraping-view')).toBeTruthy();
    },
  );
});
