// Pure rule, no schema library: the player (a lazy chunk of the web app) imports it.

/** Qualities a stream can offer (same names as the providers' streams). */
export const streamQualities = ['4k', '1080', '720', '480', '360', 'unknown'] as const;
export type StreamQuality = (typeof streamQualities)[number];

/** Ranking (decision 050): unknown 0, 360p 10, 480p 20, 720p 30, 4k 35, 1080p 40. */
export const qualityRanks: Readonly<Record<StreamQuality, number>> = {
  unknown: 0,
  '360': 10,
  '480': 20,
  '720': 30,
  '4k': 35,
  '1080': 40,
};

export interface QualityPreference {
  /** Pick the best available quality (the default). */
  automaticQuality: boolean;
  /** The quality the viewer chose last, used when automatic is off. */
  lastChosenQuality: StreamQuality | null;
}

/** Thrown when a stream offers no quality at all. */
export class QualitySelectionError extends Error {
  constructor() {
    super("couldn't select quality");
    this.name = 'QualitySelectionError';
  }
}

export const isStreamQuality = (value: unknown): value is StreamQuality =>
  typeof value === 'string' && (streamQualities as readonly string[]).includes(value);

/** Qualities ordered from the highest rank to the lowest. */
export function sortQualities(list: readonly StreamQuality[]): StreamQuality[] {
  return [...new Set(list)].sort((a, b) => qualityRanks[b] - qualityRanks[a]);
}

/**
 * The quality to play (decision 050): automatic (or no preference) → the best-ranked available; else the
 * last chosen one when available; else the nearest available, first toward higher ranks, then toward
 * lower. Throws QualitySelectionError ("couldn't select quality") when nothing is available.
 */
export function selectQuality(
  available: readonly StreamQuality[],
  preference: QualityPreference,
): StreamQuality {
  const offered = sortQualities(available.filter(isStreamQuality));
  if (offered.length === 0) throw new QualitySelectionError();
  const wanted = preference.lastChosenQuality;
  if (preference.automaticQuality || wanted === null) return offered[0]!;
  if (offered.includes(wanted)) return wanted;
  const rank = qualityRanks[wanted];
  const higher = offered
    .filter((q) => qualityRanks[q] > rank)
    .sort((a, b) => qualityRanks[a] - qualityRanks[b]);
  if (higher.length) return higher[0]!;
  const lower = offered.filter((q) => qualityRanks[q] < rank);
  return lower[0] ?? offered[0]!;
}
