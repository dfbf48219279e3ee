// The player itself (controls, menus, scraping, captions, playback): the app loads it lazily, so the
// title page and the player's placeholder (from index.ts) show without waiting for this code.
export { PlayerView, type PlayerViewProps } from './ui/player-view.tsx';
