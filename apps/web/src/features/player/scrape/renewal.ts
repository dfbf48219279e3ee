import { mediaUrlExpiry } from '@marquee/contract/values';
import type { ScrapeMediaParams } from '@marquee/contract';
import type { Stream } from '@marquee/providers';
import { mediaUrlRefusal, type ApiErrorCode } from '../../../lib/api/index.ts';
import type { PlayerState, PlayerStore } from '../core/player-store.ts';
import type { PlayerSource } from '../core/types.ts';
import { scrapeEmbedOnServer, scrapeSourceOnServer } from './scrape-runner.ts';
import { playerSourceOf, withAudioTrack, withImageSubtitle } from './stream-source.ts';

/** How long before its URLs expire a playing source is renewed (at most a quarter of what is left). */
export const RENEW_BEFORE_MS = 5 * 60_000;
/** Never sooner than this after a source loads (a wrong clock must not renew in a loop). */
const MIN_DELAY_MS = 5_000;

/** Answers of the media routes that fresh URLs fix (decision 071). */
const RENEWABLE: readonly ApiErrorCode[] = ['media_url_expired', 'media_url_invalid'];

export interface RenewalOptions {
  fetchLike?: typeof fetch;
  /** Wall-clock time, not the pinnable app clock: expiries are the server's times. */
  now?: () => number;
}

/** The URLs the display loads for a source (its playlist, or one file per quality). */
function urlsOf(source: PlayerSource): string[] {
  if (source.type === 'hls') return [source.url];
  return Object.values(source.qualities).flatMap((f) => (f ? [f.url] : []));
}

const sameOrigin = (url: string) => {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
};

/** When the source's signed URLs of this instance expire (the earliest), or null when it has none. */
export function sourceExpiry(source: PlayerSource | null): number | null {
  if (!source) return null;
  const expiries = urlsOf(source)
    .filter(sameOrigin)
    .map(mediaUrlExpiry)
    .filter((e): e is number => e !== null);
  return expiries.length ? Math.min(...expiries) : null;
}

/** Whether the server refuses the URL for a reason fresh URLs fix (it expired, or its key changed). */
async function refusedAsStale(
  url: string,
  fetchLike: typeof fetch | undefined,
  signal: AbortSignal,
): Promise<boolean> {
  const refusal = await mediaUrlRefusal(url, signal, fetchLike);
  return refusal?.status === 403 && RENEWABLE.includes(refusal.code);
}

/** The same source (and embed) run again on this instance: the stream with fresh URLs, or null. */
async function freshStream(
  state: PlayerState,
  media: ScrapeMediaParams,
  o: { signal: AbortSignal; fetchLike?: typeof fetch },
): Promise<Stream | null> {
  const common = { signal: o.signal, ...(o.fetchLike ? { fetchLike: o.fetchLike } : {}) };
  const out = await scrapeSourceOnServer({ ...common, id: state.sourceId!, media });
  if (out.stream?.[0]) return out.stream[0];
  const embed = out.embeds.find((e) => e.embedId === state.embedId);
  if (!embed) return null;
  return (await scrapeEmbedOnServer({ ...common, id: embed.embedId, url: embed.url })).stream[0] ?? null;
}

/**
 * Keeps the signed media URLs of this instance working for as long as the viewer watches (decision
 * 071): a playing source is renewed shortly before its URLs expire, and a playback error is checked
 * with the server — when it answers `media_url_expired` the source is renewed too. Renewing runs the
 * same source again (`/scrape/source`, then its embed) and reloads it at the same position. Runs until
 * `signal` aborts (the play session ends).
 */
export function keepMediaUrlsFresh(
  store: PlayerStore,
  media: ScrapeMediaParams,
  signal: AbortSignal,
  o: RenewalOptions = {},
): void {
  const fetchLike = o.fetchLike;
  const now = o.now ?? (() => Date.now());
  let timer: ReturnType<typeof setTimeout> | undefined;
  let version = -1;
  /** Renewal is due (near expiry) and waits for playback: a paused viewer is not disturbed. */
  let due = false;
  let renewing = false;
  /** A source this watcher loaded that has not played yet: a second failure is shown, not renewed again. */
  let renewedVersion = -1;

  const renew = async () => {
    const state = store.getState();
    if (renewing || !state.source || !state.sourceId) return;
    renewing = true;
    due = false;
    const at = state.playback.time;
    try {
      const stream = await freshStream(state, media, { signal, ...(fetchLike ? { fetchLike } : {}) });
      if (signal.aborted || !stream || store.getState().sourceVersion !== state.sourceVersion) return;
      // The audio track and picture subtitle the viewer chose play on (the fresh stream starts with the
      // preferred track and none).
      const { source, captions, isSample, audioTracks, imageSubtitles } = withImageSubtitle(
        withAudioTrack(playerSourceOf(stream), state.audioTrackId),
        state.imageSubtitleId,
      );
      store.getState().setSource(source, {
        sourceId: state.sourceId,
        embedId: state.embedId,
        isSample,
        captions,
        audioTracks,
        imageSubtitles,
        startAt: at,
      });
      renewedVersion = store.getState().sourceVersion;
    } catch {
      // The scrape failed (offline, membership ended): the expired URL shows its error in due course.
    } finally {
      renewing = false;
    }
  };

  const schedule = (state: PlayerState) => {
    clearTimeout(timer);
    due = false;
    const expiry = sourceExpiry(state.source);
    if (expiry === null) return;
    const left = expiry - now();
    const delay = Math.max(MIN_DELAY_MS, left - Math.min(RENEW_BEFORE_MS, left / 4));
    timer = setTimeout(() => {
      due = true;
      if (store.getState().playback.isPlaying) void renew();
    }, delay);
  };

  const onError = async (state: PlayerState) => {
    if (state.sourceVersion === renewedVersion && !state.playback.hasPlayedOnce) return;
    const url = state.source ? urlsOf(state.source).find(sameOrigin) : undefined;
    if (!url || sourceExpiry(state.source) === null) return;
    if (await refusedAsStale(url, fetchLike, signal)) {
      if (!signal.aborted && store.getState().sourceVersion === state.sourceVersion) await renew();
    }
  };

  let previous = store.getState();
  const unsubscribe = store.subscribe((state) => {
    const before = previous;
    previous = state;
    if (state.sourceVersion !== version) {
      version = state.sourceVersion;
      schedule(state);
    }
    if (state.playback.hasPlayedOnce && state.sourceVersion === renewedVersion) renewedVersion = -1;
    if (due && state.playback.isPlaying && !before.playback.isPlaying) void renew();
    if (state.status === 'playbackError' && before.status !== 'playbackError') void onError(state);
  });
  schedule(previous);
  version = previous.sourceVersion;
  signal.addEventListener(
    'abort',
    () => {
      clearTimeout(timer);
      unsubscribe();
    },
    { once: true },
  );
}
