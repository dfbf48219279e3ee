import { castApi } from '../../../lib/api/cast-api.ts';
import { contentLanguage } from '../../../lib/i18n.ts';
import { displayNames } from '../../../lib/intl.ts';
import { useSubtitlesStore } from '../../../stores/index.ts';
import type { PlayerState, PlayerStore } from '../core/player-store.ts';
import { CastCaptionSync, type CastCaptionDeps, type CastSession } from './cast-captions.ts';
import type { CastMediaApi } from './cast-media.ts';

/**
 * Chromecast through Google's Cast sender script, loaded only when the network allows it. On an
 * offline instance (or a blocked host) the script fails to load: nothing happens and no button shows.
 */
const SENDER_URL = 'https://www.gstatic.com/cv/js/sender/v1/cast_sender.js?loadCastFramework=1';

type CastWindow = Window & { __onGCastApiAvailable?: (available: boolean) => void; cast?: any; chrome?: any };

let loading: Promise<boolean> | null = null;

export function loadCastSender(timeoutMs = 10_000): Promise<boolean> {
  if (loading) return loading;
  loading = new Promise<boolean>((resolve) => {
    const w = window as CastWindow;
    if (!navigator.onLine || !('customElements' in window)) {
      resolve(false);
      return;
    }
    const timer = setTimeout(() => resolve(false), timeoutMs);
    w.__onGCastApiAvailable = (available) => {
      clearTimeout(timer);
      resolve(available && !!w.cast?.framework);
    };
    const script = document.createElement('script');
    script.src = SENDER_URL;
    script.async = true;
    script.onerror = () => {
      clearTimeout(timer);
      script.remove();
      resolve(false);
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** Google's Cast sender, as far as the player uses it: the framework's context and `chrome.cast.media`. */
export interface CastSdk {
  framework: {
    CastContext: { getInstance(): CastContextLike };
    SessionState: { SESSION_STARTED: string; SESSION_RESUMED: string; SESSION_ENDED: string };
    CastContextEventType: { SESSION_STATE_CHANGED: string };
  };
  media: CastMediaApi;
  /** `chrome.cast.AutoJoinPolicy.ORIGIN_SCOPED`. */
  autoJoinPolicy: string;
}

interface CastContextLike {
  setOptions(options: { receiverApplicationId: string; autoJoinPolicy: string }): void;
  getCurrentSession(): CastSession | null;
  addEventListener(type: string, listener: (event: { sessionState: string }) => void): void;
  removeEventListener(type: string, listener: (event: { sessionState: string }) => void): void;
}

/** What casting reaches outside the player through; tests replace them (the real SDK needs Google's servers). */
export interface CastingDeps extends Omit<CastCaptionDeps, 'store'> {
  /** The sender, or null when it cannot load (offline, blocked). */
  sdk(): Promise<CastSdk | null>;
}

async function loadSdk(): Promise<CastSdk | null> {
  if (!(await loadCastSender())) return null;
  const w = window as CastWindow;
  return {
    framework: w.cast.framework,
    media: w.chrome.cast.media,
    autoJoinPolicy: w.chrome.cast.AutoJoinPolicy.ORIGIN_SCOPED,
  };
}

function languageName(code: string): string {
  try {
    return displayNames([contentLanguage()], { type: 'language' }).of(code) ?? code;
  } catch {
    return code; // not a language tag Intl knows
  }
}

export const defaultCastingDeps: CastingDeps = {
  sdk: loadSdk,
  subtitles: useSubtitlesStore,
  host: (vtt) => castApi.uploadCaption({ body: { vtt } }),
  now: () => Date.now(),
  languageName,
};

/**
 * The title (and episode) the receiver of a cast context was last given, by any player of this page: a
 * player opened again on it while the session goes on carries on from where the receiver is, not from
 * where this device stood when casting began. (The page has one context, the SDK's.)
 */
const onReceiver = new WeakMap<object, string | null>();

const titleOf = (meta: PlayerState['meta']) =>
  meta ? `${meta.type}:${meta.tmdbId}:${meta.season?.number ?? ''}:${meta.episode?.number ?? ''}` : null;

/**
 * Sets the cast context up and, when a session starts, sends it what plays now, from where it is, with
 * the caption the viewer chose and their caption style; while it lasts, their caption choices follow
 * (decision 113, display/cast-captions.ts), and so does what plays: another source or quality, or the
 * next episode (a player that starts while a session goes on) is loaded on the receiver in its place.
 */
export async function setUpCasting(
  store: PlayerStore,
  currentUrl: () => string | null,
  given: Partial<CastingDeps> = {},
): Promise<() => void> {
  const deps: CastingDeps = { ...defaultCastingDeps, ...given };
  const sdk = await deps.sdk();
  if (!sdk) return () => undefined;
  const { framework } = sdk;
  const context = framework.CastContext.getInstance();
  context.setOptions({
    receiverApplicationId: sdk.media.DEFAULT_MEDIA_RECEIVER_APP_ID,
    autoJoinPolicy: sdk.autoJoinPolicy,
  });
  store.getState().updateCapabilities({ canCast: true });
  const captions = new CastCaptionSync(sdk.media, { ...deps, store });
  /** The URL the receiver was last sent by this player. */
  let sent: string | null = null;
  /**
   * Loads what plays now on the receiver: from this player's position, or, when its title is on the
   * receiver already (another source or quality of it, or the same episode opened again), from where
   * the receiver is: this device stood paused since.
   */
  const send = () => {
    const url = currentUrl();
    const session = context.getCurrentSession();
    if (!url || !session || url === sent) return;
    const title = titleOf(store.getState().meta);
    const switching = sent !== null || (title !== null && title === onReceiver.get(context));
    sent = url;
    onReceiver.set(context, title);
    // The TV plays it: this device does not (asked of the video when it attaches, if it has not yet).
    const { display, request } = store.getState();
    if (display) display.pause();
    else request('pause');
    const there = switching ? session.getMediaSession()?.getEstimatedTime?.() : undefined;
    void captions.start(session, url, there ?? store.getState().playback.time);
  };
  const onSession = (event: { sessionState: string }) => {
    if (event.sessionState === framework.SessionState.SESSION_ENDED) {
      sent = null;
      onReceiver.delete(context);
      captions.end();
      return;
    }
    if (
      event.sessionState !== framework.SessionState.SESSION_STARTED &&
      event.sessionState !== framework.SessionState.SESSION_RESUMED
    )
      return;
    sent = null;
    onReceiver.delete(context);
    send();
  };
  context.addEventListener(framework.CastContextEventType.SESSION_STATE_CHANGED, onSession);
  const unfollow = store.subscribe((state, previous) => {
    if (state.source !== previous.source || state.currentQuality !== previous.currentQuality) send();
  });
  // A session that goes on from the player before (the next episode, a title opened while casting).
  send();
  return () => {
    unfollow();
    context.removeEventListener(framework.CastContextEventType.SESSION_STATE_CHANGED, onSession);
    captions.stop();
  };
}
