import type { LibraryChangeKind, UserSettings } from '@marquee/contract';
import { useAccountStore, type Account } from '../../stores/account-store.ts';
import { useLibraryStore } from '../../stores/library/library-store.ts';
import { opsOfProfile, type LibraryData } from '../../stores/library/outbox.ts';
import { useSessionStatus } from '../../stores/session-status.ts';
import { accountBaseUrl, api, ApiError } from '../api/index.ts';
import { clock } from '../clock.ts';
import {
  applyLibraryRead,
  readLibrary,
  saveMark,
  usableMark,
  type LibraryKind,
  type LibraryRead,
  type ReadTransport,
} from './library-read.ts';
import { ALL_KINDS, isNewerKind, unlessRouteMissing } from './library-kinds.ts';
import { applySettings } from './settings-sync.ts';
import type { SyncEngine } from './sync-engine.ts';
import { profileHeaders } from './wire.ts';

/** `profile-locked`: the active profile has a PIN this device must enter first (decision 104). */
export type RestoreResult = 'ok' | 'signed-out' | 'failed' | 'no-account' | 'profile-locked';
export type PullResult = 'ok' | 'failed' | 'no-account';
type RestoreStep = RestoreResult | 'profile-gone';

const library = () => useLibraryStore.getState();
const account = () => useAccountStore.getState().account;

interface ChangesRead {
  server: string;
  bookmarks: LibraryRead<'bookmarks'> | null;
  progress: LibraryRead<'progress'> | null;
  /** Null also when the account's server keeps no watch history (the older family). */
  history: LibraryRead<'history'> | null;
  /** Null also when the account's server keeps no ratings (the older family, decision 103). */
  ratings: LibraryRead<'ratings'> | null;
  /** The order of named lists, read with bookmarks; null also when the server keeps none (the older family). */
  groupOrder: string[] | null;
  settings: Partial<UserSettings> | null;
}

/**
 * Reads what changed in the account's library since this device's marks (conditional, paged; decision
 * 072), for the kinds asked. Throws the ApiError of a failed read.
 */
async function readChanges(
  current: Account,
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
  /** A kind asked for; a server of the older family has no newer kinds: nothing to read, not a failure. */
  const read = async <K extends LibraryKind>(kind: K): Promise<LibraryRead<K> | null> => {
    if (!kinds.includes(kind)) return null;
    const mark = usableMark(server, current.sessionId, profile, kind, library(), transport.now());
    const reading = readLibrary(kind, uid, mark, transport);
    return isNewerKind(kind) ? unlessRouteMissing(reading) : reading;
  };
  const [bookmarks, progress, history, ratings, settings, groupOrder] = await Promise.all([
    read('bookmarks'),
    read('progress'),
    read('history'),
    read('ratings'),
    kinds.includes('settings') ? api.sync.settings({ params: { uid }, headers }) : null,
    // One small row, no marks (decision 097): read whole whenever bookmarks are (older servers keep none).
    kinds.includes('bookmarks')
      ? unlessRouteMissing(api.sync.groupOrder({ params: { uid }, headers }).then((r) => r.groupOrder))
      : null,
  ]);
  return { server, bookmarks, progress, history, ratings, groupOrder, settings };
}

const sameNames = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((name, i) => name === b[i]);

/**
 * Merges a read into the device's library: the server's state with every pending change re-applied
 * over it (never overwriting a newer local change), then the marks, then synced settings. Ignored when
 * another profile became active meanwhile (its own read brings its library).
 */
function mergeChanges(current: Account, profile: string, read: ChangesRead) {
  if (library().profile !== profile) return;
  const held = library();
  let merged: LibraryData = {
    bookmarks: held.bookmarks,
    progress: held.progress,
    history: held.history ?? {},
    ratings: held.ratings ?? {},
    removals: held.removals,
  };
  const reads = [
    ['bookmarks', read.bookmarks],
    ['progress', read.progress],
    ['history', read.history],
    ['ratings', read.ratings],
  ] as const;
  for (const [kind, r] of reads) if (r) merged = applyLibraryRead<LibraryKind>(merged, kind, r);
  const order = read.groupOrder;
  const orderChanged = order !== null && !sameNames(order, held.groupOrder);
  if (orderChanged) merged = { ...merged, groupOrder: order };
  if (orderChanged || reads.some(([, r]) => r && r.kind !== 'unchanged'))
    library().mergeServer(merged, profile);
  // Saved after the library, so a mark never runs ahead of what the device holds.
  for (const [kind, r] of reads) {
    if (r?.kind === 'pages') saveMark(read.server, current.sessionId, profile, kind, r.mark);
  }
  if (read.settings) applySettings(read.settings, opsOfProfile(library().outbox, profile));
}

export interface RestoreDeps {
  /** Restore and pull run under its lock, so no acknowledgement slips between read and merge. */
  engine: Pick<SyncEngine, 'runExclusive' | 'unblock' | 'flush'>;
  /** The server refused the session: sign out on this device. */
  logout(): Promise<void>;
  /** The chosen household profile is gone: back to the account's own library. */
  forgetActiveProfile(): void;
  now?(): number;
}

export interface Restore {
  restore(): Promise<RestoreResult>;
  pull(kinds?: readonly LibraryChangeKind[]): Promise<PullResult>;
  /** When the library was last read from the server (0: not yet); reads are spaced by it. */
  lastPullAt(): number;
}

type Engine = RestoreDeps['engine'];

/** One pass: pending changes first, then the account's user, library and settings, merged. */
async function restoreOnce(engine: Engine): Promise<RestoreStep> {
  const result = await engine.runExclusive(async (drain): Promise<RestoreStep> => {
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
    let locked = false;
    const [read, customer] = await Promise.all([
      readChanges(current, profile, ALL_KINDS),
      // The customer view (admin flag, membership, household profiles); servers of the older family have none.
      api.customer.me().catch(() => null),
    ]).catch((error: unknown) => {
      gone = error instanceof ApiError && error.code === 'profile_not_found';
      locked = error instanceof ApiError && error.code === 'profile_locked';
      return [null, null] as const;
    });
    if (gone) return 'profile-gone';
    // The API client marked the profile locked here: the PIN screen asks for it (no failure to show).
    if (locked) return 'profile-locked';
    if (!read) return 'failed';
    // A passphrase household's names come sealed with the account's key (decision 108).
    const user =
      customer && current.kind !== 'email'
        ? await import('../account/profile-names.ts').then((m) => m.readableUser(current, customer.user))
        : customer?.user;
    if (account()?.token !== current.token) return 'no-account'; // signed out meanwhile
    useAccountStore.getState().updateAccount({ profile: me.user.profile, ...(user ? { user } : {}) });
    mergeChanges(current, profile, read);
    useAccountStore.getState().markRestored(clock.now().getTime());
    return 'ok';
  });
  return result ?? 'failed';
}

/** One read and merge under the engine's lock; 'restore' when the session or profile was refused. */
async function pullOnce(
  engine: Engine,
  kinds: readonly LibraryChangeKind[],
  pulled: () => void,
): Promise<PullResult | 'restore'> {
  const result = await engine.runExclusive(async (): Promise<PullResult | 'restore'> => {
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
    pulled();
    return 'ok';
  });
  return result ?? 'failed';
}

export function createRestore({
  engine,
  logout,
  forgetActiveProfile,
  now = () => Date.now(),
}: RestoreDeps): Restore {
  /** Owned here: restore and pull set it, `startSync` spaces its reads by it. */
  let lastPullAt = 0;

  /**
   * Account restore (decision 032): pending changes are sent first, then the account's
   * bookmarks, progress and settings are fetched and MERGED — the server's state with every change still
   * pending applied over it. 400/401/403 from /users/@me → logout; other failures keep everything local.
   */
  const restore = async (): Promise<RestoreResult> => {
    if (!account()) return 'no-account';
    useSessionStatus.setState({ restoring: true });
    try {
      let result = await restoreOnce(engine);
      if (result === 'profile-gone') {
        // The chosen household profile was deleted (on another device): back to the account's own library.
        forgetActiveProfile();
        result = await restoreOnce(engine);
      }
      if (result === 'profile-gone') result = 'failed';
      if (result === 'signed-out') await logout();
      if (result === 'ok') {
        lastPullAt = now();
        engine.unblock();
        void engine.flush();
      }
      useSessionStatus.setState({ restoreFailed: result === 'failed' });
      return result;
    } finally {
      useSessionStatus.setState({ restoring: false });
    }
  };

  /**
   * Reads what changed since this device's marks for these kinds and merges it (decision 079): what the
   * library stream, returning to the tab and opening home or My List ask for. A 304 costs nothing.
   * Refusals of the session or profile hand over to `restore`, which decides.
   */
  const pull = async (kinds: readonly LibraryChangeKind[] = ALL_KINDS): Promise<PullResult> => {
    const result = await pullOnce(engine, kinds, () => {
      lastPullAt = now();
    });
    if (result !== 'restore') return result;
    const restored = await restore();
    return restored === 'ok'
      ? 'ok'
      : restored === 'no-account' || restored === 'signed-out'
        ? 'no-account'
        : 'failed';
  };

  return { restore, pull, lastPullAt: () => lastPullAt };
}
