import type { QualityPreference, StreamQuality } from '../core/quality.ts';
import type { DisplayRequests, PlaybackFacts, PlayerStore } from '../core/player-store.ts';
import type { PlayerSource } from '../core/types.ts';
import type { AdapterLoader, PlaybackAdapter } from './adapter.ts';
import { fileLoader } from './file-adapter.ts';
import { hlsLoader } from './hls-adapter.ts';
import { videoError } from './media-error.ts';

export const defaultLoaders: readonly AdapterLoader[] = [hlsLoader, fileLoader];

export interface DisplayOptions {
  video: HTMLVideoElement;
  /** What goes fullscreen (the player with its controls and captions). */
  container: HTMLElement;
  store: PlayerStore;
  qualityPreference(): QualityPreference;
  loaders?: readonly AdapterLoader[];
}

type WebkitVideo = HTMLVideoElement & {
  webkitEnterFullscreen?: () => void;
  webkitShowPlaybackTargetPicker?: () => void;
  webkitSupportsPresentationMode?: (mode: string) => boolean;
  webkitSetPresentationMode?: (mode: string) => void;
  webkitPresentationMode?: string;
};

/** End of the buffered range that holds the playhead (0 when nothing around it is buffered). */
function bufferedEnd(video: HTMLVideoElement): number {
  const t = video.currentTime;
  for (let i = 0; i < video.buffered.length; i++) {
    if (video.buffered.start(i) <= t + 0.5 && video.buffered.end(i) >= t) return video.buffered.end(i);
  }
  return 0;
}

/** What the display's parts share: the element, the store, and the adapter that plays the source now. */
interface DisplayState {
  video: HTMLVideoElement;
  /** The same element, with Safari's own calls. */
  v: WebkitVideo;
  container: HTMLElement;
  store: PlayerStore;
  loaders: readonly AdapterLoader[];
  update(patch: Partial<PlaybackFacts>): void;
  adapter: PlaybackAdapter | null;
  /** Whether the adapter fetches media yet, and where it will start when it does. */
  started: boolean;
  startPosition: number;
  /** Bumped by every load and by teardown: an adapter that arrives for an older one is dropped. */
  loadToken: number;
}

function attemptPlay(s: DisplayState): void {
  const attempt = s.video.play();
  if (attempt && typeof attempt.catch === 'function') {
    attempt.then(
      () => s.update({ autoplayBlocked: false }),
      (error: Error) => {
        // Browsers refuse unmuted playback without a gesture: the big play button asks for one.
        if (error?.name === 'NotAllowedError')
          s.update({ autoplayBlocked: true, isPaused: true, isPlaying: false });
      },
    );
  }
}

/** The first play of a source: media starts loading now (nothing loads before Play). */
function begin(s: DisplayState): void {
  if (!s.adapter || s.started) return;
  s.started = true;
  s.update({ isLoading: true });
  s.adapter.start(s.startPosition);
}

/** Loads a source through the first adapter that can play it (none for null), replacing the one before. */
async function load(
  s: DisplayState,
  o: DisplayOptions,
  source: PlayerSource | null,
  startAt: number,
): Promise<void> {
  const token = ++s.loadToken;
  s.adapter?.destroy();
  s.adapter = null;
  s.started = false;
  if (!source) return;
  const loader = s.loaders.find((l) => l.canPlay(source, s.video));
  if (!loader) {
    s.store
      .getState()
      .displayError({ source: 'video', code: 'notSupported', message: 'no adapter can play this source' });
    return;
  }
  const created = await loader.create({
    video: s.video,
    qualityPreference: o.qualityPreference,
    onQualities: (available, current) => {
      if (token === s.loadToken) s.store.getState().setQualities(available, current);
    },
    onError: (error) => {
      if (token === s.loadToken) s.store.getState().displayError(error);
    },
  });
  if (token !== s.loadToken) {
    created.destroy();
    return;
  }
  s.adapter = created;
  s.startPosition = startAt;
  s.update({ isLoading: false, autoplayBlocked: false });
  created.load(source, startAt);
  // Deep links (an episode, `?t=`) and a viewer who already pressed Play start at once; a title
  // opened as such waits for Play with at most the playlists loaded. A source that replaces a paused
  // one (another audio track) loads where the viewer was and stays paused.
  if (s.store.getState().playRequested) {
    begin(s);
    if (!s.store.getState().startPaused) attemptPlay(s);
  }
}

/** Loads the store's source now and again whenever it sets one. Returns the unsubscribe. */
function followSource(s: DisplayState, o: DisplayOptions): () => void {
  let version = s.store.getState().sourceVersion;
  void load(s, o, s.store.getState().source, s.store.getState().startAt);
  return s.store.subscribe((state) => {
    if (state.sourceVersion === version) return;
    version = state.sourceVersion;
    void load(s, o, state.source, state.startAt);
  });
}

const finiteDuration = (video: HTMLVideoElement) => (Number.isFinite(video.duration) ? video.duration : 0);

/** The element's events, reported into the store. */
function elementListeners(s: DisplayState): [string, EventListener][] {
  const { video, v, update } = s;
  return [
    ['play', () => update({ isPaused: false, isPlaying: true })],
    [
      'playing',
      () =>
        update({
          isPlaying: true,
          isPaused: false,
          isLoading: false,
          autoplayBlocked: false,
          hasPlayedOnce: true,
        }),
    ],
    ['pause', () => update({ isPaused: true, isPlaying: false })],
    ['waiting', () => update({ isLoading: true })],
    ['canplay', () => update({ isLoading: false })],
    ['seeking', () => update({ isSeeking: true, time: video.currentTime })],
    ['seeked', () => update({ isSeeking: false, time: video.currentTime })],
    ['timeupdate', () => update({ time: video.currentTime, buffered: bufferedEnd(video) })],
    ['progress', () => update({ buffered: bufferedEnd(video) })],
    ['durationchange', () => update({ duration: finiteDuration(video) })],
    ['loadedmetadata', () => update({ duration: finiteDuration(video) })],
    ['volumechange', () => update({ volume: video.volume, muted: video.muted })],
    ['ratechange', () => update({ playbackRate: video.playbackRate })],
    ['enterpictureinpicture', () => update({ isPictureInPicture: true })],
    ['leavepictureinpicture', () => update({ isPictureInPicture: false })],
    [
      'error',
      () => {
        // An element without a source reports an error when we unload it: not the viewer's problem.
        if (!s.adapter || !video.error) return;
        s.store.getState().displayError(videoError(video.error));
      },
    ],
    [
      'webkitplaybacktargetavailabilitychanged',
      ((e: Event & { availability?: string }) =>
        s.store
          .getState()
          .updateCapabilities({ canAirplay: e.availability === 'available' })) as EventListener,
    ],
    [
      'webkitpresentationmodechanged',
      () => update({ isPictureInPicture: v.webkitPresentationMode === 'picture-in-picture' }),
    ],
  ];
}

/** Listens to the element and to fullscreen changes. Returns what stops listening. */
function wireEvents(s: DisplayState): () => void {
  const listeners = elementListeners(s);
  for (const [name, fn] of listeners) s.video.addEventListener(name, fn);
  const onFullscreen = () => s.update({ isFullscreen: document.fullscreenElement === s.container });
  document.addEventListener('fullscreenchange', onFullscreen);
  return () => {
    for (const [name, fn] of listeners) s.video.removeEventListener(name, fn);
    document.removeEventListener('fullscreenchange', onFullscreen);
  };
}

/** Gives the element the store's volume and rate, and tells the store what this device can do. */
function applyInitialSettings({ video, v, store }: DisplayState): void {
  // Nothing loads before Play: adapters raise it when they start.
  video.preload = 'none';
  const initial = store.getState().playback;
  video.volume = Math.min(1, Math.max(0, initial.volume));
  video.muted = initial.muted;
  video.playbackRate = initial.playbackRate;
  store.getState().updateCapabilities({
    canFullscreen: Boolean(document.fullscreenEnabled || v.webkitEnterFullscreen),
    canPictureInPicture: Boolean(
      (document.pictureInPictureEnabled && !video.disablePictureInPicture) ||
      v.webkitSupportsPresentationMode?.('picture-in-picture'),
    ),
  });
}

/** Play, pause, seek and quality. */
function transportRequests(s: DisplayState): Pick<DisplayRequests, 'play' | 'pause' | 'seek' | 'setQuality'> {
  const { video, update } = s;
  return {
    play: () => {
      // Remembered for a source that is still on its way (and for the next source: a switch keeps playing).
      s.store.getState().requestPlay();
      if (!s.adapter) return;
      begin(s);
      attemptPlay(s);
      // The element is no longer paused as soon as play() is called; its 'play' event comes a task later.
      // Told now, a second press right after (K, then Space) toggles back instead of asking to play again.
      if (!video.paused) update({ isPaused: false });
    },
    pause: () => {
      video.pause();
      update({ isPaused: true, isPlaying: false });
    },
    seek: (time) => {
      if (s.adapter && !s.started) {
        // Before Play there is nothing to seek in: the start moves instead.
        s.startPosition = Math.max(0, time);
        update({ time: s.startPosition });
        return;
      }
      const duration = Number.isFinite(video.duration) ? video.duration : Number.POSITIVE_INFINITY;
      video.currentTime = Math.max(0, Math.min(duration, time));
      update({ time: video.currentTime });
    },
    setQuality: (quality: StreamQuality | null) => s.adapter?.setQuality(quality),
  };
}

/**
 * Volume, mute and rate. The store follows at once (the element's change events come a task later): a
 * second key press right after the first (M then M, < then <) toggles from what the first one did, not
 * from before it.
 */
function volumeRateRequests({
  video,
  update,
}: DisplayState): Pick<DisplayRequests, 'setVolume' | 'setMuted' | 'setPlaybackRate'> {
  return {
    setVolume: (volume) => {
      video.volume = Math.min(1, Math.max(0, volume));
      if (volume > 0 && video.muted) video.muted = false;
      update({ volume: video.volume, muted: video.muted });
    },
    setMuted: (muted) => {
      video.muted = muted;
      update({ muted: video.muted });
    },
    setPlaybackRate: (rate) => {
      video.playbackRate = rate;
      update({ playbackRate: video.playbackRate });
    },
  };
}

/** Fullscreen, picture in picture and AirPlay, with Safari's own calls where the standard ones are missing. */
function presentationRequests({
  video,
  v,
  container,
}: DisplayState): Pick<DisplayRequests, 'toggleFullscreen' | 'togglePictureInPicture' | 'startAirplay'> {
  return {
    toggleFullscreen: () => {
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
      else if (container.requestFullscreen) void container.requestFullscreen().catch(() => undefined);
      else v.webkitEnterFullscreen?.();
    },
    togglePictureInPicture: () => {
      if (document.pictureInPictureEnabled) {
        if (document.pictureInPictureElement) void document.exitPictureInPicture().catch(() => undefined);
        else void video.requestPictureInPicture().catch(() => undefined);
      } else if (v.webkitSetPresentationMode) {
        v.webkitSetPresentationMode(
          v.webkitPresentationMode === 'picture-in-picture' ? 'inline' : 'picture-in-picture',
        );
      }
    },
    startAirplay: () => v.webkitShowPlaybackTargetPicker?.(),
  };
}

/**
 * The display: the only code that touches the `<video>` element (house rule 6). It loads the store's
 * source through the first adapter that can play it, carries out the UI's requests, and reports what
 * the element does back into the store. Returns a function that tears it down.
 */
export function createDisplay(o: DisplayOptions): () => void {
  const { video, container, store } = o;
  const s: DisplayState = {
    video,
    v: video as WebkitVideo,
    container,
    store,
    loaders: o.loaders ?? defaultLoaders,
    update: (patch) => store.getState().updatePlayback(patch),
    adapter: null,
    started: false,
    startPosition: 0,
    loadToken: 0,
  };
  const unwire = wireEvents(s);
  applyInitialSettings(s);
  const requests: DisplayRequests = {
    ...transportRequests(s),
    ...volumeRateRequests(s),
    ...presentationRequests(s),
  };
  store.getState().attachDisplay(requests);
  const unsubscribe = followSource(s, o);

  return () => {
    unsubscribe();
    s.loadToken++;
    s.adapter?.destroy();
    s.adapter = null;
    unwire();
    if (store.getState().display === requests) store.getState().attachDisplay(null);
  };
}

/** Whether this device lets pages change the volume (iOS does not): set it and look, for at most 1 s. */
export function testVolumeSupport(timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = document.createElement('video');
    const target = 0.25;
    let done = false;
    const finish = (result: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => finish(Math.abs(probe.volume - target) < 0.01), timeoutMs);
    probe.addEventListener('volumechange', () => finish(Math.abs(probe.volume - target) < 0.01));
    try {
      probe.volume = target;
    } catch {
      finish(false);
    }
    if (Math.abs(probe.volume - target) < 0.01) finish(true);
  });
}
