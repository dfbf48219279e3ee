import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { requests } from '../core/player-store.ts';
import { answered, playerKey, useStillWatching } from '../core/still-watching.ts';
import { isBackKey } from '../../../lib/tv/back-key.ts';
import type { PlayerMeta } from '../core/types.ts';

/**
 * "Are you still watching?" over the paused player (decision 112): Continue watching (focused, so OK on a
 * remote or Enter answers) plays on; Stop for now goes back where the viewer came from. Keys stay in the
 * dialog (Tab moves between its two buttons, which hold the focus; the player's shortcuts do not act
 * behind it).
 */
export function StillWatchingDialog({ meta, backTo }: { meta: PlayerMeta; backTo: string }) {
  const { t } = useTranslation(['media', 'player']);
  const navigate = useNavigate();
  const asked = useStillWatching((s) => s.asking === playerKey(meta.tmdbId, meta.episode?.id));
  const continueRef = useRef<HTMLButtonElement>(null);
  const stopRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asked) continueRef.current?.focus();
  }, [asked]);
  if (!asked) return null;
  const stop = () => {
    answered();
    void navigate(backTo);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    e.stopPropagation();
    const other = (document.activeElement === continueRef.current ? stopRef : continueRef).current;
    if (e.key === 'Tab') {
      e.preventDefault();
      other?.focus();
    } else if (isBackKey(e.nativeEvent)) {
      // Back (a remote's, or Escape) answers as Stop does: back where the viewer came from.
      e.preventDefault();
      stop();
    } else if (other && otherLiesThatWay(e.currentTarget, other, e.key)) {
      // A remote's arrows move between the two answers (they are side by side, or stacked on a phone).
      e.preventDefault();
      other.focus();
    }
  };
  const episode =
    meta.type === 'show' && meta.season && meta.episode
      ? t('media.seasons.seasonEpisode', { season: meta.season.number, episode: meta.episode.number })
      : null;
  return (
    <div
      className="absolute inset-0 z-50 flex items-center justify-center bg-black/75 p-4"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="still-watching-title"
      aria-describedby="still-watching-what"
      data-testid="still-watching"
    >
      <div className="w-full max-w-md rounded-2xl bg-neutral-900/95 p-6 text-center shadow-2xl">
        <h2 id="still-watching-title" className="text-2xl font-bold">
          {t('player.stillWatching.title')}
        </h2>
        <p id="still-watching-what" className="mt-2 text-white/75">
          <bdi>{meta.title}</bdi>
          {episode && <span className="ms-2">{episode}</span>}
        </p>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row-reverse sm:justify-center">
          <button
            ref={continueRef}
            type="button"
            onKeyDown={onKeyDown}
            className="min-h-11 rounded-full bg-white px-6 font-semibold text-black hover:bg-white/90 focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-white"
            onClick={() => {
              answered();
              requests.play();
            }}
            data-testid="still-watching-continue"
          >
            {t('player.stillWatching.continue')}
          </button>
          <button
            ref={stopRef}
            type="button"
            onKeyDown={onKeyDown}
            className="min-h-11 rounded-full bg-white/15 px-6 font-semibold hover:bg-white/25 focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-white"
            onClick={stop}
            data-testid="still-watching-stop"
          >
            {t('player.stillWatching.stop')}
          </button>
        </div>
      </div>
    </div>
  );
}

/** Whether the arrow `key` points from one answer's button to the other's, as they are drawn. */
function otherLiesThatWay(from: Element, to: Element, key: string): boolean {
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  switch (key) {
    case 'ArrowLeft':
      return b.right <= a.left + 1;
    case 'ArrowRight':
      return b.left >= a.right - 1;
    case 'ArrowUp':
      return b.bottom <= a.top + 1;
    case 'ArrowDown':
      return b.top >= a.bottom - 1;
    default:
      return false;
  }
}
