// What the title page needs at once; the player itself is view.ts, loaded lazily.
export { PlayerPlaceholder } from './ui/player-placeholder.tsx';
export { UnreleasedSlot } from './ui/unreleased-slot.tsx';
export { makePlayerMeta } from './core/meta.ts';
export { startsOnOpen } from './core/autoplay.ts';
export type { PlayerMeta } from './core/types.ts';
