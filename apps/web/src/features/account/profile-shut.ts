import { useEffect, useReducer } from 'react';
import {
  liveUnlock,
  profileChosen,
  profileHasPin,
  useAccountStore,
  useLibraryStore,
} from '../../stores/index.ts';

/**
 * The profile whose library this device shows, when it is PIN-locked and not open here (never entered,
 * its unlock ended, or its PIN changed elsewhere): decision 104. Null otherwise. An account whose device
 * has not chosen a profile yet is asked "who's watching" first.
 */
export function useShutProfile(): string | null {
  const account = useAccountStore((s) => s.account);
  const profile = useLibraryStore((s) => s.profile);
  const [, tick] = useReducer((n: number) => n + 1, 0);
  const chosen = profileChosen(account);
  const locked = chosen && profileHasPin(account, profile);
  const unlock = locked ? liveUnlock(account, profile) : null;
  // The unlock ends by the clock: look again then.
  useEffect(() => {
    if (!unlock) return undefined;
    const timer = setTimeout(tick, Math.min(unlock.expiresAt - Date.now() + 50, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [unlock]);
  return locked && !unlock ? profile : null;
}
