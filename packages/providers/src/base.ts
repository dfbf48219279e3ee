import type { UseableFetcher } from './fetchers/types.ts';
import type { MovieMedia, ShowMedia } from './media.ts';
import type { Stream } from './streams.ts';
import type { Flag } from './targets.ts';

export interface ScrapeContext {
  /** Requests that need no CORS help (APIs that allow any origin, or the server). */
  fetcher: UseableFetcher;
  /** Requests that need the proxy or the extension when running in a browser. */
  proxiedFetcher: UseableFetcher;
  /** Reports progress of the current provider, 0–100. */
  progress(percentage: number): void;
  /** Aborted when the run is cancelled: pass it on to long waits. */
  signal?: AbortSignal;
}

export interface MovieScrapeContext extends ScrapeContext {
  media: MovieMedia;
}
export interface ShowScrapeContext extends ScrapeContext {
  media: ShowMedia;
}
export interface EmbedScrapeContext extends ScrapeContext {
  url: string;
}

/** A page or player a source points at; the embed with `embedId` turns `url` into a stream. */
export interface SourcererEmbed {
  embedId: string;
  url: string;
}

export interface SourcererOutput {
  embeds: SourcererEmbed[];
  stream?: Stream[];
}

/** A source: finds a media and yields streams, or embeds to scrape further. */
export interface Sourcerer {
  id: string;
  /** Shown to viewers. */
  name: string;
  /** Higher runs earlier unless an order says otherwise. */
  rank: number;
  disabled?: boolean;
  /** Runs only after every other source, whatever the order: it answers when nothing else has the media. */
  isFallback?: boolean;
  flags: Flag[];
  scrapeMovie?: (ctx: MovieScrapeContext) => Promise<SourcererOutput>;
  scrapeShow?: (ctx: ShowScrapeContext) => Promise<SourcererOutput>;
}

export interface EmbedOutput {
  stream: Stream[];
}

/** An embed: turns a URL a source found into streams. */
export interface Embed {
  id: string;
  name: string;
  rank: number;
  disabled?: boolean;
  scrape: (ctx: EmbedScrapeContext) => Promise<EmbedOutput>;
}

export const makeSourcerer = (source: Sourcerer): Sourcerer => source;
export const makeEmbed = (embed: Embed): Embed => embed;
