import {
  flags,
  makeSourcerer,
  NotFoundError,
  qualities,
  type Caption,
  type FileStream,
  type ScrapeMedia,
  type Sourcerer,
  type StreamFile,
} from '@marquee/providers';
import { findMedia, type LibraryIndexer, type LibrarySubtitle, type LibraryVideo } from './library-index.ts';

export const LIBRARY_SOURCE_ID = 'library';

/** URL of a library file for the player (the route serves it by id, with range requests). */
export type LibraryFileUrl = (file: LibraryVideo | LibrarySubtitle) => string;

/** One file stream from the files of a title: one per quality (MP4 preferred), captions of them all. */
export function libraryStream(files: LibraryVideo[], fileUrl: LibraryFileUrl): FileStream | null {
  if (files.length === 0) return null;
  const ordered = [...files].sort((a, b) => Number(a.container !== 'mp4') - Number(b.container !== 'mp4'));
  const byQuality: FileStream['qualities'] = {};
  for (const quality of qualities) {
    const file = ordered.find((f) => f.quality === quality);
    if (file) byQuality[quality] = { type: file.container, url: fileUrl(file) } satisfies StreamFile;
  }
  const seen = new Set<string>();
  const captions: Caption[] = [];
  for (const subtitle of ordered.flatMap((f) => f.subtitles)) {
    if (seen.has(subtitle.id)) continue;
    seen.add(subtitle.id);
    captions.push({
      id: `library-${subtitle.id}`,
      language: subtitle.language,
      url: fileUrl(subtitle),
      type: subtitle.type,
      needsProxy: false,
      opensubtitles: false,
    });
  }
  return { id: 'library', type: 'file', qualities: byQuality, captions, flags: [flags.CORS_ALLOWED] };
}

/** The operator's media folder as a source (Jellyfin/Plex naming). */
export function makeLibrarySource(indexer: LibraryIndexer, fileUrl: LibraryFileUrl): Sourcerer {
  const scrape = async ({ media, progress }: { media: ScrapeMedia; progress: (n: number) => void }) => {
    const index = await indexer.get();
    progress(50);
    const stream = libraryStream(findMedia(index, media), fileUrl);
    if (!stream) throw new NotFoundError('not in the media library');
    return { embeds: [], stream: [stream] };
  };
  return makeSourcerer({
    id: LIBRARY_SOURCE_ID,
    name: 'Media library',
    rank: 300,
    flags: [flags.CORS_ALLOWED],
    scrapeMovie: scrape,
    scrapeShow: scrape,
  });
}
