import { PlayerBackBar } from './back-link.tsx';
import { SearchingView } from './status-views.tsx';

/**
 * The player's box while the title's details (and a show's episode) load: the same size, the same
 * "Looking for sources…" and back link as the player that replaces it, so the page neither moves nor
 * waits for the details to show something.
 */
export function PlayerPlaceholder({ backTo }: { backTo: string }) {
  return (
    <div
      className="relative h-[100dvh] w-full select-none overflow-hidden bg-black text-white"
      data-testid="player-placeholder"
    >
      <SearchingView />
      <PlayerBackBar backTo={backTo} />
    </div>
  );
}
