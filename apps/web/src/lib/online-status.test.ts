import { describe, expect, it, vi } from 'vitest';
import { OnlineStatus } from './online-status.ts';

function harness(results: boolean[]) {
  const calls: number[] = [];
  let tick = 0;
  const status = new OnlineStatus(async () => {
    calls.push(tick);
    return results.shift() ?? true;
  });
  return {
    status,
    calls,
    async run(ticks: number) {
      for (let i = 0; i < ticks; i += 1) {
        tick += 1;
        await status.onTick();
      }
    },
  };
}

describe('online status (ping every 5 s, every 10th tick while online)', () => {
  it('pings only on every 10th tick while online', async () => {
    const h = harness([]);
    await h.run(25);
    expect(h.calls).toEqual([10, 20]);
    expect(h.status.isOnline).toBe(true);
  });

  it('goes offline on a failed ping and retries every tick until one succeeds', async () => {
    const h = harness([false, false, false, true]);
    const seen: boolean[] = [];
    h.status.subscribe(() => seen.push(h.status.isOnline));
    await h.run(10);
    expect(h.status.isOnline).toBe(false);
    await h.run(3);
    expect(h.calls).toEqual([10, 11, 12, 13]);
    expect(h.status.isOnline).toBe(true);
    expect(seen).toEqual([false, true]);
  });

  it('treats a throwing ping (network error) as offline', async () => {
    const status = new OnlineStatus(async () => {
      throw new TypeError('Failed to fetch');
    });
    for (let i = 0; i < 10; i += 1) await status.onTick();
    expect(status.isOnline).toBe(false);
  });
});

describe("online status and the browser's own events", () => {
  it('starts offline when the browser is (the app opened from the service worker’s cache)', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const status = new OnlineStatus(async () => true, 60_000, new EventTarget());
    status.start();
    try {
      expect(status.isOnline).toBe(false);
    } finally {
      status.stop();
      vi.restoreAllMocks();
    }
  });

  it('goes offline at once on the offline event, and checks at once on the online event', async () => {
    const events = new EventTarget();
    let pings = 0;
    let answer = false;
    const status = new OnlineStatus(
      async () => {
        pings += 1;
        return answer;
      },
      60_000,
      events,
    );
    status.start();
    try {
      events.dispatchEvent(new Event('offline'));
      expect(status.isOnline).toBe(false);
      expect(pings).toBe(0);

      // Back online: one ping now, not at the next tick; still offline until a ping succeeds.
      events.dispatchEvent(new Event('online'));
      await vi.waitFor(() => expect(pings).toBe(1));
      expect(status.isOnline).toBe(false);
      answer = true;
      events.dispatchEvent(new Event('online'));
      await vi.waitFor(() => expect(status.isOnline).toBe(true));
      expect(pings).toBe(2);
    } finally {
      status.stop();
    }
    // Stopped: the events no longer reach it.
    events.dispatchEvent(new Event('offline'));
    expect(status.isOnline).toBe(true);
  });
});
