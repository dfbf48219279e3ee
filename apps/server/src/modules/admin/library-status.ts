import type { LibraryStatusResponse } from '@marquee/contract';
import type { LibraryIndexer } from '../sources/library-index.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The media library scanner's status as the admin page reads it (all zero without MEDIA_LIBRARY_DIR). */
export function libraryStatusOf(library: LibraryIndexer | undefined): LibraryStatusResponse {
  if (!library)
    return {
      configured: false,
      scanning: false,
      startedAt: null,
      finishedAt: null,
      lastDurationMs: null,
      videos: 0,
      movies: 0,
      shows: 0,
      subtitles: 0,
      checked: 0,
      probed: 0,
      probeFailures: 0,
      skipped: [],
      skippedCount: 0,
      watching: false,
      probing: false,
    };
  const status = library.status();
  return {
    ...status,
    configured: true,
    startedAt: iso(status.startedAt),
    finishedAt: iso(status.finishedAt),
  };
}
