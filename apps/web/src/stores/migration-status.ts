import { create } from 'zustand';

/** What the start-up migrations of the local stores did; drives the migration screen and the failure notice. */
interface MigrationStatus {
  /** Stores whose data could not be migrated and were reset to their defaults (backups are kept). */
  failed: string[];
  dismissed: boolean;
  reportFailure: (store: string) => void;
  dismiss: () => void;
}

export const useMigrationStatus = create<MigrationStatus>()((set) => ({
  failed: [],
  dismissed: false,
  reportFailure: (store) =>
    set((s) => ({ failed: s.failed.includes(store) ? s.failed : [...s.failed, store], dismissed: false })),
  dismiss: () => set({ dismissed: true }),
}));
