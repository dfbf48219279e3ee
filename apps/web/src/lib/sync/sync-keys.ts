/*
 * What a device keeps for the sync session in plain storage: read by the app at start (is there anything
 * to sync here?) without loading the sync code.
 */

/** Where the older clients' customer login kept its token (decision 042); kept in step for email accounts. */
export const ACCESS_TOKEN_KEY = 'accessToken';

/**
 * Sign-outs the server has not heard of yet (made offline): the session is ended when the network is
 * back, so a token left behind on a shared computer stops working (docs/security.md). Only the
 * session's id and token are kept, and only until the server confirms.
 */
export const PENDING_SIGN_OUTS_KEY = 'marquee.pendingSignOuts';
