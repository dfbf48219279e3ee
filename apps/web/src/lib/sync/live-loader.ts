import { useAccountStore } from '../../stores/account-store.ts';
import type { LiveDeps } from './live.ts';

/**
 * The library stream (live.ts) once an account is signed in: its code, and the server-sent events
 * reader it uses, load then — a visitor never needs them, and the first view of / stays within its
 * 150 KB of JavaScript (decision 003). Returns the stop function.
 */
export function startLiveWhenSignedIn(deps: LiveDeps): () => void {
  let stop: (() => void) | null = null;
  let loading = false;
  let stopped = false;
  const load = () => {
    if (loading || stopped || !useAccountStore.getState().account) return;
    loading = true;
    void import('./live.ts').then((m) => {
      if (!stopped) stop = m.startLive(deps);
    });
  };
  const unsubscribe = useAccountStore.subscribe(load);
  load();
  return () => {
    stopped = true;
    unsubscribe();
    stop?.();
  };
}
