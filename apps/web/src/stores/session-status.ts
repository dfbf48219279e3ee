import { create } from 'zustand';

/** How the last account restore went (drives "Failed to load your profile"). */
interface SessionStatus {
  /** The last restore failed for a reason other than a rejected session (server down, offline). */
  restoreFailed: boolean;
  restoring: boolean;
  dismissFailure(): void;
}

export const useSessionStatus = create<SessionStatus>()((set) => ({
  restoreFailed: false,
  restoring: false,
  dismissFailure: () => set({ restoreFailed: false }),
}));
