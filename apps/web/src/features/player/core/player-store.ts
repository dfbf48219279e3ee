import type { StreamQuality } from './quality.ts';
import { imageSubtitleKey } from './image-subtitles.ts';
import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  PlayerSegments,
  AudioTrackItem,
  CaptionListItem,
  ImageSubtitleItem,
  PlaybackError,
  PlayerMeta,
  PlayerSource,
  PlayerStatus,
  ScrapeSegment,
  SelectedCaption,
  Thumbnail,
} from './types.ts';

/** What the UI may ask the display to do. The display (the only code touching the element) implements it. */
export interface DisplayRequests {
  play(): void;
  pause(): void;
  seek(time: number): void;
  setVolume(volume: number): void;
  setMuted(muted: boolean): void;
  setPlaybackRate(rate: number): void;
  /** A quality, or null for automatic. */
  setQuality(quality: StreamQuality | null): void;
  toggleFullscreen(): void;
  togglePictureInPicture(): void;
  startAirplay(): void;
}

export interface PlaybackFacts {
  isPlaying: boolean;
  isPaused: boolean;
  isLoading: boolean;
  isSeeking: boolean;
  /** Set once the first frame played: progress is saved only after that. */
  hasPlayedOnce: boolean;
  /** The browser refused to start playback without a gesture: show the big play button. */
  autoplayBlocked: boolean;
  time: number;
  /**
   * When `time` was read from the element (Date.now()): it is read on `timeupdate`, about four times a
   * second, so a watch party adds what has played since (decision 110).
   */
  timeAt: number;
  duration: number;
  /** Seconds buffered ahead of the start (end of the buffered range around the playhead). */
  buffered: number;
  volume: number;
  muted: boolean;
  playbackRate: number;
  isFullscreen: boolean;
  isPictureInPicture: boolean;
}

export interface PlayerCapabilities {
  canPictureInPicture: boolean;
  canFullscreen: boolean;
  canAirplay: boolean;
  canCast: boolean;
  /** null until the 1 s test has run. */
  canChangeVolume: boolean | null;
}

export interface ScrapeState {
  /** Ids in display order: each source followed by its embeds. */
  order: string[];
  segments: Record<string, ScrapeSegment>;
  current: string | null;
}

export interface PlayerState {
  status: PlayerStatus;
  meta: PlayerMeta | null;
  source: PlayerSource | null;
  /** Bumped on every setSource, so the display reloads even for an equal source. */
  sourceVersion: number;
  sourceId: string | null;
  embedId: string | null;
  isSample: boolean;
  /** Where the loaded source starts. */
  startAt: number;
  /**
   * The loaded source starts loading without playing (an audio track chosen while paused): the viewer
   * sees the frame where they were and presses Play themselves.
   */
  startPaused: boolean;
  qualities: StreamQuality[];
  currentQuality: StreamQuality | null;
  captionList: CaptionListItem[];
  caption: SelectedCaption | null;
  /**
   * Whether the caption's own ASS script is drawn (display/styled-captions.ts): `drawing` hides the text
   * cues; `failed` (or `starting`) shows them instead.
   */
  assRenderer: 'off' | 'starting' | 'drawing' | 'failed';
  /** The source's audio tracks (library titles), each with what plays it; empty for other sources. */
  audioTracks: AudioTrackItem[];
  /** The track playing now (one of `audioTracks`). */
  audioTrackId: string | null;
  /** The source's picture subtitles (library titles: PGS, VobSub), burned in when chosen. */
  imageSubtitles: ImageSubtitleItem[];
  /** The one burned into what plays now (one of `imageSubtitles`), or null. */
  imageSubtitleId: string | null;
  /** What plays the chosen audio track without a picture subtitle: `source` itself when none is on. */
  plainSource: PlayerSource | null;
  error: PlaybackError | null;
  scrape: ScrapeState;
  playback: PlaybackFacts;
  capabilities: PlayerCapabilities;
  thumbnails: Thumbnail[];
  /** The skippable parts of the library file playing (decision 111), once read; null for other sources. */
  segments: PlayerSegments | null;
  /** The next-episode button was dismissed until the next meta. */
  nextEpisodeHidden: boolean;
  /**
   * Whether media may load and play: the viewer pressed Play, or the player was opened to play (a deep
   * link to an episode or a time). Until then a source loads at most its metadata. Survives `reset`
   * and source switches; a new player view sets it.
   */
  playRequested: boolean;
  display: DisplayRequests | null;

  setMeta(meta: PlayerMeta, status?: PlayerStatus): void;
  setScraping(): void;
  setScrape(scrape: ScrapeState): void;
  setSource(
    source: PlayerSource,
    options: {
      sourceId: string;
      embedId?: string | null;
      isSample?: boolean;
      startAt?: number;
      captions?: CaptionListItem[];
      /** The source's audio tracks and the one it plays; a source without them has none. */
      audioTracks?: { tracks: AudioTrackItem[]; activeId: string | null };
      /**
       * The source's picture subtitles, the one burned into `source` (null: none) and what plays without
       * it; a source without them has none.
       */
      imageSubtitles?: { items: ImageSubtitleItem[]; activeId: string | null; plain: PlayerSource };
      /** Load it without playing (the viewer had paused); otherwise a viewer who pressed Play goes on. */
      paused?: boolean;
    },
  ): void;
  /**
   * Another audio track of the playing source: its own source loads from where the viewer is (paused if
   * they had paused), and the track list stays (the first track keeps the source as it was found).
   */
  chooseAudioTrack(id: string): void;
  /**
   * A picture subtitle (or null: none) of the playing source: the title loads again with it burned in
   * (or without), for the audio track that plays, from where the viewer is (paused if they had paused).
   * Choosing one turns a text caption off.
   */
  chooseImageSubtitle(id: string | null): void;
  setSourceId(sourceId: string, embedId?: string | null): void;
  setScrapeNotFound(): void;
  displayError(error: PlaybackError): void;
  reset(): void;
  updatePlayback(patch: Partial<PlaybackFacts>): void;
  updateCapabilities(patch: Partial<PlayerCapabilities>): void;
  setQualities(qualities: StreamQuality[], current: StreamQuality | null): void;
  setCaptionList(list: CaptionListItem[]): void;
  setCaption(caption: SelectedCaption | null): void;
  setAssRenderer(state: PlayerState['assRenderer']): void;
  addThumbnail(thumbnail: Thumbnail): void;
  setSegments(segments: PlayerSegments | null): void;
  hideNextEpisode(): void;
  setPlayRequested(requested: boolean): void;
  requestPlay(): void;
  /** Attaching a display carries out the requests that waited for one (see `request`). */
  attachDisplay(display: DisplayRequests | null): void;
  /**
   * A UI request: carried out by the display, or kept until one attaches (the latest of each kind, in
   * order). A seek without a display moves where the source starts, which the display reads when it
   * attaches. Fullscreen, picture in picture and AirPlay need the viewer's gesture, so a late call could
   * only fail: they are not kept.
   */
  request<K extends keyof DisplayRequests>(name: K, ...args: Parameters<DisplayRequests[K]>): void;
}

export const initialPlayback = (): PlaybackFacts => ({
  isPlaying: false,
  isPaused: true,
  isLoading: false,
  isSeeking: false,
  hasPlayedOnce: false,
  autoplayBlocked: false,
  time: 0,
  timeAt: 0,
  duration: 0,
  buffered: 0,
  volume: 1,
  muted: false,
  playbackRate: 1,
  isFullscreen: false,
  isPictureInPicture: false,
});

/** Hears every request the UI makes (a watch party sends the viewer's play, pause and seek on). */
export type RequestObserver = (
  name: keyof DisplayRequests,
  args: readonly unknown[],
  how: { viewersChoice: boolean },
) => void;
let requestObserver: RequestObserver | null = null;
let viewersChoice = false;

/**
 * Makes requests that carry out a standing choice of the viewer's (an automatic skip, decision 111): the
 * observer hears them as the viewer's own, though no gesture is being handled.
 */
export function asViewersChoice(act: () => void): void {
  viewersChoice = true;
  try {
    act();
  } finally {
    viewersChoice = false;
  }
}

/** Sets the one request observer (decision 110: the party of this tab); null removes it. */
export function observeRequests(observer: RequestObserver | null): void {
  requestObserver = observer;
}

/** Requests that only work inside the viewer's gesture (the browser refuses them later). */
const GESTURE_ONLY: ReadonlySet<keyof DisplayRequests> = new Set([
  'toggleFullscreen',
  'togglePictureInPicture',
  'startAirplay',
]);

interface PendingRequest {
  name: keyof DisplayRequests;
  args: unknown[];
}

const emptyScrape = (): ScrapeState => ({ order: [], segments: {}, current: null });

const cleared = () => ({
  status: 'idle' as PlayerStatus,
  meta: null,
  source: null,
  sourceId: null,
  embedId: null,
  isSample: false,
  startAt: 0,
  startPaused: false,
  qualities: [],
  currentQuality: null,
  captionList: [],
  caption: null,
  assRenderer: 'off' as const,
  audioTracks: [],
  audioTrackId: null,
  imageSubtitles: [],
  imageSubtitleId: null,
  plainSource: null,
  error: null,
  scrape: emptyScrape(),
  thumbnails: [],
  segments: null,
  nextEpisodeHidden: false,
});

type SetState = StoreApi<PlayerState>['setState'];
type GetState = StoreApi<PlayerState>['getState'];

/** The state a new store starts with. */
const initialState = () => ({
  ...cleared(),
  sourceVersion: 0,
  playRequested: false,
  playback: initialPlayback(),
  capabilities: {
    canPictureInPicture: false,
    canFullscreen: false,
    canAirplay: false,
    canCast: false,
    canChangeVolume: null,
  },
  display: null,
});

/** Meta, scraping and the status moves that do not come with a source. */
function statusActions(
  set: SetState,
): Pick<
  PlayerState,
  'setMeta' | 'setScraping' | 'setScrape' | 'setScrapeNotFound' | 'displayError' | 'reset' | 'hideNextEpisode'
> {
  return {
    setMeta: (meta, status) => set(() => ({ meta, nextEpisodeHidden: false, ...(status ? { status } : {}) })),
    setScraping: () => set(() => ({ status: 'scraping', scrape: emptyScrape(), error: null })),
    setScrape: (scrape) => set(() => ({ scrape })),
    setScrapeNotFound: () => set(() => ({ status: 'scrapeNotFound' })),
    displayError: (error) => set(() => ({ status: 'playbackError', error })),
    reset: () =>
      set((s) => ({
        ...cleared(),
        sourceVersion: s.sourceVersion + 1,
        playback: {
          ...initialPlayback(),
          volume: s.playback.volume,
          muted: s.playback.muted,
          playbackRate: s.playback.playbackRate,
        },
      })),
    hideNextEpisode: () => set(() => ({ nextEpisodeHidden: true })),
  };
}

/** Setting a source: what it plays with (captions, tracks), and facts of the one before cleared. */
function sourceActions(set: SetState): Pick<PlayerState, 'setSource' | 'setSourceId'> {
  return {
    setSource: (source, o) =>
      set((s) => ({
        status: 'playing',
        source,
        sourceVersion: s.sourceVersion + 1,
        sourceId: o.sourceId,
        embedId: o.embedId ?? null,
        isSample: o.isSample ?? false,
        startAt: o.startAt ?? 0,
        startPaused: o.paused ?? false,
        error: null,
        qualities: [],
        currentQuality: null,
        thumbnails: [],
        ...(o.captions ? { captionList: o.captions } : {}),
        audioTracks: o.audioTracks?.tracks ?? [],
        audioTrackId: o.audioTracks?.activeId ?? null,
        imageSubtitles: o.imageSubtitles?.items ?? [],
        imageSubtitleId: o.imageSubtitles?.activeId ?? null,
        plainSource: o.imageSubtitles?.plain ?? source,
        playback: {
          ...s.playback,
          time: o.startAt ?? 0,
          duration: 0,
          buffered: 0,
          hasPlayedOnce: false,
          isLoading: true,
        },
      })),
    setSourceId: (sourceId, embedId = null) => set(() => ({ status: 'playing', sourceId, embedId })),
  };
}

/** Another audio track or picture subtitle of the playing source: each loads a source of its own. */
function trackActions(
  set: SetState,
  get: GetState,
): Pick<PlayerState, 'chooseAudioTrack' | 'chooseImageSubtitle'> {
  return {
    chooseAudioTrack: (id) => {
      const s = get();
      const track = s.audioTracks.find((t) => t.id === id);
      if (!track || id === s.audioTrackId || !s.sourceId) return;
      // A picture subtitle that is on stays on: its playlist for this track.
      const subtitle = s.imageSubtitles.find((i) => i.id === s.imageSubtitleId);
      const burned = subtitle?.sources[imageSubtitleKey(id)];
      s.setSource(burned ?? track.source, {
        sourceId: s.sourceId,
        embedId: s.embedId,
        isSample: s.isSample,
        startAt: s.playback.time,
        audioTracks: { tracks: s.audioTracks, activeId: id },
        imageSubtitles: {
          items: s.imageSubtitles,
          activeId: burned ? s.imageSubtitleId : null,
          plain: track.source,
        },
        paused: s.playback.hasPlayedOnce && s.playback.isPaused,
      });
    },
    chooseImageSubtitle: (id) => {
      const s = get();
      if (id === s.imageSubtitleId || !s.sourceId || !s.source) return;
      const plain = s.plainSource ?? s.source;
      let next = plain;
      if (id !== null) {
        const burned = s.imageSubtitles.find((i) => i.id === id)?.sources[imageSubtitleKey(s.audioTrackId)];
        if (!burned) return;
        next = burned;
      }
      s.setSource(next, {
        sourceId: s.sourceId,
        embedId: s.embedId,
        isSample: s.isSample,
        startAt: s.playback.time,
        audioTracks: { tracks: s.audioTracks, activeId: s.audioTrackId },
        imageSubtitles: { items: s.imageSubtitles, activeId: id, plain },
        paused: s.playback.hasPlayedOnce && s.playback.isPaused,
      });
      // The picture carries the subtitle: a text caption would show over it.
      if (id !== null) set(() => ({ caption: null }));
    },
  };
}

/** What the display reports: the element's facts, the device's capabilities, qualities and thumbnails. */
function playbackActions(
  set: SetState,
): Pick<
  PlayerState,
  'updatePlayback' | 'updateCapabilities' | 'setQualities' | 'addThumbnail' | 'setSegments'
> {
  return {
    updatePlayback: (patch) =>
      set((s) => ({
        playback: { ...s.playback, ...patch, ...(patch.time !== undefined ? { timeAt: Date.now() } : {}) },
      })),
    updateCapabilities: (patch) => set((s) => ({ capabilities: { ...s.capabilities, ...patch } })),
    setQualities: (qualities, currentQuality) => set(() => ({ qualities, currentQuality })),
    addThumbnail: (t) => set((s) => ({ thumbnails: [...s.thumbnails, t].sort((a, b) => a.at - b.at) })),
    setSegments: (segments) => set(() => ({ segments })),
  };
}

function captionActions(
  set: SetState,
): Pick<PlayerState, 'setCaptionList' | 'setCaption' | 'setAssRenderer'> {
  return {
    setCaptionList: (captionList) => set(() => ({ captionList })),
    setCaption: (caption) => set(() => ({ caption })),
    setAssRenderer: (assRenderer) => set(() => ({ assRenderer })),
  };
}

/** The UI's requests, carried out by the display or kept until one attaches (see `request`). */
function displayActions(
  set: SetState,
  get: GetState,
): Pick<PlayerState, 'setPlayRequested' | 'requestPlay' | 'attachDisplay' | 'request'> {
  /** Requests waiting for a display, by kind (play and pause share one: the last word wins). */
  const pending = new Map<string, PendingRequest>();
  return {
    setPlayRequested: (playRequested) => set(() => ({ playRequested })),
    requestPlay: () => {
      if (!get().playRequested) set(() => ({ playRequested: true }));
    },
    attachDisplay: (display) => {
      if (get().display !== display) set(() => ({ display }));
      if (!display || pending.size === 0) return;
      const queued = [...pending.values()];
      pending.clear();
      for (const { name, args } of queued) (display[name] as (...a: unknown[]) => void).apply(display, args);
    },
    request: (name, ...args) => {
      requestObserver?.(name, args, { viewersChoice });
      const display = get().display;
      if (display) {
        (display[name] as (...a: unknown[]) => void).apply(display, args);
        return;
      }
      if (GESTURE_ONLY.has(name)) return;
      if (name === 'seek') {
        const startAt = Math.max(0, args[0] as number);
        set((s) => ({ startAt, playback: { ...s.playback, time: startAt } }));
        return;
      }
      const slot = name === 'play' || name === 'pause' ? 'playState' : name;
      // Re-inserted so the queue keeps the order of the latest requests.
      pending.delete(slot);
      pending.set(slot, { name, args });
    },
  };
}

/**
 * The player's one store (house rule 6). Its status machine (decision 050):
 * - setting a source or a source id moves it to `playing`;
 * - a display error moves it to `playbackError`;
 * - reset returns to `idle` and clears meta, thumbnails and progress;
 * - setting meta may set a status and un-hides the next-episode button.
 */
export function createPlayerStore() {
  return createStore<PlayerState>()((set, get) => ({
    ...initialState(),
    ...statusActions(set),
    ...sourceActions(set),
    ...trackActions(set, get),
    ...playbackActions(set),
    ...captionActions(set),
    ...displayActions(set, get),
  }));
}

export type PlayerStore = ReturnType<typeof createPlayerStore>;

/** The page's player (one at a time). */
export const playerStore = createPlayerStore();

export function usePlayer<T>(selector: (state: PlayerState) => T): T {
  return useStore(playerStore, selector);
}

/** The UI's requests to a store's display; asked before a display attaches, they wait for it. */
export function requestsTo(store: PlayerStore): DisplayRequests {
  const r: PlayerState['request'] = (name, ...args) => store.getState().request(name, ...args);
  return {
    play: () => r('play'),
    pause: () => r('pause'),
    seek: (time) => r('seek', time),
    setVolume: (volume) => r('setVolume', volume),
    setMuted: (muted) => r('setMuted', muted),
    setPlaybackRate: (rate) => r('setPlaybackRate', rate),
    setQuality: (quality) => r('setQuality', quality),
    toggleFullscreen: () => r('toggleFullscreen'),
    togglePictureInPicture: () => r('togglePictureInPicture'),
    startAirplay: () => r('startAirplay'),
  };
}

/** Requests from the UI to the page's display. */
export const requests: DisplayRequests = requestsTo(playerStore);

/** Play or pause, whichever is not happening. */
export function togglePlay(): void {
  const { playback } = playerStore.getState();
  if (playback.isPaused) requests.play();
  else requests.pause();
}

/** Seek relative to now, clamped to [0, duration]. */
export function seekBy(delta: number): void {
  const { time, duration } = playerStore.getState().playback;
  const target = Math.max(0, Math.min(duration > 0 ? duration : Number.POSITIVE_INFINITY, time + delta));
  requests.seek(target);
}
