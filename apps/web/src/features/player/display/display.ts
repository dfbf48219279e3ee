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

/**
 * The display: the only code that touches the `<video>` element (house rule 6). It loads the store's
 * source through the first adapter that can play it, carries out the UI's requests, and reports what
 * the element does back into the store. Returns a function that tears it down.
 */
export function createDisplay(o: DisplayOptions): () => void {
  const { video, container, store } = o;
  const v = video as WebkitVideo;
  const loaders = o.loaders ?? defaultLoaders;
  let adapter: PlaybackAdapter | null = null;
  /** Whether the adapter fetches media yet, and where it will start when it does. */
  let started = false;
  let startPosition = 0;
  let loadToken = 0;
  const update = (patch: Partial<PlaybackFacts>) => store.getState().updatePlayback(patch);

  const attemptPlay = () => {
    const attempt = video.play();
    if (attempt && typeof attempt.catch === 'function') {
      attempt.then(
        () => update({ autoplayBlocked: false }),
        (error: Error) => {
          // Browsers refuse unmuted playback without a gesture: the big play button asks for one.
          if (error?.name === 'NotAllowedError')
            update({ autoplayBlocked: true, isPaused: true, isPlaying: false });
        },
      );
    }
  };

  /** The first play of a source: media starts loading now (nothing loads before Play). */
  const begin = () => {
    if (!adapter || started) return;
    started = true;
    update({ isLoading: true });
    adapter.start(startPosition);
  };

  const play = () => {
    // Remembered for a source that is still on its way (and for the next source: a switch keeps playing).
    store.getState().requestPlay();
    if (!adapter) return;
    begin();
    attemptPlay();
  };

  async function load(source: PlayerSource | null, startAt: number) {
    const token = ++loadToken;
    adapter?.destroy();
    adapter = null;
    started = false;
    if (!source) return;
    const loader = loaders.find((l) => l.canPlay(source, video));
    if (!loader) {
      store
        .getState()
        .displayError({ source: 'video', code: 'notSupported', message: 'no adapter can play this source' });
      return;
    }
    const created = await loader.create({
      video,
      qualityPreference: o.qualityPreference,
      onQualities: (available, current) => {
        if (token === loadToken) store.getState().setQualities(available, current);
      },
      onError: (error) => {
        if (token === loadToken) store.getState().displayError(error);
      },
    });
    if (token !== loadToken) {
      created.destroy();
      return;
    }
    adapter = created;
    startPosition = startAt;
    update({ isLoading: false, autoplayBlocked: false });
    created.load(source, startAt);
    // Deep links (an episode, `?t=`) and a viewer who already pressed Play start at once; a title
    // opened as such waits for Play with at most the playlists loaded. A source that replaces a paused
    // one (another audio track) loads where the viewer was and stays paused.
    if (store.getState().playRequested) {
      begin();
      if (!store.getState().startPaused) attemptPlay();
    }
  }

  const listeners: [string, EventListener][] = [
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
    ['durationchange', () => update({ duration: Number.isFinite(video.duration) ? video.duration : 0 })],
    ['loadedmetadata', () => update({ duration: Number.isFinite(video.duration) ? video.duration : 0 })],
    ['volumechange', () => update({ volume: video.volume, muted: video.muted })],
    ['ratechange', () => update({ playbackRate: video.playbackRate })],
    ['enterpictureinpicture', () => update({ isPictureInPicture: true })],
    ['leavepictureinpicture', () => update({ isPictureInPicture: false })],
    [
      'error',
      () => {
        // An element without a source reports an error when we unload it: not the viewer's problem.
        if (!adapter || !video.error) return;
        store.getState().displayError(videoError(video.error));
      },
    ],
    [
      'webkitplaybacktargetavailabilitychanged',
      ((e: Event & { availability?: string }) =>
        store.getState().updateCapabilities({ canAirplay: e.availability === 'available' })) as EventListener,
    ],
    [
      'webkitpresentationmodechanged',
      () => update({ isPictureInPicture: v.webkitPresentationMode === 'picture-in-picture' }),
    ],
  ];
  for (const [name, fn] of listeners) video.addEventListener(name, fn);
  const onFullscreen = () => update({ isFullscreen: document.fullscreenElement === container });
  document.addEventListener('fullscreenchange', onFullscreen);

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

  const requests: DisplayRequests = {
    play,
    pause: () => video.pause(),
    seek: (time) => {
      if (adapter && !started) {
        // Before Play there is nothing to seek in: the start moves instead.
        startPosition = Math.max(0, time);
        update({ time: startPosition });
        return;
      }
      const duration = Number.isFinite(video.duration) ? video.duration : Number.POSITIVE_INFINITY;
      video.currentTime = Math.max(0, Math.min(duration, time));
      update({ time: video.currentTime });
    },
    // The store follows at once (the element's change events come a task later): a second key press
    // right after the first (M then M, < then <) toggles from what the first one did, not from before it.
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
    setQuality: (quality: StreamQuality | null) => adapter?.setQuality(quality),
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
  store.getState().attachDisplay(requests);

  let version = store.getState().sourceVersion;
  void load(store.getState().source, store.getState().startAt);
  const unsubscribe = store.subscribe((state) => {
    if (state.sourceVersion === version) return;
    version = state.sourceVersion;
    void load(state.source, state.startAt);
  });

  return () => {
    unsubscribe();
    loadToken++;
    adapter?.destroy();
    adapter = null;
    for (const [name, fn] of listeners) video.removeEventListener(name, fn);
    document.removeEventListener('fullscreenchange', onFullscreen);
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
