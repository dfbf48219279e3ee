import type { Stream } from '@marquee/providers';
import { playerStore, type PlayerStore } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';
import { scrapeEmbedOnServer, scrapeSourceOnServer } from './scrape-runner.ts';
import { scrapeParamsOf } from './session.ts';
import { playerSourceOf } from './stream-source.ts';

/** What choosing a source in the menu gives: it played, several embeds to pick from, or why not. */
export type SourceChoice =
  | { kind: 'playing' }
  | { kind: 'embeds'; embeds: { embedId: string; url: string }[] }
  | { kind: 'noStream' }
  | { kind: 'noEmbeds' }
  | { kind: 'failed'; message: string };

/** A found stream plays at once, from where the viewer is. */
function play(stream: Stream, sourceId: string, embedId: string | null) {
  const { source, captions, isSample } = playerSourceOf(stream);
  const time = playerStore.getState().playback.time;
  playerStore.getState().setSource(source, { sourceId, embedId, isSample, captions, startAt: time });
}

/**
 * A playback error's Retry: the same source loads again from where it stopped (the display reloads on a
 * new source version). Stale signed URLs are renewed on their own (renewal.ts).
 */
export function reloadSource(store: PlayerStore = playerStore): void {
  const { source, sourceId, embedId, isSample, playback } = store.getState();
  if (!source || !sourceId) return;
  store.getState().setSource(source, { sourceId, embedId, isSample, startAt: playback.time });
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
    return { kind: 'failed', message: (error as Error).message };
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
    return { kind: 'failed', message };
  }
}
