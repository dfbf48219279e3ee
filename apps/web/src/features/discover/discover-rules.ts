/** Discover page rules: row sizes, random picks, the Watch Something New countdown, genre rows. */
import { isTitleReleased } from '@marquee/contract/values';

export const CAROUSEL_SIZE = 20;
export const RANDOM_MOVIE_GENRES = 4;
export const RANDOM_TV_GENRES = 6;
export const MOVIE_GENRE_PAGES = 6;
export const WATCH_SOMETHING_NEW_SECONDS = 5;
export const CAROUSEL_TITLE_MAX = 32;
export const NARROW_VIEWPORT_PX = 600;

/**
 * In TV mode a row's card is this share of the screen's width, whatever its resolution: about seven posters
 * across, as TV apps show them (docs/decisions/114-tv-mode.md).
 */
export const TV_CARD_SHARE = 0.13;

/**
 * Poster card width: 150 px under a 600 px viewport, else 200 px. In TV mode 13 % of the viewport (250 px at
 * 1920, 166 px at 1280), 150 px at least.
 */
export function cardWidth(viewportWidth: number, isTv = false): number {
  if (isTv) return Math.max(150, Math.round(viewportWidth * TV_CARD_SHARE));
  return viewportWidth < NARROW_VIEWPORT_PX ? 150 : 200;
}

/** Titles longer than 32 characters are cut and end with an ellipsis. */
export function truncateTitle(title: string, max = CAROUSEL_TITLE_MAX): string {
  const chars = Array.from(title);
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : title;
}

/** Fisher–Yates with an injectable random source (tests pass a seeded one). */
export function shuffle<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export function pickRandom<T>(items: readonly T[], count: number, random: () => number = Math.random): T[] {
  return shuffle(items, random).slice(0, count);
}

/** De-duplicates by id and title, keeps the first 20. */
export function toCarousel<T extends { id: string; title: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const key = `${item.id}\u0000${item.title}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
    if (out.length === CAROUSEL_SIZE) break;
  }
  return out;
}

export type CountdownState = { phase: 'idle' } | { phase: 'counting'; remaining: number } | { phase: 'done' };

/** One tick of the Watch Something New countdown: 5 → … → 1 → done. */
export function tickCountdown(state: CountdownState): CountdownState {
  if (state.phase !== 'counting') return state;
  return state.remaining <= 1 ? { phase: 'done' } : { phase: 'counting', remaining: state.remaining - 1 };
}

/** Pressing the button starts the countdown, or cancels it when one is running. */
export function pressCountdown(state: CountdownState): CountdownState {
  return state.phase === 'counting'
    ? { phase: 'idle' }
    : { phase: 'counting', remaining: WATCH_SOMETHING_NEW_SECONDS };
}

/** A genre row with fewer titles than this is skipped: the next genre of the shuffled list takes its place. */
export const MIN_GENRE_ROW_TITLES = 8;

/**
 * The genres the page shows: the first `count` of the shuffled list that are not known to be too small.
 * A genre whose row turned out too small drops out, and the next one moves up; fewer than `count` only
 * when the source has no more genres with enough titles.
 */
export function visibleGenres<G extends { id: number }>(
  shuffled: readonly G[],
  tooSmall: ReadonlySet<number>,
  count: number,
): G[] {
  return shuffled.filter((g) => !tooSmall.has(g.id)).slice(0, count);
}

/** Whether a loaded genre row has enough titles to be shown. */
export const isFullGenreRow = (items: readonly unknown[]): boolean => items.length >= MIN_GENRE_ROW_TITLES;

/** Genre rows titled on their own (`discover.lists.*`): the genre's name already says the kind of title. */
export type OwnGenreTitle = 'tvMovies' | 'newsShows' | 'realityShows' | 'soapOperas' | 'talkShows';

/** TMDB genre ids (the embedded catalog uses the same) whose rows have a title of their own. */
export const OWN_GENRE_TITLES: Record<'movie' | 'tv', Readonly<Partial<Record<number, OwnGenreTitle>>>> = {
  movie: { 10770: 'tvMovies' },
  tv: { 10763: 'newsShows', 10764: 'realityShows', 10766: 'soapOperas', 10767: 'talkShows' },
};

export type GenreRowTitle =
  | { key: 'discover.lists.genreMovies' | 'discover.lists.genreShows'; genre: string }
  | { key: `discover.lists.${OwnGenreTitle}` };

/**
 * How a genre row is titled: "{genre} Movies" / "{genre} Shows" (each language's own pattern), except
 * genres that are themselves a kind of title (TV Movie, Soap, Talk, Reality, News), which have a title of
 * their own: never "TV Movie Movies" or "Soap Shows".
 */
export function genreRowTitle(type: 'movie' | 'tv', genre: { id: number; name: string }): GenreRowTitle {
  const own = OWN_GENRE_TITLES[type][genre.id];
  if (own) return { key: `discover.lists.${own}` };
  return {
    key: type === 'movie' ? 'discover.lists.genreMovies' : 'discover.lists.genreShows',
    genre: genre.name,
  };
}

/** Watch Something New picks among released titles only (the contract's release rule). */
export function pickReleased<T extends { releaseDate: string | null; year: number | null }>(
  candidates: readonly T[],
  now: Date,
  random: () => number = Math.random,
): T | null {
  const released = candidates.filter((c) => isTitleReleased(c, now));
  return released[Math.floor(random() * released.length)] ?? null;
}
