import { useAccountStore } from '../../stores/account-store.ts';
import { useLibraryStore } from '../../stores/library/library-store.ts';
import { newOpId, type LibraryData, type OutboxOp } from '../../stores/library/outbox.ts';
import { isRatingEntry } from '../../stores/library/ratings-view.ts';
import { api } from '../api/index.ts';
import { unlessRouteMissing } from './library-kinds.ts';
import type { OutboxDelivery } from './outbox-delivery.ts';
import { importPayload } from './wire.ts';

/** Items per import request (a page of progress rows is about 400 KB). */
export const IMPORT_PAGE_SIZE = 1_000;

/** Sends `items` in pages of IMPORT_PAGE_SIZE, one after another. */
export async function inPages<T>(items: T[], send: (page: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += IMPORT_PAGE_SIZE) await send(items.slice(i, i + IMPORT_PAGE_SIZE));
}

export interface LocalImportDeps {
  /** The headers every write carries (the device clock, decision 079). */
  writeHeaders: OutboxDelivery['writeHeaders'];
}

/**
 * After sign-in: the library kept on this device before signing in goes into the account (merged on
 * the server by change time). If the server cannot take it now, every item becomes an outbox op, so
 * nothing is lost; the restore that follows keeps what is still pending.
 */
export function createLocalImport({ writeHeaders }: LocalImportDeps): () => Promise<void> {
  return async function importLocalData() {
    const current = useAccountStore.getState().account;
    if (!current) return;
    const data = useLibraryStore.getState();
    if (
      Object.keys(data.bookmarks).length === 0 &&
      Object.keys(data.progress).length === 0 &&
      Object.keys(data.history).length === 0 &&
      Object.keys(data.ratings).length === 0
    )
      return;
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
        // A server of the older family keeps no history nor ratings: they stay on this device.
        unlessRouteMissing(
          inPages(payload.history, (body) =>
            api.history.importWatchHistory({ params: { uid }, body, headers: writeHeaders({}) }),
          ),
        ),
        unlessRouteMissing(
          inPages(payload.ratings, (body) =>
            api.ratings.importRatings({ params: { uid }, body, headers: writeHeaders({}) }),
          ),
        ),
      ]);
    } catch {
      queueAsOps(useLibraryStore.getState());
      return;
    }
    await mergeGroupOrder(uid, data.groupOrder, writeHeaders).catch(() => undefined);
  };
}

/**
 * The order of lists kept before sign-in joins the account's: the account's order first (another device
 * may have arranged it), then this device's lists it does not name yet, in this device's order. Sent
 * only when that changes the account's order (a PUT replaces the whole order). A server of the older
 * family keeps no order: nothing to do. The restore that follows brings the merged order to the device.
 */
async function mergeGroupOrder(
  uid: string,
  local: readonly string[],
  writeHeaders: LocalImportDeps['writeHeaders'],
) {
  if (local.length === 0) return;
  const answer = await unlessRouteMissing(
    api.sync.groupOrder({ params: { uid }, headers: writeHeaders({}) }),
  );
  if (!answer) return;
  const held = answer.groupOrder;
  const merged = mergedOrder(held, local);
  if (merged.length === held.length) return;
  await api.sync.putGroupOrder({ params: { uid }, body: merged, headers: writeHeaders({}) });
}

/** `held` first, then the names of `local` it lacks, in `local`'s order. */
export function mergedOrder(held: readonly string[], local: readonly string[]): string[] {
  const names = new Set(held);
  return [...held, ...local.filter((name) => !names.has(name))];
}

/**
 * Puts every bookmark, progress row, play and rating of `data` in the outbox, ahead of what is there: an
 * import the account could not take now is sent by the outbox later, so nothing is lost. `profile`: whose
 * library they belong to ('' = the account's own).
 */
export function queueAsOps(data: LibraryData, profile = ''): void {
  const { bookmarks, progress } = data;
  const history = data.history ?? {};
  const ratings = data.ratings ?? {};
  useLibraryStore.setState((s) => {
    const ops: OutboxOp[] = [];
    const id = () => `import-${newOpId()}`;
    for (const b of Object.values(bookmarks))
      ops.push({
        kind: 'bookmark-add',
        id: id(),
        at: b.updatedAt,
        type: b.type,
        tmdbId: b.tmdbId,
        meta: { title: b.title, year: b.year, poster: b.poster },
        ...(b.groups ? { groups: b.groups } : {}),
        ...(b.favoriteEpisodes ? { favoriteEpisodes: b.favoriteEpisodes } : {}),
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
    for (const play of Object.values(history))
      ops.push({
        kind: 'history-add',
        id: id(),
        at: play.updatedAt,
        type: play.type,
        tmdbId: play.tmdbId,
        meta: { title: play.title, year: play.year, poster: play.poster },
        ...(play.season && play.episode ? { season: play.season, episode: play.episode } : {}),
        watchedAt: play.watchedAt,
        watched: play.watched,
        duration: play.duration,
        completed: play.completed,
        imported: true,
      });
    for (const r of Object.values(ratings).filter(isRatingEntry))
      ops.push({
        kind: 'rating-put',
        id: id(),
        at: r.updatedAt,
        type: r.type,
        tmdbId: r.tmdbId,
        meta: { title: r.title, year: r.year, poster: r.poster },
        rating: r.rating,
        ratedAt: r.ratedAt,
      });
    const owned = profile ? ops.map((op) => ({ ...op, profile })) : ops;
    return { outbox: [...owned, ...s.outbox] };
  });
}
