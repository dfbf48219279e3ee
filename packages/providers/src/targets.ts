/**
 * Flags a stream carries, and the targets that play streams. A stream is offered to a target only when
 * its flags satisfy the target's features (same model as the app family's providers library).
 */
export const flags = {
  /** The stream's host answers cross-origin requests from any page (hls.js and captions need it). */
  CORS_ALLOWED: 'cors-allowed',
  /** The stream is bound to the IP that scraped it: only the same machine can play it. */
  IP_LOCKED: 'ip-locked',
} as const;
export type Flag = (typeof flags)[keyof typeof flags];

export const targets = {
  /** A browser with CORS restrictions (default setup, custom proxy, server-side scraping). */
  BROWSER: 'browser',
  /** A browser whose requests go through the extension: no CORS limits. */
  BROWSER_EXTENSION: 'browser-extension',
  /** A native player: no restrictions. */
  NATIVE: 'native',
  ANY: 'any',
} as const;
export type Target = (typeof targets)[keyof typeof targets];

export interface FeatureMap {
  requires: readonly Flag[];
  disallowed: readonly Flag[];
}

const features: Record<Target, FeatureMap> = {
  browser: { requires: [flags.CORS_ALLOWED], disallowed: [] },
  'browser-extension': { requires: [], disallowed: [] },
  native: { requires: [], disallowed: [] },
  any: { requires: [], disallowed: [] },
};

export function targetFeatures(target: Target): FeatureMap {
  return features[target];
}

export function flagsAllowed(featureMap: FeatureMap, streamFlags: readonly Flag[]): boolean {
  return (
    featureMap.requires.every((f) => streamFlags.includes(f)) &&
    !featureMap.disallowed.some((f) => streamFlags.includes(f))
  );
}
