import type { ErrorCode } from '@marquee/contract';
import type { DiscoverEmbedsEvent, ErrorInfo, InitEvent, UpdateEvent } from '@marquee/providers';
import type { ScrapeState } from '../core/player-store.ts';
import type { ScrapeSegment } from '../core/types.ts';

export type NameOf = (id: string, kind: 'source' | 'embed') => string;

export const emptyScrapeState = (): ScrapeState => ({ order: [], segments: {}, current: null });

/** init: every source waits, in the run's order. */
export function onInit(_state: ScrapeState, e: InitEvent, name: NameOf): ScrapeState {
  const segments: Record<string, ScrapeSegment> = {};
  for (const id of e.sourceIds)
    segments[id] = { id, name: name(id, 'source'), status: 'waiting', percentage: 0 };
  return { order: [...e.sourceIds], segments, current: null };
}

/** start: this one is now pending; a source still pending when another source starts counts as done. */
export function onStart(state: ScrapeState, id: string): ScrapeState {
  const segments = { ...state.segments };
  const started = segments[id];
  const previous = state.current ? segments[state.current] : undefined;
  if (
    previous &&
    previous.status === 'pending' &&
    !started?.parentId &&
    !previous.parentId &&
    previous.id !== id
  ) {
    segments[previous.id] = { ...previous, status: 'success', percentage: 100 };
  }
  if (started) segments[id] = { ...started, status: 'pending' };
  return { ...state, segments, current: id };
}

/** An update as the runner or this instance sends it: a failure may carry the contract's error code. */
export type SegmentUpdate = Omit<UpdateEvent, 'error'> & {
  error?: Omit<ErrorInfo, 'code'> & { code?: ErrorCode | undefined };
};

export function onUpdate(state: ScrapeState, e: SegmentUpdate): ScrapeState {
  const segment = state.segments[e.id];
  if (!segment) return state;
  const next: ScrapeSegment = { ...segment, status: e.status, percentage: e.percentage };
  if (e.reason) next.reason = e.reason;
  if (e.error) next.error = `${e.error.name}: ${e.error.message}`;
  if (e.error?.code) next.errorCode = e.error.code;
  return { ...state, segments: { ...state.segments, [e.id]: next } };
}

/** discoverEmbeds: the embeds go right after their source, waiting. */
export function onDiscoverEmbeds(state: ScrapeState, e: DiscoverEmbedsEvent, name: NameOf): ScrapeState {
  const segments = { ...state.segments };
  const ids = e.embeds.map((embed) => embed.id);
  for (const embed of e.embeds) {
    segments[embed.id] = {
      id: embed.id,
      name: name(embed.embedScraperId, 'embed'),
      embedId: embed.embedScraperId,
      parentId: e.sourceId,
      status: 'waiting',
      percentage: 0,
    };
  }
  const order = state.order.filter((id) => !ids.includes(id));
  const at = order.indexOf(e.sourceId);
  order.splice(at < 0 ? order.length : at + 1, 0, ...ids);
  return { ...state, order, segments };
}

/** Sources (with their embeds) as a tree, in order. */
export function segmentTree(state: ScrapeState): { source: ScrapeSegment; embeds: ScrapeSegment[] }[] {
  return state.order
    .map((id) => state.segments[id])
    .filter((s): s is ScrapeSegment => !!s && !s.parentId)
    .map((source) => ({
      source,
      embeds: state.order
        .map((id) => state.segments[id])
        .filter((s): s is ScrapeSegment => !!s && s.parentId === source.id),
    }));
}
