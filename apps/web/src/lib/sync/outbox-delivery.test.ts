import type { Bookmark } from '@marquee/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initStores, useAccountStore, useLibraryStore } from '../../stores/index.ts';
import type { OutboxOp } from '../../stores/library/outbox.ts';
import { testAccount } from '../../test/account-fixtures.ts';
import { contractServer, refuse } from '../../test/contract-server.ts';
import { ApiError } from '../api/index.ts';
import { memoryStorage, setAppStorage } from '../storage.ts';
import { createOutboxDelivery, createOutboxEngine } from './outbox-delivery.ts';
import { useRejectedChanges } from './rejected-changes.ts';
import { requestFor } from './wire.ts';

const matrix = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };
const add: OutboxOp = {
  kind: 'bookmark-add',
  id: 'a',
  at: 1,
  type: 'movie',
  tmdbId: '603',
  meta: { title: 'The Matrix', year: 1999, poster: null },
};

let server: ReturnType<typeof contractServer>;
beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
  useAccountStore.getState().setAccount(testAccount());
  server = contractServer({ sync: { addBookmark: ({ body }) => body as Bookmark } });
  vi.stubGlobal('fetch', vi.fn(server.fetch));
});
afterEach(() => vi.unstubAllGlobals());

describe('outbox delivery', () => {
  it('a write to this instance carries the clock it is handed; to another account server, nothing is added', () => {
    const delivery = createOutboxDelivery({ now: () => 1_234 });
    expect(delivery.writeHeaders({ 'x-profile-id': 'kid' })).toEqual({
      'x-profile-id': 'kid',
      'x-client-time': '1234',
    });
    useAccountStore.getState().setBackendUrl('https://backend.example');
    expect(delivery.writeHeaders(undefined)).toBeUndefined();
    expect(delivery.writeHeaders({ 'x-profile-id': 'kid' })).toEqual({ 'x-profile-id': 'kid' });
  });

  it('writes outlive the page (keepalive) only while it is being left or hidden', async () => {
    let hidden = false;
    const delivery = createOutboxDelivery({ now: () => 1, pageHidden: () => hidden });
    await delivery.deliver(requestFor(add, 'u1'));
    delivery.setLeaving(true);
    expect(delivery.leaving()).toBe(true);
    await delivery.deliver(requestFor(add, 'u1'));
    delivery.setLeaving(false);
    hidden = true;
    await delivery.deliver(requestFor(add, 'u1'));
    expect(server.requests.map((r) => [r.endpoint, r.init.keepalive ?? false])).toEqual([
      ['sync.addBookmark', false],
      ['sync.addBookmark', true],
      ['sync.addBookmark', true],
    ]);
    expect(new Headers(server.requests[0]!.init.headers).get('x-client-time')).toBe('1');
  });

  it('the engine sends through the delivery it is handed; a 401 goes to the handler it is handed', async () => {
    const sent: string[] = [];
    const onAuthError = vi.fn();
    const engine = createOutboxEngine({
      deliver: async (request) => {
        sent.push(request.endpoint);
        throw new ApiError(401, 'unauthorized', 'session gone');
      },
      onAuthError,
    });
    useLibraryStore.getState().addBookmark(matrix);
    await engine.flush();
    expect(sent).toEqual(['addBookmark']);
    expect(onAuthError).toHaveBeenCalledTimes(1);
    // Kept until restore decides: the session may still be good.
    expect(useLibraryStore.getState().outbox.map((op) => op.kind)).toEqual(['bookmark-add']);
    expect(server.requests).toEqual([]);
  });

  it('the order of lists goes out as a bare array; a server of the older family (404/405) keeps it on the device', async () => {
    const bodies: unknown[] = [];
    let missing: number | null = null;
    server = contractServer({
      sync: {
        putGroupOrder: ({ body }) => {
          if (missing) return refuse(missing, { code: 'route_not_found' });
          bodies.push(body);
          return { groupOrder: body as string[] };
        },
      },
    });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
    const engine = createOutboxEngine({ deliver: createOutboxDelivery().deliver, onAuthError: vi.fn() });
    useLibraryStore.getState().setGroupOrder(['Weekend', 'Kids']);
    await engine.flush();
    expect(bodies).toEqual([['Weekend', 'Kids']]);
    expect(useLibraryStore.getState().outbox).toEqual([]);

    for (const status of [404, 405]) {
      missing = status;
      useLibraryStore.getState().setGroupOrder([`Only here ${status}`]);
      await engine.flush();
      expect(server.requests.at(-1)!.endpoint).toBe('sync.putGroupOrder');
      expect(useLibraryStore.getState().outbox).toEqual([]);
      expect(useRejectedChanges.getState().rejected).toEqual([]);
      expect(useLibraryStore.getState().groupOrder).toEqual([`Only here ${status}`]);
    }
  });

  it('a rating goes to PUT …/ratings/:tmdbId with its value, day and change time; a removal names its kind', async () => {
    const seen: {
      endpoint: string;
      params: Record<string, string>;
      body: unknown;
      profile: string | null;
    }[] = [];
    server = contractServer({
      ratings: {
        putRating: ({ params, body, headers }) => {
          seen.push({ endpoint: 'put', params, body, profile: headers.get('x-profile-id') });
          const b = body as { type: 'movie'; rating: number; ratedAt: string; updatedAt: string };
          const meta = { title: 'Heat', year: 1995, type: 'movie' };
          return {
            tmdbId: params.tmdbId!,
            type: b.type,
            meta,
            rating: b.rating,
            ratedAt: b.ratedAt,
            updatedAt: b.updatedAt,
          };
        },
        deleteRating: ({ params, body, headers }) => {
          seen.push({ endpoint: 'delete', params, body, profile: headers.get('x-profile-id') });
          return { success: true, count: 1, tmdbId: params.tmdbId! };
        },
      },
    });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
    const engine = createOutboxEngine({ deliver: createOutboxDelivery().deliver, onAuthError: vi.fn() });
    const heat = { tmdbId: '949', type: 'movie' as const, title: 'Heat', year: 1995, poster: null };
    useLibraryStore.getState().rate(heat, 8, { ratedAt: Date.UTC(2024, 4, 1) });
    await engine.flush();
    useLibraryStore.setState({ profile: 'kid' });
    useLibraryStore.getState().unrate('movie', '949');
    await engine.flush();
    const removedAt = new Date(useLibraryStore.getState().removals.ratings!['movie:949']!).toISOString();
    expect(seen[0]).toMatchObject({
      endpoint: 'put',
      params: { uid: 'u1', tmdbId: '949' },
      body: {
        type: 'movie',
        meta: { title: 'Heat', year: 1995, type: 'movie' },
        rating: 8,
        ratedAt: '2024-05-01T00:00:00.000Z',
      },
      profile: null,
    });
    expect(typeof (seen[0]!.body as { updatedAt: unknown }).updatedAt).toBe('string');
    expect(seen[1]).toEqual({
      endpoint: 'delete',
      params: { uid: 'u1', tmdbId: '949' },
      body: { type: 'movie', updatedAt: removedAt },
      profile: 'kid',
    });
    expect(useLibraryStore.getState().outbox).toEqual([]);
  });

  it('a server of the older family (no ratings routes: 404/405) keeps ratings on the device, refusing nothing', async () => {
    for (const status of [404, 405]) {
      server = contractServer({
        ratings: {
          putRating: () => refuse(status, { code: 'route_not_found' }),
          deleteRating: () => refuse(status, { code: 'route_not_found' }),
        },
      });
      vi.stubGlobal('fetch', vi.fn(server.fetch));
      const engine = createOutboxEngine({ deliver: createOutboxDelivery().deliver, onAuthError: vi.fn() });
      useLibraryStore.getState().rate({ ...matrix, tmdbId: `6${status}` }, 9);
      useLibraryStore.getState().unrate('movie', '603');
      await engine.flush();
      expect(server.requests.map((r) => r.endpoint)).toEqual(['ratings.putRating', 'ratings.deleteRating']);
      expect(useLibraryStore.getState().outbox).toEqual([]);
      expect(useRejectedChanges.getState().rejected).toEqual([]);
      expect(useLibraryStore.getState().ratings[`movie:6${status}`]!.rating).toBe(9);
    }
    // A household profile that is gone is not that: a 404 naming it is a refusal restore decides on.
    server = contractServer({ ratings: { putRating: () => refuse(404, { code: 'profile_not_found' }) } });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
    const failing = createOutboxDelivery();
    await expect(
      failing.deliver({
        endpoint: 'putRating',
        params: { uid: 'u1', tmdbId: '603' },
        body: { type: 'movie', meta: { title: 'The Matrix', type: 'movie' }, rating: 5 },
      }),
    ).rejects.toMatchObject({ status: 404, code: 'profile_not_found' });
  });
});
