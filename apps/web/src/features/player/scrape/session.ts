import type { ScrapeMediaParams } from '@marquee/contract';
import type { ScrapeMedia } from '@marquee/providers';
import { api } from '../../../lib/api/index.ts';
import { instanceProviders } from '../../../lib/instance-providers.ts';
import { solveAltchaChallenge } from '../../../lib/captcha/solve.ts';
import {
  extensionClient,
  extensionStateOf,
  RULE_IDS,
  type ExtensionState,
} from '../../../lib/extension/messaging.ts';
import { customProxyUrls, providerApiUrl } from '../../../lib/proxy-transport.ts';
import type { PlayerStore } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';
import { scrapeInBrowser } from './browser-scrape.ts';
import { metricItems, reportCaptcha, reportScrape, type ScrapeTool } from './metrics.ts';
import { keepMediaUrlsFresh } from './renewal.ts';
import { scrapeOnServer, SegmentTracker, type ScrapeOutcome } from './scrape-runner.ts';
import { playerSourceOf, streamHosts } from './stream-source.ts';

/** Why the player shows a screen of its own instead of scraping or playing. */
export type SessionProblem =
  | { kind: 'removed' }
  /** The instance says the title is not out yet (its clock, or metadata, disagreeing with this page's). */
  | { kind: 'unreleased' }
  /** The instance's metadata does not list this movie, season or episode. */
  | { kind: 'notInCatalog' }
  /** The instance cannot reach its metadata to check that the title is out: a retry may do. */
  | { kind: 'metadataUnavailable' }
  | { kind: 'extensionPermission'; state: ExtensionState }
  | { kind: 'captcha' }
  | { kind: 'membership' }
  | { kind: 'login' }
  | { kind: 'failed'; message: string };

export interface SessionEnvironment {
  proxyList: readonly string[] | null;
  sourceOrder: readonly string[];
  /** The instance's captcha for the default setup. */
  captcha: 'none' | 'altcha' | 'turnstile' | 'recaptcha';
  startAt(meta: PlayerMeta, durationHint: number | null): number;
}

export function scrapeParamsOf(meta: PlayerMeta): ScrapeMediaParams {
  return {
    type: meta.type,
    title: meta.title,
    releaseYear: meta.releaseYear,
    tmdbId: meta.tmdbId,
    imdbId: meta.imdbId,
    ...(meta.type === 'show' && meta.season && meta.episode
      ? {
          season: { number: meta.season.number, tmdbId: meta.season.id },
          episode: { number: meta.episode.number, tmdbId: meta.episode.id },
        }
      : {}),
  };
}

export function scrapeMediaOf(meta: PlayerMeta): ScrapeMedia {
  const common = {
    title: meta.title,
    releaseYear: meta.releaseYear ?? 0,
    tmdbId: meta.tmdbId,
    ...(meta.imdbId ? { imdbId: meta.imdbId } : {}),
  };
  if (meta.type === 'movie') return { ...common, type: 'movie' };
  return {
    ...common,
    type: 'show',
    season: { number: meta.season!.number, tmdbId: meta.season!.id },
    episode: { number: meta.episode!.number, tmdbId: meta.episode!.id },
  };
}

export { instanceProviders };

async function solveCaptcha(): Promise<string> {
  try {
    // This instance's challenge (its scrape endpoints check it), whatever account server is chosen.
    const challenge = await api.account.captchaChallenge({ baseUrl: '', token: null });
    const token = await solveAltchaChallenge(challenge);
    void reportCaptcha(true);
    return `altcha|${token}`;
  } catch (error) {
    void reportCaptcha(false);
    throw error;
  }
}

/**
 * One play session of a title (the player's metadata and scraping steps): asks the extension how it
 * is, picks how to scrape (extension, custom proxy, a provider API, or this instance), runs the scrape
 * into the store, prepares the stream with the extension, loads the source and reports the run.
 * Resolves to a problem to show, or null.
 */
export async function runSession(
  store: PlayerStore,
  meta: PlayerMeta,
  env: SessionEnvironment,
  signal: AbortSignal,
): Promise<SessionProblem | null> {
  const extension = extensionClient();
  const hello = await extension.hello();
  if (signal.aborted) return null;
  const extState = extensionStateOf(hello);
  if (extState === 'noperms' || extState === 'disallowed')
    return { kind: 'extensionPermission', state: extState };

  const proxies = customProxyUrls(env.proxyList);
  const apiBase = providerApiUrl(env.proxyList);
  const tool: ScrapeTool = extension.isActive() ? 'extension' : proxies.length ? 'custom-proxy' : 'default';
  const providers = await instanceProviders();
  if (signal.aborted) return null;
  const names = (id: string) => providers.find((p) => p.id === id)?.name ?? id;

  store.getState().setScraping();
  // Whatever source plays in this session (found now or chosen later), its signed URLs are renewed.
  keepMediaUrlsFresh(store, scrapeParamsOf(meta), signal);
  const tracker = new SegmentTracker(names, (state) => {
    if (!signal.aborted) store.getState().setScrape(state);
  });
  let outcome: ScrapeOutcome;
  try {
    if (tool === 'default') {
      outcome = await scrapeOnServer({
        base: apiBase ?? '',
        media: scrapeParamsOf(meta),
        sourceOrder: env.sourceOrder,
        signal,
        tracker,
        ...(env.captcha === 'altcha' && !apiBase ? { solveCaptcha } : {}),
      });
    } else {
      outcome = await scrapeInBrowser({
        mode: tool === 'extension' ? 'extension' : 'proxy',
        proxyUrls: proxies,
        media: scrapeMediaOf(meta),
        mediaParams: scrapeParamsOf(meta),
        instanceSources: providers,
        sourceOrder: env.sourceOrder,
        signal,
        tracker,
      });
    }
  } catch (error) {
    if (signal.aborted) return null;
    outcome = { kind: 'failed', message: (error as Error).message };
  }
  if (signal.aborted) return null;

  const items = metricItems(meta, tracker.state);
  if (items.length) void reportScrape(items, tool);

  switch (outcome.kind) {
    case 'found': {
      const { stream } = outcome.output;
      if (tool === 'extension') {
        await extension.prepareStream({
          ruleId: RULE_IDS.PREPARE_STREAM,
          targetDomains: streamHosts(stream),
          requestHeaders: { ...stream.preferredHeaders, ...stream.headers },
        });
      }
      const { source, captions, isSample, audioTracks, imageSubtitles } = playerSourceOf(stream);
      store.getState().setSource(source, {
        sourceId: outcome.output.sourceId,
        embedId: outcome.output.embedId ?? null,
        isSample,
        captions,
        audioTracks,
        imageSubtitles,
        startAt: env.startAt(meta, null),
      });
      return null;
    }
    case 'notFound':
      store.getState().setScrapeNotFound();
      return null;
    case 'removed':
    case 'unreleased':
    case 'notInCatalog':
    case 'metadataUnavailable':
    case 'captcha':
    case 'membership':
    case 'login':
      return { kind: outcome.kind };
    case 'failed':
      store.getState().setScrapeNotFound();
      return { kind: 'failed', message: outcome.message };
  }
}
