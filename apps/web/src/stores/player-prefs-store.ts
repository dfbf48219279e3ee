import { createPersistedStore } from './persisted.ts';
import { LEGACY_KEYS, readLegacyState } from './library/legacy.ts';

/** Player choices kept on this device: volume and quality (the older clients' __MW::volume and __MW::quality). */
export interface PlayerPrefsData {
  volume: number;
  automaticQuality: boolean;
  lastChosenQuality: string | null;
}
interface PlayerPrefsActions {
  setPlayerPrefs(patch: Partial<PlayerPrefsData>): void;
}
export type PlayerPrefsState = PlayerPrefsData & PlayerPrefsActions;

const initial = (): PlayerPrefsData => ({ volume: 1, automaticQuality: true, lastChosenQuality: null });

function sanitize(d: Record<string, any>, init: PlayerPrefsData): PlayerPrefsData {
  const volume =
    typeof d.volume === 'number' && Number.isFinite(d.volume)
      ? Math.min(1, Math.max(0, d.volume))
      : init.volume;
  return {
    volume,
    automaticQuality: typeof d.automaticQuality === 'boolean' ? d.automaticQuality : init.automaticQuality,
    lastChosenQuality: typeof d.lastChosenQuality === 'string' ? d.lastChosenQuality : null,
  };
}

export const usePlayerPrefsStore = createPersistedStore<PlayerPrefsData, PlayerPrefsState>(
  {
    name: 'player',
    version: 1,
    initial,
    legacy: (storage) => {
      const volume = readLegacyState(storage, LEGACY_KEYS.volume);
      const quality = readLegacyState(storage, LEGACY_KEYS.quality);
      if (!volume && !quality) return null;
      const q = (quality?.quality ?? {}) as Record<string, unknown>;
      return {
        volume: volume?.volume,
        automaticQuality: q.automaticQuality,
        lastChosenQuality: q.lastChosenQuality,
      };
    },
    migrations: { 1: (old: Record<string, unknown>) => sanitize(old, initial()) },
    sanitize,
  },
  (set) => ({ ...initial(), setPlayerPrefs: (patch) => set(() => patch) }),
);

/** Whether the user finished (or skipped) onboarding (the older clients' __MW::onboarding). */
export interface OnboardingData {
  completed: boolean;
}
export const useOnboardingStore = createPersistedStore<
  OnboardingData,
  OnboardingData & { setCompleted(v: boolean): void }
>(
  {
    name: 'onboarding',
    version: 1,
    initial: () => ({ completed: false }),
    legacy: (storage) => readLegacyState(storage, LEGACY_KEYS.onboarding),
    migrations: { 1: (old: Record<string, unknown>) => ({ completed: old.completed === true }) },
    sanitize: (d: Record<string, unknown>) => ({ completed: d.completed === true }),
  },
  (set) => ({ completed: false, setCompleted: (completed) => set(() => ({ completed })) }),
);
