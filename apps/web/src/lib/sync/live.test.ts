import { syncRoutes } from '@marquee/contract/values';
import type { LibraryChangeKind } from '@marquee/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initStores, useAccountStore, useLibraryStore } from '../../stores/index.ts';
import { testAccount } from '../../test/account-fixtures.ts';
import { contractServer, eventStream, refuse, type FakeRequest } from '../../test/contract-server.ts';
import { memoryStorage, setAppStorage } from '../storage.ts';
import { startLive } from './live.ts';

/** Every kind of the library, in the order a catch-up reads them. */
const ALL = ['bookmarks', 'progress', 'history', 'ratings', 'settings'];

const account = testAccount();

/** A stream the test writes to while it is open. */
function liveStream() {
  let push: (text: string) => void = () => undefined;
  const response = new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(new TextEncoder().encode(text));
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );
  return { response, send: (text: string) => push(text) };
}

/** Streams the client closed (cancelled its body). */
let cancelled = 0;
/** A stream that stays open until the client closes it (as the server's does between events). */
function openStream(first: string): Response {
  const bytes = new TextEncoder().encode(first);
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
      },
      cancel() {
        cancelled += 1;
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );
}

let stop: (() => void) | undefined;
beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
});
afterEach(() => {
  stop?.();
  stop = undefined;
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function start(answers: ((request: FakeRequest) => Response | ReturnType<typeof refuse>)[]) {
  const pulls: LibraryChangeKind[][] = [];
  const connections: FakeRequest[] = [];
  const onAuthProblem = vi.fn();
  const server = contractServer({
    sync: {
      events: (request) => {
        connections.push(request);
        const answer = answers[Math.min(connections.length - 1, answers.length - 1)]!;
        return answer(request) as never;
      },
    },
  });
  vi.stubGlobal('fetch', vi.fn(server.fetch));
  stop = startLive({
    onChange: async (kinds) => void pulls.push([...kinds]),
    onAuthProblem,
    random: () => 0,
  });
  return { pulls, connections, onAuthProblem };
}

describe('the library stream (live changes from other devices)', () => {
  it('connects when signed in; reads everything on ready, the kind named on changed, everything on resync', async () => {
    const server = liveStream();
    const live = start([() => server.response]);
    expect(live.connections).toHaveLength(0);
    useAccountStore.getState().setAccount(account);
    await expect.poll(() => live.connections.length).toBe(1);
    expect(live.connections[0]!.headers.get('authorization')).toBe('Bearer t');
    expect(live.connections[0]!.headers.get('accept')).toBe('text/event-stream');
    server.send('event: ready\ndata: {"heartbeatMs":25000}\n\n');
    await expect
      .poll(() => live.pulls)
      .toEqual([['bookmarks', 'progress', 'history', 'ratings', 'settings']]);
    server.send(': keep-alive\n\nevent: changed\ndata: {"kind":"progress"}\n\n');
    await expect.poll(() => live.pulls.at(-1)).toEqual(['progress']);
    server.send('event: resync\ndata: {}\n\n');
    await expect.poll(() => live.pulls).toHaveLength(3);
    expect(live.pulls.at(-1)).toEqual(ALL);
  });

  it('catches up after the stream ends: it reconnects (backoff) and reads everything changed since', async () => {
    useAccountStore.getState().setAccount(account);
    const live = start([
      () => eventStream(syncRoutes.events, [{ event: 'ready', data: { heartbeatMs: 25_000 } }]),
      () => openStream('event: ready\ndata: {"heartbeatMs":25000}\n\n'),
    ]);
    await expect.poll(() => live.connections.length, { timeout: 5_000 }).toBe(2);
    await expect.poll(() => live.pulls.length).toBe(2);
    // Every kind, each time: a catch-up after a reconnect misses none.
    expect(live.pulls).toEqual([ALL, ALL]);
  });

  it('a household profile’s stream names the profile; signing out closes it and nothing reconnects', async () => {
    useLibraryStore.setState({ profile: 'kid' });
    useAccountStore.getState().setAccount(account);
    const live = start([() => openStream('event: ready\ndata: {"heartbeatMs":25000}\n\n')]);
    await expect.poll(() => live.connections.length).toBe(1);
    expect(live.connections[0]!.headers.get('x-profile-id')).toBe('kid');
    const before = cancelled;
    vi.useFakeTimers();
    useAccountStore.getState().setAccount(null);
    await vi.advanceTimersByTimeAsync(0);
    expect(cancelled).toBe(before + 1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(live.connections).toHaveLength(1);
  });

  it('a server of the older family (no stream: 404) is not asked again; 401 hands over to restore', async () => {
    vi.useFakeTimers();
    useAccountStore.getState().setAccount(account);
    const older = start([() => refuse(404, { code: 'route_not_found' })]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(older.connections).toHaveLength(1);
    stop?.();

    const expired = start([() => refuse(401, { code: 'unauthorized' })]);
    await vi.advanceTimersByTimeAsync(0);
    expect(expired.onAuthProblem).toHaveBeenCalledTimes(1);
    // Retried with backoff (restore may have confirmed the session).
    await vi.advanceTimersByTimeAsync(2_000);
    expect(expired.connections.length).toBeGreaterThan(1);
  });
});
