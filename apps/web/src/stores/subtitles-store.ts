import { createPersistedStore } from './persisted.ts';
import { LEGACY_KEYS, readLegacyState } from './library/legacy.ts';

export interface SubtitleStyling {
  color: string;
  /** 0…1 */
  backgroundOpacity: number;
  /** 0…1 */
  backgroundBlur: number;
  /** Multiplier, 0.01…10. */
  size: number;
  bold: boolean;
}

export interface SubtitlesData {
  enabled: boolean;
  /** Synced to the account as `defaultSubtitleLanguage`. */
  lastSelectedLanguage: string | null;
  isOpenSubtitles: boolean;
  overrideCasing: boolean;
  /** Seconds, -500…500. */
  delay: number;
  styling: SubtitleStyling;
}

/** Limits a device keeps (size up to 10×, as the older clients allow; synced sizes stop at 2: wire.ts). */
export const SUBTITLE_LIMITS = {
  size: [0.01, 10],
  backgroundOpacity: [0, 1],
  backgroundBlur: [0, 1],
  delay: [-500, 500],
} as const;
/** The colours the caption settings offer (decision 050). */
export const SUBTITLE_COLORS = ['#ffffff', '#b0b0b0', '#80b1fa', '#e2e535'] as const;

const clamp = (v: unknown, [min, max]: readonly [number, number], fallback: number) => {
  const n = typeof v === 'number' && Number.isFinite(v) ? v : fallback;
  return Math.min(max, Math.max(min, n));
};

/** Defaults: white text on a background of about 0.74 opacity, not blurred. */
export const DEFAULT_STYLING: SubtitleStyling = {
  color: '#ffffff',
  backgroundOpacity: 0.74,
  backgroundBlur: 0,
  size: 1,
  bold: false,
};

/** Styling within its limits, the colour lower-cased. */
export function clampStyling(
  s: Partial<Record<keyof SubtitleStyling, unknown>>,
  base: SubtitleStyling = DEFAULT_STYLING,
): SubtitleStyling {
  return {
    color: typeof s.color === 'string' && s.color ? s.color.toLowerCase() : base.color,
    backgroundOpacity: clamp(s.backgroundOpacity, SUBTITLE_LIMITS.backgroundOpacity, base.backgroundOpacity),
    backgroundBlur: clamp(s.backgroundBlur, SUBTITLE_LIMITS.backgroundBlur, base.backgroundBlur),
    size: clamp(s.size, SUBTITLE_LIMITS.size, base.size),
    bold: typeof s.bold === 'boolean' ? s.bold : base.bold,
  };
}
export const clampDelay = (delay: number) => clamp(delay, SUBTITLE_LIMITS.delay, 0);

interface SubtitlesActions {
  setStyling(patch: Partial<SubtitleStyling>): void;
  setDelay(delay: number): void;
  setSubtitles(patch: Partial<Omit<SubtitlesData, 'styling' | 'delay'>>): void;
}
export type SubtitlesState = SubtitlesData & SubtitlesActions;

const initial = (): SubtitlesData => ({
  enabled: false,
  lastSelectedLanguage: null,
  isOpenSubtitles: false,
  overrideCasing: false,
  delay: 0,
  styling: { ...DEFAULT_STYLING },
});

function sanitize(d: Record<string, any>, init: SubtitlesData): SubtitlesData {
  return {
    enabled: typeof d.enabled === 'boolean' ? d.enabled : init.enabled,
    lastSelectedLanguage:
      typeof d.lastSelectedLanguage === 'string' && d.lastSelectedLanguage ? d.lastSelectedLanguage : null,
    isOpenSubtitles: typeof d.isOpenSubtitles === 'boolean' ? d.isOpenSubtitles : init.isOpenSubtitles,
    overrideCasing: typeof d.overrideCasing === 'boolean' ? d.overrideCasing : init.overrideCasing,
    delay: clampDelay(typeof d.delay === 'number' ? d.delay : 0),
    styling: clampStyling(typeof d.styling === 'object' && d.styling ? d.styling : {}),
  };
}

export const useSubtitlesStore = createPersistedStore<SubtitlesData, SubtitlesState>(
  {
    name: 'subtitles',
    version: 1,
    initial,
    legacy: (storage) => readLegacyState(storage, LEGACY_KEYS.subtitles),
    migrations: { 1: (old: Record<string, unknown>) => sanitize(old, initial()) },
    sanitize,
  },
  (set) => ({
    ...initial(),
    setStyling: (patch) => set((s) => ({ styling: clampStyling(patch, s.styling) })),
    setDelay: (delay) => set(() => ({ delay: clampDelay(delay) })),
    setSubtitles: (patch) => set(() => patch),
  }),
);
