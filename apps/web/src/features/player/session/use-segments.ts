import { useEffect, useRef } from 'react';
import { libraryMediaOf } from '@marquee/contract/values';
import { segmentsApi } from '../../../lib/api/segments-api.ts';
import { usePlayerPrefsStore } from '../../../stores/index.ts';
import { asViewersChoice, playerStore, requests, usePlayer } from '../core/player-store.ts';
import { creditsStart, segmentKey, skippableAt } from '../core/segments.ts';
import type { PlayerSegments, PlayerSource } from '../core/types.ts';

/** While the server still looks for a file's segments, it is asked again this often. */
const PENDING_POLL_MS = 5_000;

/** The URL of a source (its playlist, or one of its files): where a library file's access token is. */
function sourceUrl(source: PlayerSource | null): string | null {
  if (!source) return null;
  if (source.type === 'hls') return source.url;
  return Object.values(source.qualities)[0]?.url ?? null;
}

/** Keeps a library file's answer in the store (a mark's answer too: it is the file's segments now). */
export function keepSegments(
  ref: { access: string; fileId: string },
  answer: Omit<PlayerSegments, 'access'>,
): void {
  playerStore.getState().setSegments({ ...answer, access: ref.access });
}

/**
 * Reads the segments of the library file playing (decision 111) — again every few seconds while the
 * server is still detecting them — into the player store. Other sources have none. A refusal is the
 * media's own, which the player reports already: no segments then.
 */
export function useSegments(): void {
  const url = usePlayer((s) => sourceUrl(s.source));
  const ref = url ? libraryMediaOf(url) : null;
  const access = ref?.access ?? null;
  const fileId = ref?.fileId ?? null;
  useEffect(() => {
    const current = playerStore.getState().segments;
    if (!access || !fileId) {
      if (current) playerStore.getState().setSegments(null);
      return;
    }
    if (current && current.fileId !== fileId) playerStore.getState().setSegments(null);
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const answer = await segmentsApi.segments({ params: { access, fileId }, signal: controller.signal });
        if (controller.signal.aborted) return;
        keepSegments({ access, fileId }, answer);
        if (answer.detection === 'pending') timer = setTimeout(() => void load(), PENDING_POLL_MS);
      } catch {
        // Aborted, or refused as the media is (the player says why): no segments.
      }
    };
    void load();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [access, fileId]);
}

/**
 * Skips what the viewer chose to skip automatically (Settings → segments: "skip"): an intro, a recap or
 * a preview once per segment (seeking back into one plays it), and from the credits of an episode to the
 * next one. In a watch party the seek is sent to the room like a pressed Skip.
 */
export function useAutomaticSkips(goNext: (() => void) | null): void {
  // The latest, without subscribing again (the segments skipped once are remembered by the subscription).
  const next = useRef(goNext);
  useEffect(() => {
    next.current = goNext;
  });
  useEffect(() => {
    const skipped = new Set<string>();
    let wentNext = false;
    let fileId: string | null = null;
    return playerStore.subscribe((s, before) => {
      if (s.playback.time === before.playback.time || s.playback.isPaused || !s.segments) return;
      if (s.segments.fileId !== fileId) {
        fileId = s.segments.fileId;
        skipped.clear();
        wentNext = false;
      }
      const choices = usePlayerPrefsStore.getState().segmentSkips;
      const segment = skippableAt(s.segments, s.playback.time);
      if (segment && choices[segment.type] === 'skip' && !skipped.has(segmentKey(segment))) {
        skipped.add(segmentKey(segment));
        // In a watch party the skip is the room's, as a pressed Skip is (decision 111).
        asViewersChoice(() => requests.seek(segment.end));
        return;
      }
      const credits = creditsStart(s.segments, s.playback.duration);
      const goOn = next.current;
      if (goOn && !wentNext && choices.credits === 'skip' && credits !== null && s.playback.time >= credits) {
        wentNext = true;
        goOn();
      }
    });
  }, []);
}
