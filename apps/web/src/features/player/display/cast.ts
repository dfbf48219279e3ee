import type { PlayerStore } from '../core/player-store.ts';

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

/** Sets the cast context up and, when a session starts, sends it what plays now, from where it is. */
export async function setUpCasting(store: PlayerStore, currentUrl: () => string | null): Promise<() => void> {
  if (!(await loadCastSender())) return () => undefined;
  const w = window as CastWindow;
  const framework = w.cast.framework;
  const context = framework.CastContext.getInstance();
  context.setOptions({
    receiverApplicationId: w.chrome.cast.media.DEFAULT_MEDIA_RECEIVER_APP_ID,
    autoJoinPolicy: w.chrome.cast.AutoJoinPolicy.ORIGIN_SCOPED,
  });
  store.getState().updateCapabilities({ canCast: true });
  const onSession = (event: { sessionState: string }) => {
    if (
      event.sessionState !== framework.SessionState.SESSION_STARTED &&
      event.sessionState !== framework.SessionState.SESSION_RESUMED
    )
      return;
    const url = currentUrl();
    const session = context.getCurrentSession();
    if (!url || !session) return;
    const { meta, playback, source } = store.getState();
    const info = new w.chrome.cast.media.MediaInfo(
      url,
      source?.type === 'hls' ? 'application/x-mpegurl' : 'video/mp4',
    );
    info.streamType = w.chrome.cast.media.StreamType.BUFFERED;
    info.metadata = new w.chrome.cast.media.GenericMediaMetadata();
    info.metadata.title = meta?.title ?? '';
    const request = new w.chrome.cast.media.LoadRequest(info);
    request.currentTime = playback.time;
    void session.loadMedia(request);
    store.getState().display?.pause();
  };
  context.addEventListener(framework.CastContextEventType.SESSION_STATE_CHANGED, onSession);
  return () => context.removeEventListener(framework.CastContextEventType.SESSION_STATE_CHANGED, onSession);
}
