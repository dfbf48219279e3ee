/*
 * Content ratings for kids' profiles (docs/decisions/106-kids-profiles.md). Each region's certification
 * systems — one for films, one for television, as TMDB reports them (`release_dates`, `content_ratings`) —
 * with the youngest age each rating is meant for. A limit is an age in a region: a title passes when its
 * rating there (or, when the region has none for it, its US rating) is meant for that age or younger.
 */

/** Ratings → the youngest age they are meant for. */
export type RatingSystem = Readonly<Record<string, number>>;
export interface RatingLadder {
  readonly movie: RatingSystem;
  readonly tv: RatingSystem;
}

export const CONTENT_RATINGS = {
  US: {
    movie: { G: 0, PG: 10, 'PG-13': 13, R: 17, 'NC-17': 18 },
    tv: { 'TV-Y': 0, 'TV-G': 0, 'TV-Y7': 7, 'TV-PG': 10, 'TV-14': 14, 'TV-MA': 17 },
  },
  GB: {
    movie: { U: 0, PG: 8, '12A': 12, '12': 12, '15': 15, '18': 18, R18: 18 },
    tv: { U: 0, PG: 8, '12': 12, '15': 15, '18': 18 },
  },
  CA: {
    movie: { G: 0, PG: 8, '14A': 14, '18A': 18, R: 18 },
    tv: { C: 0, G: 0, C8: 8, PG: 8, '14+': 14, '18+': 18 },
  },
  AU: {
    movie: { G: 0, PG: 8, M: 15, 'MA15+': 15, 'R18+': 18, 'X18+': 18 },
    tv: { P: 0, C: 0, G: 0, PG: 8, M: 15, 'MA15+': 15, 'AV15+': 15, 'R18+': 18 },
  },
  DE: {
    movie: { '0': 0, '6': 6, '12': 12, '16': 16, '18': 18 },
    tv: { '0': 0, '6': 6, '12': 12, '16': 16, '18': 18 },
  },
  FR: {
    movie: { U: 0, '10': 10, '12': 12, '16': 16, '18': 18 },
    tv: { '10': 10, '12': 12, '16': 16, '18': 18 },
  },
  ES: {
    movie: { A: 0, '7': 7, '12': 12, '16': 16, '18': 18 },
    tv: { TP: 0, '7': 7, '10': 10, '12': 12, '13': 13, '16': 16, '18': 18 },
  },
  IT: {
    movie: { T: 0, '6+': 6, '14+': 14, VM14: 14, '18+': 18, VM18: 18 },
    tv: { T: 0, BA: 10, VM14: 14, VM18: 18 },
  },
  NL: {
    movie: { AL: 0, '6': 6, '9': 9, '12': 12, '14': 14, '16': 16, '18': 18 },
    tv: { AL: 0, '6': 6, '9': 9, '12': 12, '14': 14, '16': 16, '18': 18 },
  },
  SE: {
    movie: { Btl: 0, '7': 7, '11': 11, '15': 15 },
    tv: { Btl: 0, '7': 7, '11': 11, '15': 15 },
  },
  BR: {
    movie: { L: 0, '10': 10, '12': 12, '14': 14, '16': 16, '18': 18 },
    tv: { L: 0, '10': 10, '12': 12, '14': 14, '16': 16, '18': 18 },
  },
  MX: {
    movie: { AA: 0, A: 0, B: 12, 'B-15': 15, C: 18, D: 18 },
    tv: { AA: 0, A: 0, B: 12, 'B-15': 15, C: 18, D: 18 },
  },
  IN: {
    movie: { U: 0, 'UA 7+': 7, UA: 12, 'UA 13+': 13, 'UA 16+': 16, A: 18 },
    tv: { U: 0, 'UA 7+': 7, UA: 12, 'UA 13+': 13, 'UA 16+': 16, A: 18 },
  },
  JP: {
    movie: { G: 0, PG12: 12, 'R15+': 15, 'R18+': 18 },
    tv: { G: 0, PG12: 12, 'R15+': 15, 'R18+': 18 },
  },
  KR: {
    movie: { All: 0, '12': 12, '15': 15, '18': 18 },
    tv: { ALL: 0, '7': 7, '12': 12, '15': 15, '19': 18 },
  },
} as const satisfies Record<string, RatingLadder>;

export type ContentRatingRegion = keyof typeof CONTENT_RATINGS;
export const CONTENT_RATING_REGIONS = Object.keys(CONTENT_RATINGS) as [
  ContentRatingRegion,
  ...ContentRatingRegion[],
];

/** The region whose ratings stand in when a title has none in the limit's region (TMDB's fullest). */
export const FALLBACK_RATING_REGION: ContentRatingRegion = 'US';

/** A title's certifications by country (ISO 3166-1), as TMDB reports them: `{ US: 'PG-13', DE: '12' }`. */
export type Certifications = Readonly<Record<string, string>>;

const hasOwn = (record: object, key: string) => Object.prototype.hasOwnProperty.call(record, key);

/** The youngest age `certification` is meant for in `region`'s system for `type`; null when unknown. */
export function ratingAge(region: string, type: 'movie' | 'tv', certification: string): number | null {
  if (!hasOwn(CONTENT_RATINGS, region)) return null;
  const system: RatingSystem = CONTENT_RATINGS[region as ContentRatingRegion][type];
  const key = certification.trim();
  return hasOwn(system, key) ? system[key]! : null;
}

/** A title's age in `region`: its rating there, else its US rating; null when it has neither. */
export function titleAge(
  certifications: Certifications,
  region: string,
  type: 'movie' | 'tv',
): number | null {
  for (const country of [region, FALLBACK_RATING_REGION]) {
    const certification = hasOwn(certifications, country) ? certifications[country] : undefined;
    const age = certification ? ratingAge(country, type, certification) : null;
    if (age !== null) return age;
  }
  return null;
}

/** A kids' profile's limit (the schema is `ContentLimit` in content-limit.ts). */
export interface ContentLimitValue {
  region: ContentRatingRegion;
  maxAge: number;
  showUnrated: boolean;
}

/** Whether a title of `age` (null: unrated) is within the limit. */
export function withinLimit(limit: ContentLimitValue, age: number | null): boolean {
  return age === null ? limit.showUnrated : age <= limit.maxAge;
}

/**
 * The steps a limit offers in `region`: each film rating's age, with the film and TV ratings meant for
 * that age or younger but older than the step before (what the profile editor lists).
 */
export function limitSteps(region: ContentRatingRegion): { maxAge: number; movie: string[]; tv: string[] }[] {
  const ladder: RatingLadder = CONTENT_RATINGS[region];
  const ages = [...new Set(Object.values(ladder.movie))].sort((a, b) => a - b);
  return ages.map((maxAge, i) => {
    const above = i === 0 ? -1 : ages[i - 1]!;
    const within = (system: RatingSystem) =>
      Object.entries(system)
        .filter(([, age]) => age > above && age <= maxAge)
        .map(([rating]) => rating);
    return { maxAge, movie: within(ladder.movie), tv: within(ladder.tv) };
  });
}
