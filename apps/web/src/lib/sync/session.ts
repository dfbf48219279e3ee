import type { LibraryChangeKind, UserSettings } from '@marquee/contract';
import { CLIENT_TIME_HEADER } from '@marquee/contract/values';
import { useAccountStore } from '../../stores/account-store.ts';
import { useLibraryStore, type StashedLibrary } from '../../stores/library/library-store.ts';
import {
  opsOfProfile,
  type LibraryData,
  type OutboxOp,
  type SyncedSettings,
} from '../../stores/library/outbox.ts';
import { forgetProfile, switchLibrary } from '../../stores/library/profiles.ts';
import { toTheme, usePreferencesStore } from '../../stores/preferences-store.ts';
import { useSessionStatus } from '../../stores/session-status.ts';
import { DEFAULT_STYLING, useSubtitlesStore } from '../../stores/subtitles-store.ts';
import { accountBaseUrl, api, ApiError } from '../api/index.ts';
import { clock } from '../clock.ts';
import { isAudioLanguage } from '../languages.ts';
import { appStorage } from '../storage.ts';
import {
  applyLibraryRead,
  forgetMarks,
  readLibrary,
  saveMark,
  usableMark,
  type LibraryKind,
  type LibraryRead,
  type ReadTransport,
} from './library-read.ts';
import { useRejectedChanges } from './rejected-changes.ts';
import { LIBRARY_REFRESH_EVENT } from '../library-refresh.ts';
import { ALL_KINDS, startLive } from './live.ts';
import { SYNC_INTERVAL_MS, SyncEngine, webLock } from './sync-engine.ts';
import { importPayload, profileHeaders, requestFor, type WireRequest } from './wire.ts';

/** Where the older clients' customer login kept its token (decision 042); kept in step for email accounts. */
export const ACCESS_TOKEN_KEY = 'accessToken';

/** Account restore cadence (decision 031). */
export const RESTORE_INTERVAL_MS = 12 * 60 * 60_000;
export { useSessionStatus };

const library = () => useLibraryStore.getState();
const account = () => useAccountStore.getState().account;

export const syncEngine = new SyncEngine({
  outbox: () => library().outbox,
  remove: (id) => library().removeOp(id),
  reject: (op, refusal) => useRejectedChanges.getState().add(op, refusal, Date.now()),
  canSend: () => account() !== null,
  send: async (op: OutboxOp) => {
    const uid = account()?.userId;
    if (!uid) throw new ApiError(401, 'unauthorized', 'signed out');
    await deliver(requestFor(op, uid));
  },
  onAuthError: () => void restore(),
  now: () => Date.now(),
  lock: webLock,
});

/** Set while the page is being left: writes go out with `keepalive`, so they outlive it. */
let leaving = false;

/**
 * Headers of a write: this device's clock when it leaves (the server corrects change times by the
 * device's offset, decision 079) — only to this instance: another origin's server of the family would
 * have to allow the header first.
 */
function writeHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (accountBaseUrl() !== '') return headers;
  return { ...headers, [CLIENT_TIME_HEADER]: String(clock.now().getTime()) };
}

/** Sends one outbox op with the sync endpoint it names. */
function deliver(input: WireRequest): Promise<unknown> {
  const headers = writeHeaders(input.headers);
  const hidden = typeof document !== 'undefined' && document.visibilityState === 'hidden';
  const r = { ...input, ...(headers ? { headers } : {}), ...(leaving || hidden ? { keepalive: true } : {}) };
  switch (r.endpoint) {
    case 'addBookmark':
      return api.sync.addBookmark(r);
    case 'deleteBookmark':
      return api.sync.deleteBookmark(r);
    case 'putProgress':
      return api.sync.putProgress(r);
    case 'deleteProgress':
      return api.sync.deleteProgress(r);
    case 'putSettings':
      return api.sync.putSettings(r);
  }
}

/** Writes the server's synced settings into their stores (only those it has), then pending local changes over them. */
function applySettings(server: Partial<UserSettings>, pending: readonly OutboxOp[]) {
  const merged: SyncedSettings = {};
  if (server.applicationLanguage) merged.applicationLanguage = server.applicationLanguage;
  if (server.applicationTheme !== undefined && server.applicationTheme !== null)
    merged.applicationTheme = server.applicationTheme;
  if (server.defaultSubtitleLanguage) merged.defaultSubtitleLanguage = server.defaultSubtitleLanguage;
  if (server.proxyUrls) merged.proxyUrls = server.proxyUrls;
  const extra = server as {
    enableAutoplay?: boolean | null;
    subtitleStyling?: SyncedSettings['subtitleStyling'];
    defaultAudioLanguage?: string | null;
  };
  if (typeof extra.enableAutoplay === 'boolean') merged.enableAutoplay = extra.enableAutoplay;
  if (extra.defaultAudioLanguage) merged.defaultAudioLanguage = extra.defaultAudioLanguage;
  if (extra.subtitleStyling) merged.subtitleStyling = extra.subtitleStyling;
  for (const op of pending) if (op.kind === 'settings') Object.assign(merged, op.settings);
  writeSyncedSettings(merged);
}

/** Writes synced settings into the local stores without recording a change. */
export function writeSyncedSettings(s: SyncedSettings): void {
  if (s.applicationLanguage !== undefined)
    usePreferencesStore.getState().setPreferences({ language: s.applicationLanguage });
  if (s.applicationTheme !== undefined)
    usePreferencesStore.getState().setPreferences({ theme: toTheme(s.applicationTheme) });
  if (s.defaultSubtitleLanguage !== undefined)
    useSubtitlesStore.getState().setSubtitles({ lastSelectedLanguage: s.defaultSubtitleLanguage });
  if (s.proxyUrls !== undefined) useAccountStore.getState().setProxyUrls(s.proxyUrls);
  if (typeof s.enableAutoplay === 'boolean')
    usePreferencesStore.getState().setPreferences({ enableAutoplay: s.enableAutoplay });
  if (s.subtitleStyling) useSubtitlesStore.getState().setStyling(s.subtitleStyling);
  if (s.defaultAudioLanguage !== undefined)
    usePreferencesStore.getState().setPreferences({
      audioLanguage: isAudioLanguage(s.defaultAudioLanguage) ? s.defaultAudioLanguage : null,
    });
}

/**
 * Changes synced settings: applied locally at once and recorded in the outbox (sent while signed in).
 * `defaultSubtitleLanguage` is the player's last chosen subtitle language, `defaultAudioLanguage` the
 * preferred audio language of library titles.
 */
export function changeSyncedSettings(s: SyncedSettings): void {
  writeSyncedSettings(s);
  library().queueSettings(s);
}

export type RestoreResult = 'ok' | 'signed-out' | 'failed' | 'no-account';
type RestoreStep = RestoreResult | 'profile-gone';

let lastPullAt = 0;

/**
 * Account restore (decision 032): pending changes are sent first, then the account's
 * bookmarks, progress and settings are fetched and MERGED — the server's state with every change still
 * pending applied over it. 400/401/403 from /users/@me → logout; other failures keep everything local.
 */
export async function restore(): Promise<RestoreResult> {
  if (!account()) return 'no-account';
  useSessionStatus.setState({ restoring: true });
  try {
    let result = await restoreOnce();
    if (result === 'profile-gone') {
      // The chosen household profile was deleted (on another device): back to the account's own library.
      forgetActiveProfile();
      result = await restoreOnce();
    }
    if (result === 'profile-gone') result = 'failed';
    if (result === 'signed-out') await logout();
    if (result === 'ok') {
      lastPullAt = Date.now();
      syncEngine.unblock();
      void syncEngine.flush();
    }
    useSessionStatus.setState({ restoreFailed: result === 'failed' });
    return result;
  } finally {
    useSessionStatus.setState({ restoring: false });
  }
}

async function restoreOnce(): Promise<RestoreStep> {
  const result = await syncEngine.runExclusive(async (drain): Promise<RestoreStep> => {
    await drain().catch(() => undefined);
    const current = account();
    if (!current) return 'no-account';
    let me;
    try {
      me = await api.account.me();
    } catch (error) {
      if (error instanceof ApiError && [400, 401, 403].includes(error.status)) return 'signed-out';
      return 'failed';
    }
    if (me.user.id !== current.userId) return 'signed-out';
    const profile = library().profile;
    let gone = false;
    const [read, customer] = await Promise.all([
      readChanges(current, profile, ALL_KINDS),
      // The customer view (admin flag, membership, household profiles); servers of the older family have none.
      api.customer.me().catch(() => null),
    ]).catch((error: unknown) => {
      gone = error instanceof ApiError && error.code === 'profile_not_found';
      return [null, null] as const;
    });
    if (gone) return 'profile-gone';
    if (!read) return 'failed';
    if (account()?.token !== current.token) return 'no-account'; // signed out meanwhile
    useAccountStore
      .getState()
      .updateAccount({ profile: me.user.profile, ...(customer ? { user: customer.user } : {}) });
    mergeChanges(current, profile, read);
    useAccountStore.getState().markRestored(clock.now().getTime());
    return 'ok';
  });
  return result ?? 'failed';
}

interface ChangesRead {
  server: string;
  bookmarks: LibraryRead<'bookmarks'> | null;
  progress: LibraryRead<'progress'> | null;
  settings: Partial<UserSettings> | null;
}

/**
 * Reads what changed in the account's library since this device's marks (conditional, paged; decision
 * 072), for the kinds asked. Throws the ApiError of a failed read.
 */
async function readChanges(
  current: NonNullable<ReturnType<typeof account>>,
  profile: string,
  kinds: readonly LibraryChangeKind[],
): Promise<ChangesRead> {
  const uid = current.userId;
  const headers = profileHeaders(profile);
  const server = accountBaseUrl();
  const transport: ReadTransport = {
    baseUrl: server,
    token: current.token,
    headers,
    now: () => clock.now().getTime(),
  };
  const markOf = (kind: LibraryKind) =>
    usableMark(server, current.sessionId, profile, kind, library(), transport.now());
  const [bookmarks, progress, settings] = await Promise.all([
    kinds.includes('bookmarks') ? readLibrary('bookmarks', uid, markOf('bookmarks'), transport) : null,
    kinds.includes('progress') ? readLibrary('progress', uid, markOf('progress'), transport) : null,
    kinds.includes('settings') ? api.sync.settings({ params: { uid }, headers }) : null,
  ]);
  return { server, bookmarks, progress, settings };
}

/**
 * Merges a read into the device's library: the server's state with every pending change re-applied
 * over it (never overwriting a newer local change), then the marks, then synced settings. Ignored when
 * another profile became active meanwhile (its own read brings its library).
 */
function mergeChanges(current: NonNullable<ReturnType<typeof account>>, profile: string, read: ChangesRead) {
  if (library().profile !== profile) return;
  const held = library();
  let merged: LibraryData = { bookmarks: held.bookmarks, progress: held.progress };
  if (read.bookmarks) merged = applyLibraryRead(merged, 'bookmarks', read.bookmarks);
  if (read.progress) merged = applyLibraryRead(merged, 'progress', read.progress);
  if ([read.bookmarks, read.progress].some((r) => r && r.kind !== 'unchanged'))
    library().mergeServer(merged, profile);
  // Saved after the library, so a mark never runs ahead of what the device holds.
  for (const [kind, r] of [
    ['bookmarks', read.bookmarks],
    ['progress', read.progress],
  ] as const) {
    if (r?.kind === 'pages') saveMark(read.server, current.sessionId, profile, kind, r.mark);
  }
  if (read.settings) applySettings(read.settings, opsOfProfile(library().outbox, profile));
}

export type PullResult = 'ok' | 'failed' | 'no-account';

/**
 * Reads what changed since this device's marks for these kinds and merges it (decision 079): what the
 * library stream, returning to the tab and opening home or My List ask for. A 304 costs nothing.
 * Refusals of the session or profile hand over to `restore`, which decides.
 */
export async function pull(kinds: readonly LibraryChangeKind[] = ALL_KINDS): Promise<PullResult> {
  const result = await syncEngine.runExclusive(async (): Promise<PullResult | 'restore'> => {
    const current = account();
    if (!current) return 'no-account';
    const profile = library().profile;
    let read: ChangesRead;
    try {
      read = await readChanges(current, profile, kinds);
    } catch (error) {
      if (
        error instanceof ApiError &&
        ([401, 403].includes(error.status) || error.code === 'profile_not_found')
      )
        return 'restore';
      return 'failed';
    }
    if (account()?.token !== current.token) return 'no-account';
    mergeChanges(current, profile, read);
    lastPullAt = Date.now();
    return 'ok';
  });
  if (result === 'restore') {
    const restored = await restore();
    return restored === 'ok'
      ? 'ok'
      : restored === 'no-account' || restored === 'signed-out'
        ? 'no-account'
        : 'failed';
  }
  return result ?? 'failed';
}

/** The preferences each household profile keeps for itself (decision 042). */
const profilePrefs = (): NonNullable<StashedLibrary['prefs']> => ({
  enableAutoplay: usePreferencesStore.getState().enableAutoplay,
  subtitleStyling: { ...useSubtitlesStore.getState().styling },
});

function switchLocalLibrary(to: string): void {
  let prefs: StashedLibrary['prefs'];
  let switched = false;
  useLibraryStore.setState((state) => {
    const next = switchLibrary(state, to, profilePrefs());
    if (!next) return {};
    switched = true;
    prefs = next.prefs;
    return next.data;
  });
  if (switched) {
    const p = prefs ?? { enableAutoplay: true, subtitleStyling: DEFAULT_STYLING };
    writeSyncedSettings({ enableAutoplay: p.enableAutoplay, subtitleStyling: p.subtitleStyling });
  }
}

function forgetActiveProfile(): void {
  const gone = library().profile;
  switchLocalLibrary('');
  useLibraryStore.setState((state) => forgetProfile(state, gone));
  // Not chosen any more: "who's watching" is asked again.
  useAccountStore.getState().updateAccount({ profileId: undefined });
}

/**
 * "Who's watching": makes a household profile (or '' for the account's own) the active library on this
 * device. The library of the profile left is kept on the device and its pending changes are still sent
 * to it; the chosen one is then restored (merged) from the server.
 */
export async function chooseProfile(profileId: string): Promise<void> {
  switchLocalLibrary(profileId);
  useAccountStore.getState().updateAccount({ profileId });
  await restore();
}

/** After a household profile was deleted on the server: nothing of it stays on this device. */
export function profileDeleted(profileId: string): void {
  if (library().profile === profileId) {
    forgetActiveProfile();
    void restore();
  } else {
    useLibraryStore.setState((state) => forgetProfile(state, profileId));
  }
}

/**
 * Sign-outs the server has not heard of yet (made offline): the session is ended when the network is
 * back, so a token left behind on a shared computer stops working (docs/security.md). Only the
 * session's id and token are kept, and only until the server confirms.
 */
export const PENDING_SIGN_OUTS_KEY = 'marquee.pendingSignOuts';
type PendingSignOut = { sid: string; token: string };

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
async function endSession(pending: PendingSignOut): Promise<boolean> {
  try {
    await api.account.deleteSession({ params: { sid: pending.sid }, token: pending.token, timeoutMs: 5_000 });
    return true;
  } catch (error) {
    return error instanceof ApiError && [401, 403, 404].includes(error.status);
  }
}

/** Sends the sign-outs made offline (at start and when the network is back). */
export async function sendPendingSignOuts(): Promise<void> {
  const pending = pendingSignOuts();
  if (!pending.length) return;
  const left: PendingSignOut[] = [];
  for (const p of pending) if (!(await endSession(p))) left.push(p);
  // Sign-outs made meanwhile are kept too.
  const added = pendingSignOuts().filter((p) => !pending.some((q) => q.sid === p.sid));
  savePendingSignOuts([...left, ...added]);
}

/**
 * Logout (decision 032): forget the account, bookmarks, progress and outbox on this device, and end the
 * session on the server — later, when the network is back, if it cannot be reached now.
 */
export async function logout(): Promise<void> {
  const current = account();
  useAccountStore.getState().setAccount(null);
  appStorage().removeItem(ACCESS_TOKEN_KEY);
  library().clear();
  forgetMarks();
  syncEngine.stop();
  if (current) {
    const pending = { sid: current.sessionId, token: current.token };
    if (!(await endSession(pending))) savePendingSignOuts([...pendingSignOuts(), pending]);
  }
}

/**
 * After sign-in: the library kept on this device before signing in goes into the account (merged on
 * the server by change time). If the server cannot take it now, every item becomes an outbox op, so
 * nothing is lost; the restore that follows keeps what is still pending.
 */
export async function importLocalData(): Promise<void> {
  const current = account();
  if (!current) return;
  const data = library();
  if (Object.keys(data.bookmarks).length === 0 && Object.keys(data.progress).length === 0) return;
  const payload = importPayload(data);
  const uid = current.userId;
  try {
    // In pages: a whole library in one body passes neither proxies' body limits (nginx's 1 MiB by
    // default) nor the server's item limit.
    await Promise.all([
      inPages(payload.bookmarks, (body) =>
        api.sync.importBookmarks({ params: { uid }, body, headers: writeHeaders({}) }),
      ),
      inPages(payload.progress, (body) =>
        api.sync.importProgress({ params: { uid }, body, headers: writeHeaders({}) }),
      ),
    ]);
  } catch {
    requeueLocalData();
  }
}

/** Items per import request (a page of progress rows is about 400 KB). */
export const IMPORT_PAGE_SIZE = 1_000;

/** Sends `items` in pages of IMPORT_PAGE_SIZE, one after another. */
async function inPages<T>(items: T[], send: (page: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += IMPORT_PAGE_SIZE) await send(items.slice(i, i + IMPORT_PAGE_SIZE));
}

function requeueLocalData() {
  const { bookmarks, progress } = library();
  useLibraryStore.setState((s) => {
    const ops: OutboxOp[] = [];
    const id = () => `import-${Math.random().toString(36).slice(2)}`;
    for (const b of Object.values(bookmarks))
      ops.push({
        kind: 'bookmark-add',
        id: id(),
        at: b.updatedAt,
        type: b.type,
        tmdbId: b.tmdbId,
        meta: { title: b.title, year: b.year, poster: b.poster },
      });
    for (const p of Object.values(progress)) {
      const meta = { title: p.title, year: p.year, poster: p.poster };
      if (p.type === 'movie' && p.progress)
        ops.push({
          kind: 'progress-put',
          id: id(),
          at: p.updatedAt,
          type: p.type,
          tmdbId: p.tmdbId,
          meta,
          ...p.progress,
        });
      for (const ep of Object.values(p.episodes)) {
        const season = p.seasons[ep.seasonId] ?? { id: ep.seasonId, number: 0, title: '' };
        ops.push({
          kind: 'progress-put',
          id: id(),
          at: ep.updatedAt,
          type: p.type,
          tmdbId: p.tmdbId,
          meta,
          ...ep.progress,
          season,
          episode: { id: ep.id, number: ep.number, title: ep.title },
        });
      }
    }
    return { outbox: [...ops, ...s.outbox] };
  });
}

/** Returning to the tab or opening home / My List reads changes at most this often. */
export const PULL_AT_MOST_EVERY_MS = 5_000;

/**
 * Leaving the page: pending progress goes out at once with `keepalive` (it outlives the page), held
 * or not — the final position must not wait for the next visit. The ops stay in the outbox until
 * acknowledged, so the next visit sends them again if these were lost (writes are idempotent).
 */
function sendProgressWhileLeaving(): void {
  const uid = account()?.userId;
  if (!uid) return;
  for (const op of library().outbox)
    if (op.kind === 'progress-put') void deliver(requestFor(op, uid)).catch(() => undefined);
}

/**
 * Starts syncing (decision 079): the outbox every 5 s and right after each change (progress saved
 * while playing waits up to 15 s), when the network comes back and when the page is shown again; the
 * library stream (changes from the account's other devices, within seconds); reads of what changed on
 * returning to the tab and on opening home or My List; restore at start and every 12 h.
 * `adoptAccessToken` (the account layer's, given by the app: that layer sits above this module, see
 * docs/architecture.md, "Layers"): with no account stored but the token the older clients' customer
 * login left, the session is adopted instead of restored.
 */
export function startSync(
  win: Window = window,
  { adoptAccessToken }: { adoptAccessToken?: () => Promise<unknown> } = {},
): () => void {
  const flush = () => void syncEngine.flush();
  const pullSoon = () => {
    if (!account()) return;
    if (Date.now() - lastPullAt < PULL_AT_MOST_EVERY_MS) flush();
    else void pull(['bookmarks', 'progress']);
  };
  const interval = setInterval(flush, SYNC_INTERVAL_MS);
  const restoreTimer = setInterval(() => void restore(), RESTORE_INTERVAL_MS);
  const unsubscribe = useLibraryStore.subscribe((state, prev) => {
    if (state.outbox.length === 0 || state.outbox === prev.outbox) return;
    // Leaving: the player's last save must start its request before the page goes.
    if (leaving) sendProgressWhileLeaving();
    else queueMicrotask(flush);
  });
  const onOnline = () => {
    syncEngine.resetBackoff();
    void sendPendingSignOuts();
    // A restore that failed offline runs again (its notice was hidden while offline).
    if (useSessionStatus.getState().restoreFailed) void restore();
    else pullSoon();
  };
  void sendPendingSignOuts();
  const onVisible = () => {
    if (win.document.visibilityState === 'visible') pullSoon();
    else flush();
  };
  const onPageHide = () => {
    leaving = true;
    sendProgressWhileLeaving();
  };
  const onPageShow = () => {
    leaving = false;
    flush();
  };
  win.addEventListener('online', onOnline);
  win.addEventListener('pageshow', onPageShow);
  win.addEventListener('pagehide', onPageHide);
  win.addEventListener('focus', pullSoon);
  win.addEventListener(LIBRARY_REFRESH_EVENT, pullSoon);
  win.document.addEventListener('visibilitychange', onVisible);
  const stopLive = startLive({
    onChange: (kinds) => pull(kinds),
    onAuthProblem: () => void restore(),
    win,
  });
  if (adoptAccessToken && !account() && appStorage().getItem(ACCESS_TOKEN_KEY)) void adoptAccessToken();
  else void restore();
  return () => {
    clearInterval(interval);
    clearInterval(restoreTimer);
    unsubscribe();
    stopLive();
    syncEngine.stop();
    win.removeEventListener('online', onOnline);
    win.removeEventListener('pageshow', onPageShow);
    win.removeEventListener('pagehide', onPageHide);
    win.removeEventListener('focus', pullSoon);
    win.removeEventListener(LIBRARY_REFRESH_EVENT, pullSoon);
    win.document.removeEventListener('visibilitychange', onVisible);
  };
}
