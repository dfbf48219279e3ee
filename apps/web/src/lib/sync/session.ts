import type { UserSettings } from '@marquee/contract';
import { useAccountStore } from '../../stores/account-store.ts';
import { useLibraryStore, type StashedLibrary } from '../../stores/library/library-store.ts';
import { opsOfProfile, type OutboxOp, type SyncedSettings } from '../../stores/library/outbox.ts';
import { forgetProfile, switchLibrary } from '../../stores/library/profiles.ts';
import { toTheme, usePreferencesStore } from '../../stores/preferences-store.ts';
import { useSessionStatus } from '../../stores/session-status.ts';
import { DEFAULT_STYLING, useSubtitlesStore } from '../../stores/subtitles-store.ts';
import { accountBaseUrl, api, ApiError } from '../api/index.ts';
import { clock } from '../clock.ts';
import { appStorage } from '../storage.ts';
import {
  applyLibraryRead,
  forgetMarks,
  readLibrary,
  saveMark,
  usableMark,
  type LibraryKind,
  type ReadTransport,
} from './library-read.ts';
import { useRejectedChanges } from './rejected-changes.ts';
import { SYNC_INTERVAL_MS, SyncEngine, webLock } from './sync-engine.ts';
import { importPayload, profileHeaders, requestFor, type WireRequest } from './wire.ts';

/** Where seed 000's customer client kept its token (the seed spec); kept in step for email accounts. */
export const ACCESS_TOKEN_KEY = 'accessToken';

/** Account restore cadence (the seed spec). */
export const RESTORE_INTERVAL_MS = 12 * 60 * 60_000;
export { useSessionStatus };

/** Coming back to the tab pulls the account again when the last pull is older than this. */
export const PULL_ON_RETURN_AFTER_MS = 60_000;

const library = () => useLibraryStore.getState();
const account = () => useAccountStore.getState().account;

export const syncEngine = new SyncEngine({
  outbox: () => {
    useLibraryStore.controls.refresh();
    return library().outbox;
  },
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

/** Sends one outbox op with the sync endpoint it names. */
function deliver(r: WireRequest): Promise<unknown> {
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
  };
  if (typeof extra.enableAutoplay === 'boolean') merged.enableAutoplay = extra.enableAutoplay;
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
}

/**
 * Changes synced settings: applied locally at once and recorded in the outbox (sent while signed in).
 * `defaultSubtitleLanguage` is the player's last chosen subtitle language.
 */
export function changeSyncedSettings(s: SyncedSettings): void {
  writeSyncedSettings(s);
  library().queueSettings(s);
}

export type RestoreResult = 'ok' | 'signed-out' | 'failed' | 'no-account';
type RestoreStep = RestoreResult | 'profile-gone';

let lastPullAt = 0;

/**
 * Account restore (the seed spec, the product brief): pending changes are sent first, then the account's
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
    const uid = current.userId;
    const profile = library().profile;
    const headers = profileHeaders(profile);
    // Bookmarks and progress: paged, and only what changed since this device's last read (decision 072).
    const server = accountBaseUrl();
    const transport: ReadTransport = {
      baseUrl: server,
      token: current.token,
      headers,
      now: () => clock.now().getTime(),
    };
    const markOf = (kind: LibraryKind) =>
      usableMark(server, current.sessionId, profile, kind, library(), transport.now());
    let gone = false;
    const [bookmarks, progress, settings, customer] = await Promise.all([
      readLibrary('bookmarks', uid, markOf('bookmarks'), transport),
      readLibrary('progress', uid, markOf('progress'), transport),
      api.sync.settings({ params: { uid }, headers }),
      // The customer view (admin flag, membership, household profiles); servers of the older family have none.
      api.customer.me().catch(() => null),
    ]).catch((error: unknown) => {
      gone = error instanceof ApiError && error.code === 'profile_not_found';
      return [null, null, null, null] as const;
    });
    if (gone) return 'profile-gone';
    if (!bookmarks || !progress || !settings) return 'failed';
    if (account()?.token !== current.token) return 'no-account'; // signed out meanwhile
    useAccountStore
      .getState()
      .updateAccount({ profile: me.user.profile, ...(customer ? { user: customer.user } : {}) });
    // Another profile was chosen meanwhile: its own restore brings its library.
    if (library().profile === profile) {
      useLibraryStore.controls.refresh();
      const held = library();
      const merged = applyLibraryRead(
        applyLibraryRead({ bookmarks: held.bookmarks, progress: held.progress }, 'bookmarks', bookmarks),
        'progress',
        progress,
      );
      library().mergeServer(merged, profile);
      // Saved after the library, so a mark never runs ahead of what the device holds.
      for (const [kind, read] of [
        ['bookmarks', bookmarks],
        ['progress', progress],
      ] as const) {
        if (read.kind === 'pages') saveMark(server, current.sessionId, profile, kind, read.mark);
      }
      applySettings(settings, opsOfProfile(library().outbox, profile));
    }
    useAccountStore.getState().markRestored(clock.now().getTime());
    return 'ok';
  });
  return result ?? 'failed';
}

/** The preferences each household profile keeps for itself (the subscription seed spec). */
const profilePrefs = (): NonNullable<StashedLibrary['prefs']> => ({
  enableAutoplay: usePreferencesStore.getState().enableAutoplay,
  subtitleStyling: { ...useSubtitlesStore.getState().styling },
});

function switchLocalLibrary(to: string): void {
  useLibraryStore.controls.refresh();
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
    useLibraryStore.controls.refresh();
    useLibraryStore.setState((state) => forgetProfile(state, profileId));
  }
}

/** Logout (the seed spec): delete the session (errors ignored), then forget the account, bookmarks, progress and outbox. */
export async function logout(): Promise<void> {
  const current = account();
  useAccountStore.getState().setAccount(null);
  appStorage().removeItem(ACCESS_TOKEN_KEY);
  library().clear();
  forgetMarks();
  syncEngine.stop();
  if (current) {
    await api.account
      .deleteSession({
        params: { sid: current.sessionId },
        token: current.token,
        timeoutMs: 5_000,
      })
      .catch(() => undefined);
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
    await Promise.all([
      payload.bookmarks.length
        ? api.sync.importBookmarks({ params: { uid }, body: payload.bookmarks })
        : null,
      payload.progress.length ? api.sync.importProgress({ params: { uid }, body: payload.progress }) : null,
    ]);
  } catch {
    requeueLocalData();
  }
}

function requeueLocalData() {
  useLibraryStore.controls.refresh();
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

/**
 * Starts syncing: the outbox every 5 s, right after each change, when the network comes back and when
 * the page is shown again; restore at start, every 12 h, and on return to the tab after a while.
 */
export function startSync(win: Window = window): () => void {
  const flush = () => void syncEngine.flush();
  const pullIfStale = () => {
    if (account() && Date.now() - lastPullAt > PULL_ON_RETURN_AFTER_MS) void restore();
    else flush();
  };
  const interval = setInterval(flush, SYNC_INTERVAL_MS);
  const restoreTimer = setInterval(() => void restore(), RESTORE_INTERVAL_MS);
  const unsubscribe = useLibraryStore.subscribe((state, prev) => {
    if (state.outbox.length > 0 && state.outbox !== prev.outbox) queueMicrotask(flush);
  });
  const onOnline = () => {
    syncEngine.resetBackoff();
    pullIfStale();
  };
  const onVisible = () => {
    if (win.document.visibilityState === 'visible') pullIfStale();
  };
  win.addEventListener('online', onOnline);
  win.addEventListener('pageshow', flush);
  win.document.addEventListener('visibilitychange', onVisible);
  if (!account() && appStorage().getItem(ACCESS_TOKEN_KEY))
    void import('../account/email-auth.ts').then((m) => m.adoptAccessToken());
  else void restore();
  return () => {
    clearInterval(interval);
    clearInterval(restoreTimer);
    unsubscribe();
    syncEngine.stop();
    win.removeEventListener('online', onOnline);
    win.removeEventListener('pageshow', flush);
    win.document.removeEventListener('visibilitychange', onVisible);
  };
}
