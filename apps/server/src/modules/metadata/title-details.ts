import type {
  Credit,
  CrewCredit,
  CrewJob,
  EpisodeRef,
  MediaStatus,
  Trailer,
  UiLanguage,
  WatchProvider,
  WatchProviders,
} from '@marquee/contract';
import {
  WATCH_KINDS,
  type TmdbAggregateCredits,
  type TmdbContentRatings,
  type TmdbCredits,
  type TmdbEpisode,
  type TmdbReleaseDates,
  type TmdbVideo,
  type TmdbWatchProviders,
} from './tmdb/tmdb.types.ts';

/**
 * The rules of a title page (decision 083): which of TMDB's credits, videos, ratings and offers it
 * shows, and in what order. Pure functions of TMDB-shaped parts; images go through `image`.
 */

/** The image sizes the server hands out (the image proxy allows exactly these). */
export const POSTER_SIZE = 'w342';
export const PROFILE_SIZE = 'w185';
export const STILL_SIZE = 'w300';
export const LOGO_SIZE = 'w92';
export const BACKDROP_SIZE = 'w1280';

export const MAX_CAST = 12;
export const MAX_CREW = 12;
export const MAX_TRAILERS = 3;
export const MAX_RECOMMENDATIONS = 12;

type Image = (path: string | null | undefined, size: string) => string | null;

export function ratingOf(
  average: number | null | undefined,
  count: number | null | undefined,
): { average: number; count: number } | null {
  if (!count || count <= 0 || typeof average !== 'number' || !Number.isFinite(average)) return null;
  return { average, count };
}

/** Positive minutes, else null (TMDB and the catalog say 0 for "not known"). */
export const minutes = (value: number | null | undefined): number | null =>
  typeof value === 'number' && value > 0 ? Math.round(value) : null;

/**
 * A show's typical episode length: TMDB's `episode_run_time` (empty for most shows nowadays), else the
 * last aired episode's, else the next one's.
 */
export function showRuntime(
  episodeRunTime: readonly number[] | null | undefined,
  last: TmdbEpisode | null | undefined,
  next: TmdbEpisode | null | undefined,
): number | null {
  return (
    minutes((episodeRunTime ?? []).find((m) => m > 0)) ?? minutes(last?.runtime) ?? minutes(next?.runtime)
  );
}

/** The middle length of a season's episodes (a long finale or a short special does not count). */
export function medianRuntime(episodes: readonly { runtime?: number | null | undefined }[] | undefined) {
  const lengths = (episodes ?? [])
    .map((e) => minutes(e.runtime))
    .filter((m): m is number => m !== null)
    .sort((a, b) => a - b);
  if (lengths.length === 0) return null;
  const mid = lengths.length >> 1;
  return lengths.length % 2 ? lengths[mid]! : Math.round((lengths[mid - 1]! + lengths[mid]!) / 2);
}

export function episodeRef(
  episode: (TmdbEpisode & { season_number: number }) | null | undefined,
): EpisodeRef | null {
  if (!episode) return null;
  return {
    season: episode.season_number,
    episode: episode.episode_number,
    title: episode.name,
    airDate: episode.air_date || null,
  };
}

const MOVIE_STATUS: Record<string, MediaStatus> = {
  Released: 'released',
  'Post Production': 'upcoming',
  'In Production': 'in_production',
  Planned: 'planned',
  Rumored: 'planned',
  Canceled: 'canceled',
};

const SHOW_STATUS: Record<string, MediaStatus> = {
  'Returning Series': 'returning',
  Ended: 'ended',
  Canceled: 'canceled',
  'In Production': 'in_production',
  Pilot: 'in_production',
  Planned: 'planned',
};

/** TMDB's status of a movie; without one (the embedded catalog), what the release date says. */
export function movieStatus(
  status: string | null | undefined,
  releaseDate: string | null | undefined,
  today: string,
): MediaStatus | null {
  if (status) return MOVIE_STATUS[status] ?? null;
  if (!releaseDate) return null;
  return releaseDate <= today ? 'released' : 'upcoming';
}

/**
 * TMDB's status of a show; without one (the embedded catalog), what its dates say: not aired yet →
 * upcoming, an episode scheduled → returning. Whether a show whose episodes all aired has ended cannot be
 * told from dates: null.
 */
export function showStatus(
  status: string | null | undefined,
  firstAirDate: string | null | undefined,
  next: TmdbEpisode | null | undefined,
  today: string,
): MediaStatus | null {
  if (status) return SHOW_STATUS[status] ?? null;
  if (firstAirDate && firstAirDate > today) return 'upcoming';
  if (next) return 'returning';
  return null;
}

/** Theatrical releases first (3, then limited 2), then digital, physical, TV, premiere. */
const RELEASE_TYPE_PREFERENCE = [3, 2, 4, 5, 6, 1];

/** The movie's certification in `region`, from its releases there; null when the region has none. */
export function movieContentRating(
  releaseDates: TmdbReleaseDates | undefined,
  region: string,
): string | null {
  const country = releaseDates?.results.find((r) => r.iso_3166_1 === region);
  const rated = (country?.release_dates ?? [])
    .map((r) => ({ ...r, certification: r.certification?.trim() ?? '' }))
    .filter((r) => r.certification);
  const rank = (type: number | null | undefined) => {
    const i = RELEASE_TYPE_PREFERENCE.indexOf(type ?? -1);
    return i === -1 ? RELEASE_TYPE_PREFERENCE.length : i;
  };
  rated.sort(
    (a, b) => rank(a.type) - rank(b.type) || (b.release_date ?? '').localeCompare(a.release_date ?? ''),
  );
  return rated[0]?.certification ?? null;
}

export function showContentRating(ratings: TmdbContentRatings | undefined, region: string): string | null {
  return ratings?.results.find((r) => r.iso_3166_1 === region)?.rating?.trim() || null;
}

/**
 * The region's offers; a provider in several lists appears once, as its best kind (subscription > free >
 * with ads > rent > buy), in that order and then TMDB's display priority. Null when the region has none.
 */
export function watchProvidersIn(
  answer: TmdbWatchProviders | undefined,
  region: string,
  image: Image,
): WatchProviders | null {
  const entry = answer?.results[region];
  if (!entry) return null;
  const best = new Map<number, { provider: WatchProvider; rank: number; priority: number }>();
  WATCH_KINDS.forEach((kind, rank) => {
    for (const p of entry[kind] ?? []) {
      if (best.has(p.provider_id)) continue;
      best.set(p.provider_id, {
        provider: { id: p.provider_id, name: p.provider_name, logo: image(p.logo_path, LOGO_SIZE), kind },
        rank,
        priority: p.display_priority ?? Number.MAX_SAFE_INTEGER,
      });
    }
  });
  if (best.size === 0) return null;
  const providers = [...best.values()]
    .sort((a, b) => a.rank - b.rank || a.priority - b.priority)
    .map((b) => b.provider);
  return { region, link: entry.link || null, providers };
}

const VIDEO_KEY = { YouTube: /^[A-Za-z0-9_-]{6,20}$/, Vimeo: /^\d{1,12}$/ } as const;
const videoUrl = { YouTube: 'https://www.youtube.com/watch?v=', Vimeo: 'https://vimeo.com/' } as const;

/**
 * Trailers and teasers on YouTube or Vimeo: official ones first, then those in the viewer's language,
 * trailers before teasers, newest first; at most three.
 */
export function trailersOf(videos: readonly TmdbVideo[] | undefined, language: UiLanguage): Trailer[] {
  const code = language.split('-')[0];
  const seen = new Set<string>();
  return (videos ?? [])
    .filter(
      (v): v is TmdbVideo & { site: Trailer['site'] } =>
        (v.site === 'YouTube' || v.site === 'Vimeo') &&
        (v.type === 'Trailer' || v.type === 'Teaser') &&
        VIDEO_KEY[v.site as Trailer['site']].test(v.key),
    )
    .sort(
      (a, b) =>
        Number(b.official === true) - Number(a.official === true) ||
        Number(b.iso_639_1 === code) - Number(a.iso_639_1 === code) ||
        Number(b.type === 'Trailer') - Number(a.type === 'Trailer') ||
        (b.published_at ?? '').localeCompare(a.published_at ?? ''),
    )
    .filter((v) => {
      const id = `${v.site}:${v.key}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .slice(0, MAX_TRAILERS)
    .map((v) => ({
      name: v.name?.trim() || v.type || 'Trailer',
      site: v.site,
      url: videoUrl[v.site] + v.key,
    }));
}

const byOrder = (a: { order?: number | null | undefined }, b: { order?: number | null | undefined }) =>
  (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER);

/** A movie's top-billed cast, in billing order. */
export function movieCast(credits: TmdbCredits | undefined, image: Image): Credit[] {
  return [...(credits?.cast ?? [])]
    .sort(byOrder)
    .slice(0, MAX_CAST)
    .map((c) => ({
      id: String(c.id),
      name: c.name,
      role: c.character?.trim() || null,
      photo: image(c.profile_path, PROFILE_SIZE),
    }));
}

/** A show's top-billed cast over its whole run; the role is the character played in most episodes. */
export function showCast(credits: TmdbAggregateCredits | undefined, image: Image): Credit[] {
  return [...(credits?.cast ?? [])]
    .sort(byOrder)
    .slice(0, MAX_CAST)
    .map((c) => {
      const role = [...(c.roles ?? [])]
        .filter((r) => r.character?.trim())
        .sort((a, b) => (b.episode_count ?? 0) - (a.episode_count ?? 0))[0];
      return {
        id: String(c.id),
        name: c.name,
        role: role?.character?.trim() || null,
        photo: image(c.profile_path, PROFILE_SIZE),
      };
    });
}

/** TMDB jobs a title page names, and what they are on it. */
const CREW_JOBS: Record<string, CrewJob> = {
  Director: 'director',
  Screenplay: 'writer',
  Writer: 'writer',
  Story: 'writer',
  'Original Music Composer': 'composer',
};
const JOB_ORDER: readonly CrewJob[] = ['creator', 'director', 'writer', 'composer'];

interface CrewEntry {
  id: number;
  name: string;
  profile_path?: string | null | undefined;
  /** TMDB's job names, e.g. "Director", "Screenplay". */
  tmdbJobs: string[];
}

/** One entry per person, their TMDB jobs joined as `role`, ordered creators, directors, writers, composers. */
function crewOf(entries: CrewEntry[], image: Image): CrewCredit[] {
  const people = new Map<number, { entry: CrewEntry; tmdbJobs: string[]; jobs: Set<CrewJob> }>();
  for (const entry of entries) {
    for (const tmdbJob of entry.tmdbJobs) {
      const job = tmdbJob === 'Creator' ? 'creator' : CREW_JOBS[tmdbJob];
      if (!job) continue;
      const person = people.get(entry.id) ?? { entry, tmdbJobs: [], jobs: new Set<CrewJob>() };
      if (!person.tmdbJobs.includes(tmdbJob)) person.tmdbJobs.push(tmdbJob);
      person.jobs.add(job);
      people.set(entry.id, person);
    }
  }
  const rank = (jobs: Set<CrewJob>) => Math.min(...[...jobs].map((j) => JOB_ORDER.indexOf(j)));
  return [...people.values()]
    .map((p, i) => ({ ...p, i }))
    .sort((a, b) => rank(a.jobs) - rank(b.jobs) || a.i - b.i)
    .slice(0, MAX_CREW)
    .map((p) => ({
      id: String(p.entry.id),
      name: p.entry.name,
      role: p.tmdbJobs.join(', '),
      jobs: JOB_ORDER.filter((j) => p.jobs.has(j)),
      photo: image(p.entry.profile_path, PROFILE_SIZE),
    }));
}

/** A movie's directors, writers and composers. */
export function movieCrew(credits: TmdbCredits | undefined, image: Image): CrewCredit[] {
  return crewOf(
    (credits?.crew ?? []).map((c) => ({ ...c, tmdbJobs: c.job ? [c.job] : [] })),
    image,
  );
}

/**
 * A show's creators and composers. Directors and writers of shows are per episode (dozens of them), so
 * the page leaves them out.
 */
export function showCrew(
  createdBy: readonly { id: number; name: string; profile_path?: string | null | undefined }[] | undefined,
  credits: TmdbAggregateCredits | undefined,
  image: Image,
): CrewCredit[] {
  const composers = (credits?.crew ?? [])
    .filter((c) => (c.jobs ?? []).some((j) => j.job === 'Original Music Composer'))
    .sort((a, b) => (b.total_episode_count ?? 0) - (a.total_episode_count ?? 0))
    .map((c) => ({ ...c, tmdbJobs: ['Original Music Composer'] }));
  return crewOf([...(createdBy ?? []).map((c) => ({ ...c, tmdbJobs: ['Creator'] })), ...composers], image);
}
