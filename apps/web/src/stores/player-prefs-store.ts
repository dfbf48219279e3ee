import { SEGMENT_TYPES } from '@marquee/contract/values';
import { createPersistedStore } from './persisted.ts';
import { LEGACY_KEYS, readLegacyState } from './library/legacy.ts';

/** What the player does in an intro, a recap, the credits or a preview (decision 111): offer to skip it, skip it, or nothing. */
export type SegmentSkip = 'ask' | 'skip' | 'off';
export type SegmentSkips = Record<(typeof SEGMENT_TYPES)[number], SegmentSkip>;
const SKIPS: readonly SegmentSkip[] = ['ask', 'skip', 'off'];

/**
 * Player choices kept on this device: volume and quality (the older clients' __MW::volume and
 * __MW::quality), and what to do in each kind of segment.
 */
export interface PlayerPrefsData {
  volume: number;
  automaticQuality: boolean;
  lastChosenQuality: string | null;
  segmentSkips: SegmentSkips;
}
interface PlayerPrefsActions {
  setPlayerPrefs(patch: Partial<PlayerPrefsData>): void;
}
export type PlayerPrefsState = PlayerPrefsData & PlayerPrefsActions;

const initial = (): PlayerPrefsData => ({
  volume: 1,
  automaticQuality: true,
  lastChosenQuality: null,
  segmentSkips: { intro: 'ask', recap: 'ask', credits: 'ask', preview: 'ask' },
});

function sanitizeSkips(value: unknown, init: SegmentSkips): SegmentSkips {
  const given = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const pick = (type: keyof SegmentSkips) => {
    const v = given[type];
    return SKIPS.includes(v as SegmentSkip) ? (v as SegmentSkip) : init[type];
  };
  return { intro: pick('intro'), recap: pick('recap'), credits: pick('credits'), preview: pick('preview') };
}

function sanitize(d: Record<string, any>, init: PlayerPrefsData): PlayerPrefsData {
  const volume =
    typeof d.volume === 'number' && Number.isFinite(d.volume)
      ? Math.min(1, Math.max(0, d.volume))
      : init.volume;
  return {
    volume,
    automaticQuality: typeof d.automaticQuality === 'boolean' ? d.automaticQuality : init.automaticQuality,
    lastChosenQuality: typeof d.lastChosenQuality === 'string' ? d.lastChosenQuality : null,
    segmentSkips: sanitizeSkips(d.segmentSkips, init.segmentSkips),
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
