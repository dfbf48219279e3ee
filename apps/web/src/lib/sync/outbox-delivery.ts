import { CLIENT_TIME_HEADER } from '@marquee/contract/values';
import { isProfileShut, kidsLimitOf, useAccountStore } from '../../stores/account-store.ts';
import { useLibraryStore } from '../../stores/library/library-store.ts';
import type { OutboxOp } from '../../stores/library/outbox.ts';
import { accountBaseUrl, api, ApiError } from '../api/index.ts';
import { clock } from '../clock.ts';
import { unlessRouteMissing } from './library-kinds.ts';
import { useRejectedChanges } from './rejected-changes.ts';
import { SyncEngine, webLock } from './sync-engine.ts';
import { requestFor, type WireRequest } from './wire.ts';

/** How the outbox's writes leave this device: the headers they carry and whether they outlive the page. */
export interface OutboxDelivery {
  /** Sends one outbox op with the sync endpoint it names. */
  deliver(input: WireRequest): Promise<unknown>;
  /** Headers of a write to the account server (the device clock when it is this instance). */
  writeHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined;
  /** Whether the page is being left. */
  leaving(): boolean;
  /** Set on `pagehide`, cleared on `pageshow`. */
  setLeaving(leaving: boolean): void;
}

export interface OutboxDeliveryDeps {
  /** This device's clock, in ms (the one `?now=` pins). */
  now?(): number;
  /** The page is hidden: writes go out with `keepalive` then too. */
  pageHidden?(): boolean;
}

const documentHidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

export function createOutboxDelivery({
  now = () => clock.now().getTime(),
  pageHidden = documentHidden,
}: OutboxDeliveryDeps = {}): OutboxDelivery {
  /** Set while the page is being left: writes go out with `keepalive`, so they outlive it. */
  let leaving = false;

  /**
   * The server corrects change times by the device's offset (decision 079), so a write carries this
   * device's clock — only to this instance: another origin's server of the family would have to allow
   * the header first.
   */
  const writeHeaders = (headers: Record<string, string> | undefined) => {
    if (accountBaseUrl() !== '') return headers;
    return { ...headers, [CLIENT_TIME_HEADER]: String(now()) };
  };

  /**
   * An account server of the older family keeps no watch history, ratings nor order of lists (it answers
   * their routes 404 or 405): the change stays on this device and the write is done — not a refused
   * change to show the viewer. A 404 of a household profile that is gone is not that: restore decides.
   */
  const deliver = (input: WireRequest): Promise<unknown> => {
    const headers = writeHeaders(input.headers);
    const r = {
      ...input,
      ...(headers ? { headers } : {}),
      ...(leaving || pageHidden() ? { keepalive: true } : {}),
    };
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
      case 'putGroupOrder':
        // An older server keeps no order of lists: it stays on this device.
        return unlessRouteMissing(api.sync.putGroupOrder(r));
      case 'putWatchHistory':
        return unlessRouteMissing(api.history.putWatchHistory(r));
      case 'importWatchHistory':
        return unlessRouteMissing(api.history.importWatchHistory(r));
      case 'deleteWatchHistory':
        return unlessRouteMissing(api.history.deleteWatchHistory(r));
      case 'putRating':
        return unlessRouteMissing(api.ratings.putRating(r));
      case 'deleteRating':
        return unlessRouteMissing(api.ratings.deleteRating(r));
    }
  };

  return {
    deliver,
    writeHeaders,
    leaving: () => leaving,
    setLeaving: (value) => {
      leaving = value;
    },
  };
}

export interface OutboxEngineDeps {
  deliver: OutboxDelivery['deliver'];
  /** 401/403: restore decides whether the session is still good. */
  onAuthError(): void;
}

/** The engine that sends the library store's outbox to the signed-in account (decision 031). */
export function createOutboxEngine({ deliver, onAuthError }: OutboxEngineDeps): SyncEngine {
  const library = () => useLibraryStore.getState();
  const account = () => useAccountStore.getState().account;
  return new SyncEngine({
    outbox: () => library().outbox,
    remove: (id) => library().removeOp(id),
    reject: (op, refusal) => useRejectedChanges.getState().add(op, refusal, Date.now()),
    canSend: () => account() !== null,
    send: async (op: OutboxOp) => {
      const uid = account()?.userId;
      if (!uid) throw new ApiError(401, 'unauthorized', 'signed out');
      await deliver(requestFor(op, uid));
    },
    onAuthError,
    // A kids' profile's device sends only the kid's changes: the others wait until it leaves (decision 106).
    isHeld: (op) =>
      isProfileShut(account(), op.profile ?? '') ||
      (kidsLimitOf(account()) !== null && (op.profile ?? '') !== account()?.profileId),
    now: () => Date.now(),
    lock: webLock,
  });
}
