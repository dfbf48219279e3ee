import { queryOptions } from '@tanstack/react-query';
import { accountBaseUrl, api } from '../client.ts';

/** The account server and the signed-in account. */
export const accountQueries = {
  /** The account server's /meta (name, captcha); `baseUrl` another server than the one in settings. */
  meta: (baseUrl?: string) => {
    const server = baseUrl ?? accountBaseUrl();
    return queryOptions({
      queryKey: ['account-meta', server] as const,
      queryFn: ({ signal }) => api.account.meta({ baseUrl: server, token: null, signal }),
    });
  },
  /**
   * Keys of the account's sessions (its devices). The settings screen decrypts the list into its own
   * rows under `sessions(uid, sid)`; invalidate `sessions()` after renaming or removing one.
   */
  sessionKeys: {
    all: () => ['sessions'] as const,
    ofUser: (uid: string) => ['sessions', uid] as const,
    list: (uid: string, sessionId: string) => ['sessions', uid, sessionId] as const,
  },
  /**
   * Keys of the account's passkeys (decision 109). The settings screen keeps the list, names readable,
   * under `passkeys(uid)`; invalidate it after adding or removing one.
   */
  passkeyKeys: {
    all: () => ['passkeys'] as const,
    ofUser: (uid: string) => ['passkeys', uid] as const,
  },
  /** The customer view of the account (GET /customers). Key `['customer', uid]`. */
  customerKey: (uid: string | undefined) => ['customer', uid] as const,
};
