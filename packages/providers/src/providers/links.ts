import { makeSourcerer, type Sourcerer } from '../base.ts';
import { NotFoundError } from '../errors.ts';
import type { ScrapeMedia } from '../media.ts';
import {
  captionTypeFromUrl,
  qualities as qualityNames,
  type Caption,
  type Quality,
  type Stream,
  type StreamFile,
} from '../streams.ts';
import { flags, type Flag } from '../targets.ts';

export const LINKS_SOURCE_ID = 'links';

export type LinkFormat = 'hls' | 'mp4' | 'webm';

/** One line of the operator's links file: a title (or one episode) and where its stream lives. */
export interface LinkEntry {
  type: 'movie' | 'show';
  tmdbId: string;
  season?: number;
  episode?: number;
  /** One URL: an HLS playlist or a video file. */
  url?: string;
  /** Files by quality, instead of `url`. */
  qualities?: Partial<Record<Quality, string>>;
  /** When the URL does not end in .m3u8/.mp4/.webm. */
  format?: LinkFormat;
  captions?: { language: string; url: string; needsProxy?: boolean }[];
  /** The host allows cross-origin reads (default true: the operator's own CDN). */
  corsAllowed?: boolean;
  headers?: Record<string, string>;
}

/** Where the links come from: a file on the server, or anything else that can answer. */
export interface LinksLookup {
  find(media: ScrapeMedia): Promise<LinkEntry[]> | LinkEntry[];
}

export function formatOfUrl(url: string): LinkFormat | null {
  const path = url.split(/[?#]/, 1)[0]!.toLowerCase();
  if (path.endsWith('.m3u8')) return 'hls';
  if (/\.(mp4|m4v|mov)$/.test(path)) return 'mp4';
  if (/\.(webm|mkv)$/.test(path)) return 'webm';
  return null;
}

/** Whether an entry is about this media (a show entry must name the episode). */
export function linkMatches(entry: LinkEntry, media: ScrapeMedia): boolean {
  if (entry.type !== media.type || entry.tmdbId !== media.tmdbId) return false;
  if (media.type === 'movie') return true;
  return entry.season === media.season.number && entry.episode === media.episode.number;
}

/** The stream an entry describes, or null when it names nothing playable. */
export function streamFromLink(entry: LinkEntry, id: string): Stream | null {
  const streamFlags: Flag[] = entry.corsAllowed === false ? [] : [flags.CORS_ALLOWED];
  const captions: Caption[] = (entry.captions ?? []).flatMap((c, index) => {
    const type = captionTypeFromUrl(c.url);
    return type
      ? [
          {
            id: `${id}-caption-${index}`,
            language: c.language,
            url: c.url,
            type,
            needsProxy: c.needsProxy ?? false,
            opensubtitles: false,
          },
        ]
      : [];
  });
  const extra = entry.headers ? { headers: entry.headers } : {};
  if (entry.url) {
    const format = entry.format ?? formatOfUrl(entry.url);
    if (format === 'hls')
      return { id, type: 'hls', playlist: entry.url, flags: streamFlags, captions, ...extra };
    if (format)
      return {
        id,
        type: 'file',
        qualities: { unknown: { type: format, url: entry.url } },
        flags: streamFlags,
        captions,
        ...extra,
      };
    return null;
  }
  const files: Partial<Record<Quality, StreamFile>> = {};
  for (const quality of qualityNames) {
    const url = entry.qualities?.[quality];
    if (!url) continue;
    const format = entry.format ?? formatOfUrl(url) ?? 'mp4';
    if (format === 'hls') continue;
    files[quality] = { type: format, url };
  }
  if (Object.keys(files).length === 0) return null;
  return { id, type: 'file', qualities: files, flags: streamFlags, captions, ...extra };
}

/** The links source: the operator's list of TMDB id (+ season/episode) → stream URL(s). */
export function makeLinksSource(lookup: LinksLookup): Sourcerer {
  const scrape = async ({ media }: { media: ScrapeMedia }) => {
    const entries = (await lookup.find(media)).filter((e) => linkMatches(e, media));
    const stream = entries.flatMap((entry, index) => streamFromLink(entry, `links-${index}`) ?? []);
    if (stream.length === 0) throw new NotFoundError('no link for this title');
    return { embeds: [], stream };
  };
  return makeSourcerer({
    id: LINKS_SOURCE_ID,
    name: 'Operator links',
    rank: 200,
    flags: [flags.CORS_ALLOWED],
    scrapeMovie: scrape,
    scrapeShow: scrape,
  });
}
