import { useQuery } from '@tanstack/react-query';
import { isReleased } from '@marquee/contract/values';
import { useLocation, useNavigate } from 'react-router';
import { clock } from '../../../lib/clock.ts';
import { nextEpisodeInSeason, nextSeason, previousEpisodeInSeason } from '../core/meta.ts';
import type { PlayerEpisode, PlayerMeta } from '../core/types.ts';
import { withParty } from '../party/use-party-sync.ts';
import { seasonEpisodesQuery } from '../ui/queries.ts';
import type { PlayerNavState } from './use-play-session.ts';
import { paths } from '../../../lib/paths.ts';

export interface NextEpisode {
  seasonId: string;
  episode: PlayerEpisode;
  /** The first aired episode of the next season. */
  nextSeason: boolean;
}

const aired = (e: PlayerEpisode) => isReleased(e.airDate, clock.now());

/** The episode after this one: next in the season, else the first aired one of the next season. */
export function useNextEpisode(meta: PlayerMeta): NextEpisode | null {
  const inSeason = nextEpisodeInSeason(meta);
  const following = inSeason ? null : nextSeason(meta);
  const q = useQuery({ ...seasonEpisodesQuery(meta.tmdbId, following?.number ?? 0), enabled: !!following });
  if (inSeason && meta.season) {
    return aired(inSeason) ? { seasonId: meta.season.id, episode: inSeason, nextSeason: false } : null;
  }
  if (!following || !q.data) return null;
  const first = q.data.episodes.find(aired);
  return first ? { seasonId: q.data.id, episode: first, nextSeason: true } : null;
}

/** The next and previous episodes, and going to them (each starts from its beginning). */
export function useEpisodeNavigation(meta: PlayerMeta) {
  const navigate = useNavigate();
  const { search } = useLocation();
  const next = useNextEpisode(meta);
  const previous = previousEpisodeInSeason(meta);
  const goTo = (seasonId: string, episodeId: string) =>
    navigate(withParty(paths.media(meta.mediaKey, seasonId, episodeId), search), {
      state: { fromStart: true } satisfies PlayerNavState,
    });
  return {
    next,
    previous,
    goNext: () => {
      if (next) void goTo(next.seasonId, next.episode.id);
    },
    goPrevious: () => {
      if (previous && meta.season) void goTo(meta.season.id, previous.id);
    },
  };
}
