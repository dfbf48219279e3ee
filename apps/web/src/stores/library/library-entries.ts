import type { LibraryStoreData } from './library-store.ts';
import type { OutboxOp, Removals } from './outbox.ts';

/**
 * The library as separate entries (docs/decisions/080), so saving a change writes the entries it
 * touched, not the whole library: `b:<key>` a bookmark, `p:<key>` a title's progress, `h:<key>` a play
 * of the watch history, `r:<key>` a rating (decision 103), `rb:<key>` / `rp:<key>` / `rh:<key>` /
 * `rr:<key>` their removals, `s:<profile>` a stashed profile's library, `o:<op id>` a pending change
 * (with its place in the outbox), `profile` whose library is active, `groupOrder` its order of named
 * lists, `version` the data's version.
 * Pure functions: the persistence (library-persistence.ts) stores and broadcasts what they produce.
 */
export type Entry = [key: string, value: unknown];

export interface EntryChanges {
  puts: Entry[];
  dels: string[];
}

export const VERSION_ENTRY = 'version';
const PROFILE_ENTRY = 'profile';
const GROUP_ORDER_ENTRY = 'groupOrder';
const OP_PREFIX = 'o:';

/** A pending change as stored: the op and its place in the outbox. */
interface StoredOp {
  seq: number;
  op: OutboxOp;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The keyed sections of the library, each stored one entry per key under its prefix. */
interface Section {
  prefix: string;
  get(data: LibraryStoreData): Record<string, unknown>;
  with(data: LibraryStoreData, record: Record<string, unknown>): LibraryStoreData;
  valid(value: unknown): boolean;
}

const isTime = (v: unknown) => typeof v === 'number';

/** A keyed part of the library's data, one entry per key. */
const part = (
  prefix: string,
  name: 'bookmarks' | 'progress' | 'history' | 'ratings' | 'stash',
  valid: Section['valid'] = isObj,
): Section => ({
  prefix,
  get: (d) => d[name],
  with: (d, r) => ({ ...d, [name]: r }),
  valid,
});
/** The removals of one kind, one entry per key. */
const removed = (prefix: string, name: keyof Removals, valid: Section['valid'] = isTime): Section => ({
  prefix,
  get: (d) => d.removals[name] ?? {},
  with: (d, r) => ({ ...d, removals: { ...d.removals, [name]: r } }),
  valid,
});

const SECTIONS: readonly Section[] = [
  part('b:', 'bookmarks'),
  part('p:', 'progress'),
  part('h:', 'history'),
  part('r:', 'ratings'),
  removed('rb:', 'bookmarks'),
  removed('rp:', 'progress', Array.isArray),
  removed('rh:', 'history'),
  removed('rr:', 'ratings'),
  part('s:', 'stash'),
];

const sectionOf = (key: string) => SECTIONS.find((s) => key.startsWith(s.prefix));

/**
 * The order of the outbox across tabs: each op keeps the place it was given when it was queued
 * (ties, from two tabs queueing at once, are ordered by op id).
 */
export class OutboxOrder {
  private readonly places = new Map<string, number>();
  private last = 0;

  placeOf(id: string): number {
    let place = this.places.get(id);
    if (place === undefined) {
      place = ++this.last;
      this.places.set(id, place);
    }
    return place;
  }

  learn(id: string, place: number): void {
    this.places.set(id, place);
    if (place > this.last) this.last = place;
  }

  forget(id: string): void {
    this.places.delete(id);
  }

  sort(ops: Iterable<OutboxOp>): OutboxOp[] {
    return [...ops].sort((a, b) => this.placeOf(a.id) - this.placeOf(b.id) || (a.id < b.id ? -1 : 1));
  }
}

/** Every entry of `data` (for the first write to a new storage). */
export function toEntries(data: LibraryStoreData, order: OutboxOrder, version: number): Entry[] {
  const entries: Entry[] = [
    [VERSION_ENTRY, version],
    [PROFILE_ENTRY, data.profile],
    [GROUP_ORDER_ENTRY, data.groupOrder],
  ];
  for (const section of SECTIONS)
    for (const [key, value] of Object.entries(section.get(data))) entries.push([section.prefix + key, value]);
  for (const op of data.outbox)
    entries.push([OP_PREFIX + op.id, { seq: order.placeOf(op.id), op } satisfies StoredOp]);
  return entries;
}

/** Applies stored entries (all of a storage, or another tab's changes) to `data`. */
export function applyEntries(
  data: LibraryStoreData,
  changes: EntryChanges,
  order: OutboxOrder,
): LibraryStoreData {
  let next = data;
  const edits = new Map<Section, Record<string, unknown>>();
  const edit = (section: Section) => {
    let record = edits.get(section);
    if (!record) {
      record = { ...section.get(next) };
      edits.set(section, record);
    }
    return record;
  };
  let outbox: Map<string, OutboxOp> | undefined;
  const ops = () => (outbox ??= new Map(next.outbox.map((op) => [op.id, op])));

  for (const [key, value] of changes.puts) {
    if (key === PROFILE_ENTRY) {
      if (typeof value === 'string') next = { ...next, profile: value };
      continue;
    }
    if (key === GROUP_ORDER_ENTRY) {
      if (Array.isArray(value))
        next = { ...next, groupOrder: value.filter((n): n is string => typeof n === 'string') };
      continue;
    }
    if (key.startsWith(OP_PREFIX)) {
      const stored = value as Partial<StoredOp> | null;
      if (!isObj(stored) || typeof stored.seq !== 'number' || !isObj(stored.op)) continue;
      const op = stored.op as OutboxOp;
      if (typeof op.id !== 'string' || typeof op.kind !== 'string') continue;
      order.learn(op.id, stored.seq);
      ops().set(op.id, op);
      continue;
    }
    const section = sectionOf(key);
    if (section && section.valid(value)) edit(section)[key.slice(section.prefix.length)] = value;
  }
  for (const key of changes.dels) {
    if (key.startsWith(OP_PREFIX)) {
      const id = key.slice(OP_PREFIX.length);
      ops().delete(id);
      order.forget(id);
      continue;
    }
    const section = sectionOf(key);
    if (section) delete edit(section)[key.slice(section.prefix.length)];
  }

  for (const [section, record] of edits) next = section.with(next, record);
  if (outbox) next = { ...next, outbox: order.sort(outbox.values()) };
  return next;
}

/** The entries to write for going from `prev` to `next`: only those whose values changed. */
export function diffEntries(
  prev: LibraryStoreData,
  next: LibraryStoreData,
  order: OutboxOrder,
): EntryChanges {
  const puts: Entry[] = [];
  const dels: string[] = [];
  if (prev.profile !== next.profile) puts.push([PROFILE_ENTRY, next.profile]);
  if (prev.groupOrder !== next.groupOrder) puts.push([GROUP_ORDER_ENTRY, next.groupOrder]);
  for (const section of SECTIONS) {
    const before = section.get(prev);
    const after = section.get(next);
    if (before === after) continue;
    for (const key of Object.keys(after))
      if (!Object.hasOwn(before, key) || before[key] !== after[key])
        puts.push([section.prefix + key, after[key]]);
    for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) dels.push(section.prefix + key);
  }
  if (prev.outbox !== next.outbox) {
    const before = new Map(prev.outbox.map((op) => [op.id, op]));
    const kept = new Set<string>();
    for (const op of next.outbox) {
      kept.add(op.id);
      if (before.get(op.id) !== op)
        puts.push([OP_PREFIX + op.id, { seq: order.placeOf(op.id), op } satisfies StoredOp]);
    }
    for (const id of before.keys())
      if (!kept.has(id)) {
        dels.push(OP_PREFIX + id);
        order.forget(id);
      }
  }
  return { puts, dels };
}

export const noChanges = (changes: EntryChanges) => changes.puts.length === 0 && changes.dels.length === 0;
