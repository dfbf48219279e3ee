import { describe, expect, it, vi } from 'vitest';
import type { OutboxOp } from '../../stores/library/outbox.ts';
import { ApiError } from '../api/index.ts';
import { backoffDelay } from './backoff.ts';
import { SyncEngine } from './sync-engine.ts';

const op = (id: string): OutboxOp => ({ id, at: 1, kind: 'bookmark-remove', type: 'movie', tmdbId: id });

function harness(answers: Record<string, Array<number | 'ok' | 'throw'>>) {
  let outbox = ['a', 'b', 'c'].map(op);
  const sent: string[] = [];
  const rejected: Array<{ id: string; status: number; code: string }> = [];
  let now = 0;
  const timers: Array<{ fn: () => void; at: number }> = [];
  const onAuthError = vi.fn();
  const log = vi.fn();
  const engine = new SyncEngine({
    outbox: () => outbox,
    remove: (id) => (outbox = outbox.filter((o) => o.id !== id)),
    reject: (o, refusal) => rejected.push({ id: o.id, status: refusal.status, code: refusal.code }),
    canSend: () => true,
    send: async (o) => {
      sent.push(o.id);
      const answer = answers[o.id]?.shift() ?? 'ok';
      if (answer === 'throw') throw new TypeError('cannot build the request');
      if (answer !== 'ok')
        throw new ApiError(answer, answer === 400 ? 'validation_failed' : 'unknown', `HTTP ${answer}`);
    },
    onAuthError,
    now: () => now,
    random: () => 0.5,
    timers: { set: (fn, ms) => timers.push({ fn, at: now + ms }), clear: () => undefined },
    log,
  });
  return {
    engine,
    sent,
    onAuthError,
    log,
    timers,
    rejected,
    pending: () => outbox.map((o) => o.id),
    advance: (ms: number) => (now += ms),
  };
}

describe('backoff', () => {
  it('doubles from 1 s up to 5 minutes, with jitter in the upper half', () => {
    expect(backoffDelay(1, { random: () => 0 })).toBe(500);
    expect(backoffDelay(1, { random: () => 1 })).toBe(1000);
    expect(backoffDelay(4, { random: () => 1 })).toBe(8000);
    expect(backoffDelay(30, { random: () => 1 })).toBe(300_000);
    expect(backoffDelay(30, { random: () => 0 })).toBe(150_000);
  });
});

describe('sync engine', () => {
  it('sends in order and removes each op once acknowledged', async () => {
    const h = harness({});
    await h.engine.flush();
    expect(h.sent).toEqual(['a', 'b', 'c']);
    expect(h.pending()).toEqual([]);
  });

  it('a network error or 5xx keeps the op and retries it after a growing backoff, keeping the order', async () => {
    const h = harness({ b: [0, 503, 'ok'] });
    await h.engine.flush();
    expect(h.sent).toEqual(['a', 'b']);
    expect(h.pending()).toEqual(['b', 'c']);
    expect(h.engine.state.attempt).toBe(1);
    const first = h.engine.state.retryAt;
    expect(first).toBe(750);
    // Before the backoff ends nothing is sent.
    await h.engine.flush();
    expect(h.sent).toEqual(['a', 'b']);
    h.advance(first);
    await h.engine.flush();
    expect(h.engine.state.attempt).toBe(2);
    expect(h.engine.state.retryAt - first).toBe(1500);
    h.advance(1500);
    await h.engine.flush();
    expect(h.sent).toEqual(['a', 'b', 'b', 'b', 'c']);
    expect(h.pending()).toEqual([]);
    expect(h.engine.state.attempt).toBe(0);
  });

  it('holds progress saved while playing until it is due; the ops behind it go on; a pass runs when due', async () => {
    let now = 0;
    const sent: string[] = [];
    const timers: { fn: () => void; at: number }[] = [];
    // `a` is a progress write saved while playing, due at 15 s.
    let ops: OutboxOp[] = [{ ...op('a'), sendAfter: 15_000 }, op('b'), op('c')];
    const engine = new SyncEngine({
      outbox: () => ops,
      remove: (id) => (ops = ops.filter((o) => o.id !== id)),
      canSend: () => true,
      send: async (o) => void sent.push(o.id),
      onAuthError: () => undefined,
      now: () => now,
      timers: { set: (fn, ms) => timers.push({ fn, at: now + ms }), clear: () => undefined },
    });
    await engine.flush();
    expect(sent).toEqual(['b', 'c']);
    expect(ops.map((o) => o.id)).toEqual(['a']);
    expect(timers.map((t) => t.at)).toEqual([15_000]);
    now = 15_000;
    timers[0]!.fn();
    await expect.poll(() => sent).toEqual(['b', 'c', 'a']);
    expect(ops).toEqual([]);
  });

  it('429 is retried too', async () => {
    const h = harness({ a: [429] });
    await h.engine.flush();
    expect(h.pending()).toEqual(['a', 'b', 'c']);
    expect(h.timers).toHaveLength(1);
  });

  it('another 4xx can never succeed: the op is rejected (kept for the user), the rest goes on', async () => {
    const h = harness({ b: [400] });
    await h.engine.flush();
    expect(h.sent).toEqual(['a', 'b', 'c']);
    expect(h.pending()).toEqual([]);
    expect(h.rejected).toEqual([{ id: 'b', status: 400, code: 'validation_failed' }]);
    expect(h.log).toHaveBeenCalledTimes(1);
    expect(h.engine.state.attempt).toBe(0);
  });

  it('a 4xx on the first op never blocks the ops behind it, while a 5xx before them still does', async () => {
    const refused = harness({ a: [413] });
    await refused.engine.flush();
    expect(refused.sent).toEqual(['a', 'b', 'c']);
    expect(refused.rejected.map((r) => r.id)).toEqual(['a']);
    const failing = harness({ a: [500] });
    await failing.engine.flush();
    expect(failing.sent).toEqual(['a']);
    expect(failing.pending()).toEqual(['a', 'b', 'c']);
    expect(failing.rejected).toEqual([]);
  });

  it('an op that cannot even be sent is rejected instead of retried for ever', async () => {
    const h = harness({ a: ['throw'] });
    await h.engine.flush();
    expect(h.sent).toEqual(['a', 'b', 'c']);
    expect(h.rejected).toEqual([{ id: 'a', status: 0, code: 'unsendable' }]);
    expect(h.timers).toHaveLength(0);
  });

  it('401/403 stops sending and asks restore; once unblocked a second refusal drops the op', async () => {
    const h = harness({ a: [401, 403] });
    await h.engine.flush();
    expect(h.onAuthError).toHaveBeenCalledTimes(1);
    expect(h.pending()).toEqual(['a', 'b', 'c']);
    await h.engine.flush();
    expect(h.sent).toEqual(['a']);
    h.engine.unblock();
    await h.engine.flush();
    expect(h.pending()).toEqual([]);
    expect(h.rejected).toEqual([{ id: 'a', status: 403, code: 'unknown' }]);
    expect(h.log).toHaveBeenCalledTimes(1);
  });

  it('online resets the backoff', async () => {
    const h = harness({ a: [0] });
    await h.engine.flush();
    expect(h.pending()).toHaveLength(3);
    h.engine.resetBackoff();
    await h.engine.flush();
    expect(h.pending()).toEqual([]);
  });
});

describe('sync engine and PIN-locked profiles (decision 104)', () => {
  const opOf = (id: string, profile: string): OutboxOp => ({ ...op(id), profile });

  it('keeps a locked profile’s ops, in order, while the other libraries’ ops go on', async () => {
    let outbox = [opOf('k1', 'kid'), opOf('t1', 'teen'), opOf('k2', 'kid'), opOf('t2', 'teen')];
    const shut = new Set<string>();
    const sent: string[] = [];
    const onAuthError = vi.fn();
    const reject = vi.fn();
    const engine = new SyncEngine({
      outbox: () => outbox,
      remove: (id) => (outbox = outbox.filter((o) => o.id !== id)),
      reject,
      canSend: () => true,
      isHeld: (o) => shut.has(o.profile ?? ''),
      send: async (o) => {
        sent.push(o.id);
        if (o.profile === 'kid' && !unlocked) {
          // The server refuses it; the API client marks the profile locked on this device.
          shut.add('kid');
          throw new ApiError(403, 'profile_locked', 'locked');
        }
      },
      onAuthError,
      now: () => 0,
    });
    let unlocked = false;
    await engine.flush();
    expect(sent).toEqual(['k1', 't1', 't2']);
    expect(outbox.map((o) => o.id)).toEqual(['k1', 'k2']);
    expect(reject).not.toHaveBeenCalled();
    expect(onAuthError).not.toHaveBeenCalled();
    // The PIN entered again (the restore that follows unblocks): the kid's changes go, in their order.
    unlocked = true;
    shut.delete('kid');
    engine.unblock();
    await engine.flush();
    expect(sent.slice(3)).toEqual(['k1', 'k2']);
    expect(outbox).toEqual([]);
  });

  it('a profile refused as locked waits even before this device knew of its PIN, until restore unblocks', async () => {
    let outbox = [opOf('k1', 'kid'), opOf('o1', '')];
    let locked = true;
    const sent: string[] = [];
    const onAuthError = vi.fn();
    const engine = new SyncEngine({
      outbox: () => outbox,
      remove: (id) => (outbox = outbox.filter((o) => o.id !== id)),
      canSend: () => true,
      isHeld: () => false,
      send: async (o) => {
        sent.push(o.id);
        if (o.profile === 'kid' && locked) throw new ApiError(403, 'profile_locked', 'locked');
      },
      onAuthError,
      now: () => 0,
    });
    await engine.flush();
    expect(sent).toEqual(['k1', 'o1']);
    expect(outbox.map((o) => o.id)).toEqual(['k1']);
    expect(onAuthError).not.toHaveBeenCalled();
    await engine.flush();
    expect(sent).toEqual(['k1', 'o1']);
    locked = false;
    engine.unblock();
    await engine.flush();
    expect(outbox).toEqual([]);
  });

  it('a device in a kids’ profile keeps the other profiles’ changes until it leaves, and sends the kid’s', async () => {
    // Made on the parent's profile before the device entered the kid's (decision 106).
    let outbox = [opOf('p1', ''), opOf('k1', 'kid'), opOf('p2', '')];
    let inKids = true;
    const sent: string[] = [];
    const reject = vi.fn();
    const onAuthError = vi.fn();
    const engine = new SyncEngine({
      outbox: () => outbox,
      remove: (id) => (outbox = outbox.filter((o) => o.id !== id)),
      reject,
      canSend: () => true,
      isHeld: () => false,
      send: async (o) => {
        sent.push(o.id);
        if (inKids && o.profile !== 'kid') throw new ApiError(403, 'kids_profile', 'kids');
      },
      onAuthError,
      now: () => 0,
    });
    await engine.flush();
    expect(sent).toEqual(['p1', 'k1']);
    expect(outbox.map((o) => o.id)).toEqual(['p1', 'p2']);
    expect(reject).not.toHaveBeenCalled();
    expect(onAuthError).not.toHaveBeenCalled();
    // The device enters the parent's profile (its PIN); the restore that follows unblocks.
    inKids = false;
    engine.unblock();
    await engine.flush();
    expect(sent.slice(2)).toEqual(['p1', 'p2']);
    expect(outbox).toEqual([]);
  });
});
