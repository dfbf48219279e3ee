import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { TraktStatus } from '@marquee/contract';
import { api, ApiError, errorKey, type ErrorKey } from '../../lib/api/index.ts';
import { traktQueries } from '../../lib/api/queries/trakt.ts';
import { clock } from '../../lib/clock.ts';
import { profileHeaders } from '../../lib/sync/wire.ts';

/*
 * The Trakt link of the signed-in account's current library (docs/decisions/101-trakt-sync.md): its status,
 * polled while a code waits to be entered, and linking, unlinking and "Sync now".
 */

/** The status's query key, shared with the player (lib/api/queries/trakt.ts). */
export const traktStatusKey = traktQueries.statusKey;

/** How often to read the status again while "Syncing soon…" shows (a pass finishing updates the page). */
const SYNC_POLL_MS = 3_000;

/**
 * When to read the status again (ms), or false: each `device.interval` seconds while a code waits and has
 * not expired (each read asks Trakt whether it was entered), now and then while a sync pass is due.
 */
export function traktPollInterval(status: TraktStatus | undefined, now: number): number | false {
  if (!status) return false;
  if (status.state === 'pending' && status.device) {
    if (Date.parse(status.device.expiresAt) <= now) return false;
    return Math.max(1, status.device.interval) * 1000;
  }
  if (status.state === 'linked' && status.syncPending) return SYNC_POLL_MS;
  return false;
}

/** The Trakt errors with a text of their own in the `trakt` namespace. */
const TRAKT_ERROR_KEYS = {
  trakt_not_configured: 'trakt.errors.trakt_not_configured',
  trakt_unavailable: 'trakt.errors.trakt_unavailable',
  trakt_not_linked: 'trakt.errors.trakt_not_linked',
} as const;
export type TraktErrorKey = (typeof TRAKT_ERROR_KEYS)[keyof typeof TRAKT_ERROR_KEYS] | ErrorKey;

/** The catalog key of a failed link, unlink or sync: Trakt's own codes here, the others as everywhere. */
export function traktErrorKey(error: unknown): TraktErrorKey {
  if (error instanceof ApiError && error.code in TRAKT_ERROR_KEYS)
    return TRAKT_ERROR_KEYS[error.code as keyof typeof TRAKT_ERROR_KEYS];
  return errorKey(error);
}

/** The library's Trakt status, fresh when the page opens, polled as `traktPollInterval` says while visible. */
export function useTraktStatus(uid: string, profile: string) {
  return useQuery({
    ...traktQueries.status(uid, profile),
    staleTime: 0,
    retry: 1,
    refetchInterval: (query) => traktPollInterval(query.state.data, clock.now().getTime()),
    refetchIntervalInBackground: false,
  });
}

/**
 * Link (a new code), unlink (or stop linking) and "Sync now": each answer is the new status, put in the
 * shared query at once. `failure` is the last one's error (cleared by the next action).
 */
export function useTraktActions(uid: string, profile: string) {
  const client = useQueryClient();
  const key = traktStatusKey(uid, profile);
  const [failure, setFailure] = useState<TraktErrorKey | null>(null);
  const input = { params: { uid }, headers: profileHeaders(profile) };
  const options = {
    onMutate: () => setFailure(null),
    onSuccess: (status: TraktStatus) => client.setQueryData(key, status),
    onError: (error: unknown) => {
      setFailure(traktErrorKey(error));
      // The status may have moved on (a link revoked, another device): read it again.
      void client.invalidateQueries({ queryKey: key });
    },
  };
  const link = useMutation({ mutationFn: () => api.trakt.link(input), ...options });
  const unlink = useMutation({ mutationFn: () => api.trakt.unlink(input), ...options });
  const sync = useMutation({ mutationFn: () => api.trakt.sync(input), ...options });
  return {
    link,
    unlink,
    sync,
    failure,
    busy: link.isPending || unlink.isPending || sync.isPending,
  };
}
