import type { PlayerDeps } from './player-deps.tsx';

const never = () => new Promise<never>(() => undefined);

/**
 * Fakes of everything the player reaches outside the page through, for the view's tests: the session
 * and the instance's list never answer (like the stubbed `fetch`), no `<video>` is attached, casting,
 * thumbnails, autoplay and captions do nothing, and the volume can be set. `overrides` replace some.
 */
export function inertPlayerDeps(overrides: Partial<PlayerDeps> = {}): PlayerDeps {
  return {
    runSession: never,
    instanceProviders: never,
    attachDisplay: () => () => undefined,
    testVolumeSupport: async () => true,
    setUpCasting: async () => () => undefined,
    loadSpriteThumbnails: async () => undefined,
    generateThumbnails: async () => undefined,
    autoplayAllowed: () => false,
    selectCaption: async () => undefined,
    autoSelectCaption: async () => undefined,
    toggleCaptions: async () => undefined,
    ...overrides,
  };
}
