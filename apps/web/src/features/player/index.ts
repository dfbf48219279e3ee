export { PlayerView, type PlayerViewProps } from './ui/player-view.tsx';
export { makePlayerMeta, MissingShowDataError } from './core/meta.ts';
export type { PlayerMeta, PlayerEpisode, PlayerSeason } from './core/types.ts';
