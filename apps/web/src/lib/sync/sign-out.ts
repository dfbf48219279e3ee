import { useAccountStore } from '../../stores/account-store.ts';
import { useLibraryStore } from '../../stores/library/library-store.ts';
import { api, ApiError } from '../api/index.ts';
import { appStorage } from '../storage.ts';
import { forgetMarks } from './library-read.ts';

import { ACCESS_TOKEN_KEY, PENDING_SIGN_OUTS_KEY } from './sync-keys.ts';

export { ACCESS_TOKEN_KEY, PENDING_SIGN_OUTS_KEY };
export type PendingSignOut = { sid: string; token: string };

function pendingSignOuts(): PendingSignOut[] {
  try {
    const parsed: unknown = JSON.parse(appStorage().getItem(PENDING_SIGN_OUTS_KEY) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter((p): p is PendingSignOut => typeof p?.sid === 'string' && typeof p?.token === 'string')
      : [];
  } catch {
    return [];
  }
}

function savePendingSignOuts(list: PendingSignOut[]): void {
  if (list.length) appStorage().setItem(PENDING_SIGN_OUTS_KEY, JSON.stringify(list.slice(-20)));
  else appStorage().removeItem(PENDING_SIGN_OUTS_KEY);
}

/** Ends one session on the server; true once it is gone (ended now, or already: 401/403/404). */
async function endSessionOnServer(pending: PendingSignOut): Promise<boolean> {
  try {
    await api.account.deleteSession({ params: { sid: pending.sid }, token: pending.token, timeoutMs: 5_000 });
    return true;
  } catch (error) {
    return error instanceof ApiError && [401, 403, 404].includes(error.status);
  }
}

export interface SignOutDeps {
  /** Stops the outbox's timers: nothing is left to send. */
  stopSending(): void;
  /** Ends one session on the server; true once it is gone. */
  endSession?(pending: PendingSignOut): Promise<boolean>;
}

export interface SignOut {
  logout(): Promise<void>;
  sendPendingSignOuts(): Promise<void>;
}

export function createSignOut({ stopSending, endSession = endSessionOnServer }: SignOutDeps): SignOut {
  return {
    /**
     * Logout (decision 032): forget the account, bookmarks, progress and outbox on this device, and end
     * the session on the server — later, when the network is back, if it cannot be reached now.
     */
    async logout() {
      const current = useAccountStore.getState().account;
      useAccountStore.getState().setAccount(null);
      appStorage().removeItem(ACCESS_TOKEN_KEY);
      useLibraryStore.getState().clear();
      forgetMarks();
      stopSending();
      if (current) {
        const pending = { sid: current.sessionId, token: current.token };
        if (!(await endSession(pending))) savePendingSignOuts([...pendingSignOuts(), pending]);
      }
    },

    /** Sends the sign-outs made offline (at start and when the network is back). */
    async sendPendingSignOuts() {
      const pending = pendingSignOuts();
      if (!pending.length) return;
      const left: PendingSignOut[] = [];
      for (const p of pending) if (!(await endSession(p))) left.push(p);
      // Sign-outs made meanwhile are kept too.
      const added = pendingSignOuts().filter((p) => !pending.some((q) => q.sid === p.sid));
      savePendingSignOuts([...left, ...added]);
    },
  };
}
