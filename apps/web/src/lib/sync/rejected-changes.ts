import { createPersistedStore } from '../../stores/persisted.ts';
import { withRejected, type OutboxOp, type RejectedOp } from '../../stores/library/outbox.ts';

interface RejectedData {
  /** Oldest first. */
  rejected: RejectedOp[];
}

interface RejectedActions {
  /** The server refused `op` for good (the sync engine then drops it from the outbox). */
  add(op: OutboxOp, refusal: { status: number; code: string; message: string }, at: number): void;
  /** The user dismissed the notice: it is not shown again for these. */
  markSeen(): void;
  clear(): void;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether the stored list was read (a write before that would replace it). */
let loaded = false;
const ensureLoaded = () => {
  if (!loaded) useRejectedChanges.controls.hydrate();
};

/**
 * Changes the server refused for good (decision 070), kept on this device (`marquee:sync-rejected`) so
 * the user is told once and can export them; never sent again. Not cleared at logout: they are the
 * user's own data, which sign-out must not silently lose.
 */
export const useRejectedChanges = createPersistedStore<RejectedData, RejectedData & RejectedActions>(
  {
    name: 'sync-rejected',
    version: 1,
    initial: () => ({ rejected: [] }),
    migrations: {},
    sanitize: (data: Record<string, unknown>, init) => {
      loaded = true;
      return {
        rejected: Array.isArray(data.rejected)
          ? (data.rejected as unknown[]).filter((r): r is RejectedOp => isObj(r) && isObj(r.op))
          : init.rejected,
      };
    },
  },
  (set) => ({
    rejected: [],
    add: (op, refusal, at) => {
      ensureLoaded();
      set((s) => ({ rejected: withRejected(s.rejected, { op, ...refusal, at, seen: false }) }));
    },
    markSeen: () => {
      ensureLoaded();
      set((s) => ({ rejected: s.rejected.map((r) => (r.seen ? r : { ...r, seen: true })) }));
    },
    clear: () => {
      ensureLoaded();
      set({ rejected: [] });
    },
  }),
);

/** The refused changes as a JSON file the user can keep (what, when, and why the server refused it). */
export function rejectedChangesFile(rejected: readonly RejectedOp[]): Blob {
  const changes = rejected.map(({ op, status, code, message, at }) => ({
    refusedAt: new Date(at).toISOString(),
    status,
    code,
    message,
    change: op,
  }));
  return new Blob([JSON.stringify({ app: 'marquee', kind: 'rejected-changes', changes }, null, 2)], {
    type: 'application/json',
  });
}
