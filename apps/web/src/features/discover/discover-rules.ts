/** Discover page rules of the seed spec. */

export const CAROUSEL_SIZE = 20;
export const RANDOM_MOVIE_GENRES = 4;
export const RANDOM_TV_GENRES = 6;
export const MOVIE_GENRE_PAGES = 6;
export const WATCH_SOMETHING_NEW_SECONDS = 5;
export const CAROUSEL_TITLE_MAX = 32;
export const NARROW_VIEWPORT_PX = 600;

/** Poster card width: 150 px under a 600 px viewport, else 200 px. */
export function cardWidth(viewportWidth: number): number {
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
