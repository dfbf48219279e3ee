import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_REJECTED, type OutboxOp } from '../../stores/library/outbox.ts';
import { storageKey } from '../../stores/persisted.ts';
import { appStorage, memoryStorage, setAppStorage } from '../storage.ts';
import { rejectedChangesFile, useRejectedChanges } from './rejected-changes.ts';

const op = (id: string): OutboxOp => ({
  id,
  at: 1,
  kind: 'bookmark-add',
  type: 'movie',
  tmdbId: id,
  meta: { title: `Film ${id}`, year: 2000, poster: null },
});
const refusal = { status: 400, code: 'validation_failed', message: 'The request is not valid' };

beforeEach(() => {
  setAppStorage(memoryStorage());
  useRejectedChanges.controls.hydrate();
});

describe('refused changes', () => {
  it('are stored on the device (they survive a reload), once per op, newest last', () => {
    const store = useRejectedChanges.getState();
    store.add(op('a'), refusal, 10);
    store.add(op('b'), { status: 413, code: 'payload_too_large', message: 'too big' }, 11);
    store.add(op('a'), refusal, 12);
    expect(useRejectedChanges.getState().rejected.map((r) => [r.op.id, r.at])).toEqual([
      ['b', 11],
      ['a', 12],
    ]);
    const raw = appStorage().getItem(storageKey('sync-rejected'))!;
    expect((JSON.parse(raw) as { state: { rejected: unknown[] } }).state.rejected).toHaveLength(2);
    // Another device's storage has none; this one's, read again after a reload, has both.
    setAppStorage(memoryStorage());
    useRejectedChanges.controls.hydrate();
    expect(useRejectedChanges.getState().rejected).toEqual([]);
    setAppStorage(memoryStorage({ [storageKey('sync-rejected')]: raw }));
    useRejectedChanges.controls.hydrate();
    expect(useRejectedChanges.getState().rejected.map((r) => r.op.id)).toEqual(['b', 'a']);
  });

  it('keep the newest ones only', () => {
    for (let i = 0; i < MAX_REJECTED + 5; i++) useRejectedChanges.getState().add(op(String(i)), refusal, i);
    const kept = useRejectedChanges.getState().rejected;
    expect(kept).toHaveLength(MAX_REJECTED);
    expect(kept[0]!.op.id).toBe('5');
  });

  it('are marked seen once the notice is dismissed, and can be forgotten', () => {
    useRejectedChanges.getState().add(op('a'), refusal, 1);
    expect(useRejectedChanges.getState().rejected[0]!.seen).toBe(false);
    useRejectedChanges.getState().markSeen();
    expect(useRejectedChanges.getState().rejected[0]!.seen).toBe(true);
    useRejectedChanges.getState().clear();
    expect(useRejectedChanges.getState().rejected).toEqual([]);
  });

  it('export as a JSON file with the change itself, when and why it was refused', async () => {
    useRejectedChanges.getState().add(op('a'), refusal, Date.UTC(2026, 0, 2));
    const file = rejectedChangesFile(useRejectedChanges.getState().rejected);
    expect(file.type).toBe('application/json');
    const parsed = JSON.parse(await file.text()) as { kind: string; changes: unknown[] };
    expect(parsed.kind).toBe('rejected-changes');
    expect(parsed.changes).toEqual([
      {
        refusedAt: '2026-01-02T00:00:00.000Z',
        status: 400,
        code: 'validation_failed',
        message: 'The request is not valid',
        change: op('a'),
      },
    ]);
  });
});
