import { makeEmbed, makeSourcerer, type Embed, type Sourcerer, type SourcererOutput } from '../base.ts';
import { NotFoundError } from '../errors.ts';
import type { Caption, FileStream, HlsStream } from '../streams.ts';
import { flags } from '../targets.ts';

export const SAMPLE_SOURCE_ID = 'sample';
export const SAMPLE_HLS_EMBED_ID = 'sample-hls';
export const SAMPLE_FILE_EMBED_ID = 'sample-file';

/**
 * Files the project makes with `scripts/make-samples.sh` (test pattern and tone, our own captions),
 * relative to the folder the server serves them from. The HLS playlists loop short segments for twenty
 * minutes; the MP4 files are short.
 */
export const sampleAssets = {
  hlsMaster: 'hls/master.m3u8',
  files: { '360': 'mp4/sample-360p.mp4', '480': 'mp4/sample-480p.mp4', '720': 'mp4/sample-720p.mp4' },
  captions: [
    { language: 'en', file: 'captions/sample.en.vtt' },
    { language: 'fr', file: 'captions/sample.fr.vtt' },
    { language: 'es', file: 'captions/sample.es.srt' },
    { language: 'de', file: 'captions/sample.de.srt' },
  ],
} as const;

export interface SampleOptions {
  /** Absolute URL of the folder holding the sample assets (no trailing slash needed). */
  assetsUrl: string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

function sampleCaptions(base: string): Caption[] {
  return sampleAssets.captions.map((c) => ({
    id: `sample-${c.language}`,
    language: c.language,
    url: `${base}/${c.file}`,
    type: c.file.endsWith('.srt') ? 'srt' : 'vtt',
    needsProxy: false,
    opensubtitles: false,
  }));
}

/**
 * The sample source: for any title, points at the sample HLS ladder and the sample MP4 files (two
 * embeds). It is a fallback: it runs only when every other source found nothing.
 */
export function makeSampleSource(options: SampleOptions): Sourcerer {
  const base = trimSlash(options.assetsUrl);
  const scrape = async (): Promise<SourcererOutput> => ({
    embeds: [
      { embedId: SAMPLE_HLS_EMBED_ID, url: `${base}/${sampleAssets.hlsMaster}` },
      { embedId: SAMPLE_FILE_EMBED_ID, url: base },
    ],
  });
  return makeSourcerer({
    id: SAMPLE_SOURCE_ID,
    name: 'Sample (test pattern)',
    rank: 1,
    isFallback: true,
    flags: [flags.CORS_ALLOWED],
    scrapeMovie: scrape,
    scrapeShow: scrape,
  });
}

/** The two sample embeds. They accept only URLs inside the sample folder, so they never fetch elsewhere. */
export function makeSampleEmbeds(options: SampleOptions): Embed[] {
  const base = trimSlash(options.assetsUrl);
  const hls = makeEmbed({
    id: SAMPLE_HLS_EMBED_ID,
    name: 'Sample HLS (360p–720p)',
    rank: 2,
    async scrape({ url }) {
      if (url !== `${base}/${sampleAssets.hlsMaster}`) throw new NotFoundError('not a sample playlist');
      const stream: HlsStream = {
        id: 'sample-hls',
        type: 'hls',
        playlist: url,
        flags: [flags.CORS_ALLOWED],
        captions: sampleCaptions(base),
        isSample: true,
      };
      return { stream: [stream] };
    },
  });
  const file = makeEmbed({
    id: SAMPLE_FILE_EMBED_ID,
    name: 'Sample MP4 (360p, 480p, 720p)',
    rank: 1,
    async scrape({ url }) {
      if (trimSlash(url) !== base) throw new NotFoundError('not the sample folder');
      const stream: FileStream = {
        id: 'sample-file',
        type: 'file',
        qualities: {
          '360': { type: 'mp4', url: `${base}/${sampleAssets.files['360']}` },
          '480': { type: 'mp4', url: `${base}/${sampleAssets.files['480']}` },
          '720': { type: 'mp4', url: `${base}/${sampleAssets.files['720']}` },
        },
        flags: [flags.CORS_ALLOWED],
        captions: sampleCaptions(base),
        isSample: true,
      };
      return { stream: [stream] };
    },
  });
  return [hls, file];
}
