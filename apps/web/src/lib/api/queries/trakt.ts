import { queryOptions } from '@tanstack/react-query';
import { PROFILE_HEADER } from '@marquee/contract/values';
import { api } from '../client.ts';

/*
 * The Trakt link of a library (docs/decisions/101-trakt-sync.md), read by the settings section (which
 * links and unlinks) and by the player (which scrobbles only when linked): one key, so a link or an
 * unlink in settings reaches the player at once.
 */
export const traktQueries = {
  statusKey: (uid: string, profile: string) => ['trakt-status', uid, profile] as const,
  /** The status of the account's library (`profile` '' = its own; a household profile's id otherwise). */
  status: (uid: string, profile: string) =>
    queryOptions({
      queryKey: traktQueries.statusKey(uid, profile),
      queryFn: ({ signal }) =>
        api.trakt.status({
          params: { uid },
          headers: profile ? { [PROFILE_HEADER]: profile } : undefined,
          signal,
        }),
    }),
};
