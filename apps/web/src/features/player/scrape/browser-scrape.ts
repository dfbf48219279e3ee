import { sourcePaths, type ScrapeMediaParams } from '@marquee/contract';
import {
  makeExtensionFetcher,
  makeProviders,
  makeProxyFetcher,
  makeSampleEmbeds,
  makeSampleSource,
  makeSourcerer,
  makeStandardFetcher,
  NotFoundError,
  SAMPLE_SOURCE_ID,
  type ExtensionTransport,
  type ScrapeMedia,
  type Sourcerer,
} from '@marquee/providers';
import type { InstanceProvider as ProviderMeta } from '../../../lib/instance-providers.ts';
import { extensionClient } from '../../../lib/extension/messaging.ts';
import { createProxyTransport } from '../../../lib/proxy-transport.ts';
import type { ScrapeOutcome, SegmentTracker } from './scrape-runner.ts';
import { scrapeSourceOnServer } from './scrape-runner.ts';

export const extensionTransport: ExtensionTransport = {
  async makeRequest(request) {
    const reply = await extensionClient().makeRequest(request);
    if (!reply) return { success: false, error: 'the extension did not answer' };
    return reply;
  },
};

/**
 * Sources of this instance that only the server can run (its media folder, its links file): in the
 * browser they ask the server's `/scrape/source`, and their streams come back as they are.
 */
function serverSource(meta: ProviderMeta, media: ScrapeMediaParams): Sourcerer {
  const scrape = async ({ signal }: { signal?: AbortSignal }) => {
    try {
      return await scrapeSourceOnServer({ id: meta.id, media, ...(signal ? { signal } : {}) });
    } catch (error) {
      if ((error as Error).name === 'NotFoundError') throw new NotFoundError((error as Error).message);
      throw error;
    }
  };
  return makeSourcerer({
    id: meta.id,
    name: meta.name,
    rank: meta.rank,
    flags: ['cors-allowed'],
    ...(meta.mediaTypes?.includes('movie') !== false ? { scrapeMovie: scrape } : {}),
    ...(meta.mediaTypes?.includes('show') !== false ? { scrapeShow: scrape } : {}),
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

/** In-browser scraping (extension or custom proxy): the sample runs here, the instance's own sources through it. */
export async function scrapeInBrowser(o: BrowserScrapeOptions): Promise<ScrapeOutcome> {
  const sample = { assetsUrl: `${window.location.origin}${sourcePaths.sampleAssets}` };
  const remote = o.instanceSources.filter((s) => s.type === 'source' && s.id !== SAMPLE_SOURCE_ID).map((s) => serverSource(s, o.mediaParams));
  const providers = makeProviders({
    sources: [...remote, makeSampleSource(sample)],
    embeds: makeSampleEmbeds(sample),
    fetcher: makeStandardFetcher((input, init) => fetch(input, init)),
    proxiedFetcher: o.mode === 'extension' ? makeExtensionFetcher(extensionTransport) : makeProxyFetcher(createProxyTransport(o.proxyUrls)),
    target: o.mode === 'extension' ? 'browser-extension' : 'browser',
    timeoutMs: 15_000,
  });
  const output = await providers.runAll({
    media: o.media,
    events: o.tracker.events,
    ...(o.sourceOrder?.length ? { sourceOrder: o.sourceOrder } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  return output ? { kind: 'found', output } : { kind: 'notFound' };
}
