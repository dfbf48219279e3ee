import type { ErrorCode } from '@marquee/contract';
import type { Stream } from '@marquee/providers';
import { ApiError } from '../../../lib/api/index.ts';
import { playerStore, type PlayerStore } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';
import { ScrapeEventError, scrapeEmbedOnServer, scrapeSourceOnServer } from './scrape-runner.ts';
import { scrapeParamsOf } from './session.ts';
import { playerSourceOf } from './stream-source.ts';

/** What choosing a source in the menu gives: it played, several embeds to pick from, or why not. */
export type SourceChoice =
  | { kind: 'playing' }
  | { kind: 'embeds'; embeds: { embedId: string; url: string }[] }
  | { kind: 'noStream' }
  | { kind: 'noEmbeds' }
  /** `code`: the server's, when it said why (`media_unplayable`: the library's file cannot play here). */
  | { kind: 'failed'; message: string; code?: ErrorCode };

/** A failed run, with the server's code when it gave one (in the stream, or as the answer's error). */
function failedWith(error: unknown): SourceChoice {
  const code =
    error instanceof ScrapeEventError
      ? error.code
      : error instanceof ApiError && error.code !== 'network_error' && error.code !== 'unknown'
        ? error.code
        : undefined;
  return { kind: 'failed', message: (error as Error).message, ...(code ? { code } : {}) };
}

/** A found stream plays at once, from where the viewer is. */
function play(stream: Stream, sourceId: string, embedId: string | null) {
  const { source, captions, isSample, audioTracks, imageSubtitles } = playerSourceOf(stream);
  const time = playerStore.getState().playback.time;
  playerStore
    .getState()
    .setSource(source, { sourceId, embedId, isSample, captions, audioTracks, imageSubtitles, startAt: time });
}

/**
 * A playback error's Retry: the same source loads again from where it stopped (the display reloads on a
 * new source version). Stale signed URLs are renewed on their own (renewal.ts).
 */
export function reloadSource(store: PlayerStore = playerStore): void {
  const s = store.getState();
  if (!s.source || !s.sourceId) return;
  store.getState().setSource(s.source, {
    sourceId: s.sourceId,
    embedId: s.embedId,
    isSample: s.isSample,
    startAt: s.playback.time,
    audioTracks: { tracks: s.audioTracks, activeId: s.audioTrackId },
    imageSubtitles: {
      items: s.imageSubtitles,
      activeId: s.imageSubtitleId,
      plain: s.plainSource ?? s.source,
    },
  });
}

export async function chooseEmbed(
  sourceId: string,
  embedId: string,
  url: string,
  signal?: AbortSignal,
): Promise<SourceChoice> {
  try {
    const out = await scrapeEmbedOnServer({ id: embedId, url, ...(signal ? { signal } : {}) });
    const stream = out.stream[0];
    if (!stream) return { kind: 'noStream' };
    play(stream, sourceId, embedId);
    return { kind: 'playing' };
  } catch (error) {
    if ((error as Error).name === 'NotFoundError') return { kind: 'noStream' };
    return failedWith(error);
  }
}

/** Runs one source of this instance; a single embed is run at once, several are offered. */
export async function chooseSource(
  sourceId: string,
  meta: PlayerMeta,
  signal?: AbortSignal,
): Promise<SourceChoice> {
  try {
    const out = await scrapeSourceOnServer({
      id: sourceId,
      media: scrapeParamsOf(meta),
      ...(signal ? { signal } : {}),
    });
    const stream = out.stream?.[0];
    if (stream) {
      play(stream, sourceId, null);
      return { kind: 'playing' };
    }
    if (out.embeds.length === 0) return { kind: 'noEmbeds' };
    if (out.embeds.length === 1)
      return chooseEmbed(sourceId, out.embeds[0]!.embedId, out.embeds[0]!.url, signal);
    return { kind: 'embeds', embeds: out.embeds };
  } catch (error) {
    const message = (error as Error).message;
    if ((error as Error).name === 'NotFoundError')
      return message === 'No embeds found' ? { kind: 'noEmbeds' } : { kind: 'noStream' };
    return failedWith(error);
  }
}
