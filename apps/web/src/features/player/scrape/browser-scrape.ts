import type { ScrapeMediaParams } from '@marquee/contract';
import {
  makeEmbed,
  makeExtensionFetcher,
  makeProviders,
  makeProxyFetcher,
  makeSourcerer,
  makeStandardFetcher,
  NotFoundError,
  ProviderRefusal,
  SAMPLE_SOURCE_ID,
  ScrapeAbortedError,
  type Embed,
  type ExtensionTransport,
  type RefusalCode,
  type ScrapeMedia,
  type Sourcerer,
} from '@marquee/providers';
import type { InstanceProvider as ProviderMeta } from '../../../lib/instance-providers.ts';
import { extensionClient } from '../../../lib/extension/messaging.ts';
import { createProxyTransport } from '../../../lib/proxy-transport.ts';
import type { ScrapeOutcome, SegmentTracker, TitleRefusal } from './scrape-runner.ts';
import {
  ScrapeEventError,
  scrapeEmbedOnServer,
  scrapeSourceOnServer,
  titleRefusalOf,
} from './scrape-runner.ts';

export const extensionTransport: ExtensionTransport = {
  async makeRequest(request) {
    const reply = await extensionClient().makeRequest(request);
    if (!reply) return { success: false, error: 'the extension did not answer' };
    return reply;
  },
};

const REFUSAL_CODES: readonly string[] = ['media_unplayable', 'server_busy'] satisfies RefusalCode[];
const isRefusalCode = (code: string | undefined): code is RefusalCode =>
  code !== undefined && REFUSAL_CODES.includes(code);

const notFoundAsSuch = (error: unknown) =>
  (error as Error).name === 'NotFoundError' ? new NotFoundError((error as Error).message) : error;

/**
 * Sources of this instance run on the server (its media folder, its links file, and the sample, whose
 * URLs the server signs — decision 071): in the browser they ask the server's `/scrape/source`, and their
 * streams come back as they are. A refusal the viewer is told about (`media_unplayable`) stays one, so the
 * runner's failure carries its code. A refusal of the title itself (`media_not_found`,
 * `metadata_unavailable`, `media_unreleased`, `media_removed`: the server checks the media before any
 * source) goes to `refuse`, which ends the whole run with it: every other source would be refused alike.
 */
function serverSource(
  meta: ProviderMeta,
  media: ScrapeMediaParams,
  refuse: (refusal: TitleRefusal) => void,
): Sourcerer {
  const scrape = async ({ signal }: { signal?: AbortSignal }) => {
    try {
      return await scrapeSourceOnServer({ id: meta.id, media, ...(signal ? { signal } : {}) });
    } catch (error) {
      const refusal = titleRefusalOf(error);
      if (refusal) {
        refuse(refusal);
        throw new ScrapeAbortedError();
      }
      if (error instanceof ScrapeEventError && isRefusalCode(error.code))
        throw new ProviderRefusal(error.message, error.code);
      throw notFoundAsSuch(error);
    }
  };
  return makeSourcerer({
    id: meta.id,
    name: meta.name,
    rank: meta.rank,
    // The sample stays the fallback it is on the server: it runs after every other source.
    ...(meta.id === SAMPLE_SOURCE_ID ? { isFallback: true } : {}),
    flags: ['cors-allowed'],
    ...(meta.mediaTypes?.includes('movie') !== false ? { scrapeMovie: scrape } : {}),
    ...(meta.mediaTypes?.includes('show') !== false ? { scrapeShow: scrape } : {}),
  });
}

/** Embeds of this instance (the sample's), run by the server's `/scrape/embed` on the URLs its sources gave. */
function serverEmbed(meta: ProviderMeta): Embed {
  return makeEmbed({
    id: meta.id,
    name: meta.name,
    rank: meta.rank,
    async scrape({ url, signal }: { url: string; signal?: AbortSignal }) {
      try {
        return await scrapeEmbedOnServer({ id: meta.id, url, ...(signal ? { signal } : {}) });
      } catch (error) {
        throw notFoundAsSuch(error);
      }
    },
  });
}

export interface BrowserScrapeOptions {
  mode: 'extension' | 'proxy';
  proxyUrls: readonly string[];
  media: ScrapeMedia;
  mediaParams: ScrapeMediaParams;
  /** Sources the instance lists at /metadata (its own run on the server). */
  instanceSources: readonly ProviderMeta[];
  sourceOrder?: readonly string[];
  signal?: AbortSignal;
  tracker: SegmentTracker;
}

/**
 * In-browser scraping (extension or custom proxy): the instance's own sources and embeds run through it.
 * A title the server refuses (see serverSource) stops the run, which ends with that refusal as the
 * server-side run does (scrapeOnServer).
 */
export async function scrapeInBrowser(o: BrowserScrapeOptions): Promise<ScrapeOutcome> {
  const run = new AbortController();
  const stop = () => run.abort(o.signal?.reason);
  if (o.signal?.aborted) stop();
  else o.signal?.addEventListener('abort', stop, { once: true });
  const refused: { refusal: TitleRefusal | null } = { refusal: null };
  const refuse = (refusal: TitleRefusal) => {
    refused.refusal ??= refusal;
    run.abort();
  };
  const providers = makeProviders({
    sources: o.instanceSources
      .filter((s) => s.type === 'source')
      .map((s) => serverSource(s, o.mediaParams, refuse)),
    embeds: o.instanceSources.filter((s) => s.type === 'embed').map(serverEmbed),
    // The providers package's own fetcher: requests to the sources' sites, not our API (lint-exempt).
    fetcher: makeStandardFetcher((input, init) => fetch(input, init)),
    proxiedFetcher:
      o.mode === 'extension'
        ? makeExtensionFetcher(extensionTransport)
        : makeProxyFetcher(createProxyTransport(o.proxyUrls)),
    target: o.mode === 'extension' ? 'browser-extension' : 'browser',
    timeoutMs: 15_000,
  });
  try {
    const output = await providers.runAll({
      media: o.media,
      events: o.tracker.events,
      ...(o.sourceOrder?.length ? { sourceOrder: o.sourceOrder } : {}),
      signal: run.signal,
    });
    return output ? { kind: 'found', output } : { kind: 'notFound' };
  } catch (error) {
    if (refused.refusal && !o.signal?.aborted) return refused.refusal;
    throw error;
  } finally {
    o.signal?.removeEventListener('abort', stop);
  }
}
