import { describe, expect, it } from 'vitest';
import type { MatchItem, MediaDetails, MediaSummary, SeasonDetails, TmdbType } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import {
  MATCH_DEADLINE_MS,
  betterChoice,
  chooseMatch,
  episodeById,
  episodeByNumber,
  episodeByTitle,
  isSameTitle,
  matchTitles,
  seasonSearchOrder,
  type MatchMetadata,
} from './title-match.ts';

const card = (id: number, title: string, year: number | null, type: TmdbType = 'movie'): MediaSummary => ({
  id: String(id),
  type,
  title,
  year,
  releaseDate: year === null ? null : `${year}-06-01`,
  poster: null,
});

const lionKing1994 = card(8587, 'The Lion King', 1994);
const lionKing2019 = card(420818, 'The Lion King', 2019);
const dune2021 = card(438631, 'Dune', 2021);
const dune1984 = card(841, 'Dune', 1984);
const dunePartTwo = card(693134, 'Dune: Part Two', 2024);
const fargoMovie = card(275, 'Fargo', 1996);
const fargoShow = card(60622, 'Fargo', 2014, 'tv');

const ids = (cards: readonly MediaSummary[]) => cards.map((c) => c.id);

describe('chooseMatch', () => {
  it('matches the one exact title of the year, the other years after it', () => {
    const choice = chooseMatch({ title: 'The Lion King', year: 1994 }, [lionKing2019, lionKing1994]);
    expect(choice).toEqual({
      status: 'matched',
      match: lionKing1994,
      candidates: [lionKing1994, lionKing2019],
    });
  });

  it('matches an exact title a year off when none is of that year (festival and release years)', () => {
    const choice = chooseMatch({ title: 'Dune', year: 2020 }, [dune2021, dunePartTwo, dune1984]);
    expect(choice.status).toBe('matched');
    expect(choice.match).toEqual(dune2021);
    // Not when one is of the year itself, nor when two are a year off.
    const dune2020 = card(1, 'Dune', 2020);
    expect(chooseMatch({ title: 'Dune', year: 2021 }, [dune2020, dune2021]).match).toEqual(dune2021);
    const twoOff = chooseMatch({ title: 'Dune', year: 2020 }, [dune2021, card(2, 'Dune', 2019)]);
    expect(twoOff.status).toBe('unsure');
    expect(twoOff.candidates).toHaveLength(2);
  });

  it('matches the one exact title when the file gives no year', () => {
    const inception = card(27205, 'Inception', 2010);
    const choice = chooseMatch({ title: 'inception' }, [
      card(64956, 'Inception: The Cobol Job', 2010),
      inception,
    ]);
    expect(choice.status).toBe('matched');
    expect(choice.match).toEqual(inception);
    expect(ids(choice.candidates)).toEqual(['27205', '64956']);
  });

  it('is unsure without a year when two titles are exact (Dune 2021 and 1984): the search’s first is the guess', () => {
    const choice = chooseMatch({ title: 'Dune' }, [dune2021, dunePartTwo, dune1984]);
    expect(choice.status).toBe('unsure');
    expect(choice.match).toEqual(dune2021);
    expect(choice.candidates).toEqual([dune2021, dune1984, dunePartTwo]);
  });

  it('is unsure of a remake with the wrong year, the closest year guessed', () => {
    const choice = chooseMatch({ title: 'The Lion King', year: 2000 }, [lionKing2019, lionKing1994]);
    expect(choice.status).toBe('unsure');
    expect(choice.candidates).toEqual([lionKing1994, lionKing2019]);
  });

  it('keeps to the type given', () => {
    expect(chooseMatch({ title: 'Fargo', type: 'tv' }, [fargoMovie, fargoShow])).toEqual({
      status: 'matched',
      match: fargoShow,
      candidates: [fargoShow],
    });
    expect(chooseMatch({ title: 'Fargo', type: 'movie', year: 1996 }, [fargoShow, fargoMovie]).match).toEqual(
      fargoMovie,
    );
    expect(chooseMatch({ title: 'Fargo' }, [fargoMovie, fargoShow]).status).toBe('unsure');
    expect(chooseMatch({ title: 'Dune', type: 'tv' }, [dune2021]).status).toBe('unmatched');
  });

  it('prefers the result with the id given without a type, when its title fits', () => {
    expect(chooseMatch({ title: 'Fargo', tmdbId: '60622' }, [fargoMovie, fargoShow])).toMatchObject({
      status: 'matched',
      match: fargoShow,
    });
    // The id of a result whose title is not the one wanted proves nothing: the title rules decide.
    const other = card(60622, 'Something Else', 2014, 'tv');
    expect(chooseMatch({ title: 'Fargo', tmdbId: '60622' }, [other, fargoMovie])).toEqual({
      status: 'matched',
      match: fargoMovie,
      candidates: [fargoMovie],
    });
    const fargo2003 = card(99, 'Fargo', 2003, 'tv');
    expect(chooseMatch({ title: 'Fargo', tmdbId: '60622' }, [other, fargoMovie, fargo2003]).status).toBe(
      'unsure',
    );
  });

  it('is unsure of titles matching by words, prefix or a leading part only', () => {
    const stone = card(671, "Harry Potter and the Philosopher's Stone", 2001);
    const words = chooseMatch({ title: "Harry Potter Philosopher's Stone", year: 2001 }, [stone]);
    expect(words).toEqual({ status: 'unsure', match: stone, candidates: [stone] });
    expect(chooseMatch({ title: 'Dune', year: 2024 }, [dunePartTwo]).status).toBe('unsure');
  });

  it('is unmatched when nothing matches at the words tier (typos and unrelated titles do not count)', () => {
    const godfather = card(238, 'The Godfather', 1972);
    expect(chooseMatch({ title: 'Godfathr', year: 1972 }, [godfather])).toEqual({
      status: 'unmatched',
      match: null,
      candidates: [],
    });
    expect(chooseMatch({ title: 'Zzyzx Road' }, [godfather, dune2021]).status).toBe('unmatched');
    expect(chooseMatch({ title: 'Dune' }, []).status).toBe('unmatched');
    expect(chooseMatch({ title: '!!!' }, [godfather]).status).toBe('unmatched');
  });

  it('orders candidates: exact titles, then the closest year (unknown years last), then the search’s order; five at most', () => {
    const results = [
      card(679, 'Aliens', 1986),
      card(945961, 'Alien: Romulus', 2024),
      card(8077, 'Alien³', 1992),
      card(348, 'Alien', 1979),
      card(8078, 'Alien Resurrection', 1997),
      card(395, 'AVP: Alien vs. Predator', 2004),
      card(126889, 'Alien: Covenant', 2017),
      card(9999, 'Alien Undated', null),
    ];
    const noYear = chooseMatch({ title: 'Alien' }, results);
    expect(noYear.status).toBe('matched');
    expect(ids(noYear.candidates)).toEqual(['348', '679', '945961', '8077', '8078']);
    const withYear = chooseMatch({ title: 'Alien', year: 1990 }, results);
    expect(withYear.status).toBe('unsure');
    expect(ids(withYear.candidates)).toEqual(['348', '8077', '679', '8078', '395']);
    const late = chooseMatch({ title: 'Alien', year: 2030 }, [card(9999, 'Alien Undated', null), ...results]);
    expect(ids(late.candidates).slice(0, 3)).toEqual(['348', '945961', '126889']);
    expect(ids(late.candidates)).not.toContain('9999');
  });
});

describe('isSameTitle and betterChoice', () => {
  it('folds case, accents, punctuation and a leading article, either way round', () => {
    expect(isSameTitle('The Office', 'Office')).toBe(true);
    expect(isSameTitle('Office', 'The Office')).toBe(true);
    expect(isSameTitle('Amelie', 'Amélie')).toBe(true);
    expect(isSameTitle('Spiderman', 'Spider-Man')).toBe(true);
    expect(isSameTitle('Dune', 'Dune: Part Two')).toBe(false);
  });

  it('takes the second choice only when it is surer', () => {
    const matched = chooseMatch({ title: 'Dune', year: 2021 }, [dune2021]);
    const unsure = chooseMatch({ title: 'Dune' }, [dune2021, dune1984]);
    const unmatched = chooseMatch({ title: 'Dune' }, []);
    expect(betterChoice(unmatched, unsure)).toBe(unsure);
    expect(betterChoice(unsure, matched)).toBe(matched);
    expect(betterChoice(matched, unsure)).toBe(matched);
    expect(betterChoice(unsure, { ...unsure })).toBe(unsure);
  });
});

const episode = (id: number, number: number, title: string) => ({
  id: String(id),
  number,
  title,
  airDate: null,
  overview: null,
  runtime: null,
  still: null,
});
const season = (number: number, episodes: ReturnType<typeof episode>[]): SeasonDetails => ({
  id: `s${number}`,
  number,
  title: number === 0 ? 'Specials' : `Season ${number}`,
  episodes,
});
const specials = season(0, [episode(900, 1, 'Pilot')]);
const season1 = season(1, [episode(101, 1, 'Pilot'), episode(102, 2, "Cat's in the Bag...")]);
const season2 = season(2, [episode(201, 1, 'Seven Thirty-Seven'), episode(202, 2, 'Grilled')]);

describe('episodes', () => {
  it('looks in the seasons first and the specials last', () => {
    expect(seasonSearchOrder([0, 2, 1])).toEqual([1, 2, 0]);
    expect(seasonSearchOrder([])).toEqual([]);
  });

  it('finds an episode by number, by folded title (first in order) and by id, with its season', () => {
    expect(episodeByNumber(season1, 2)).toEqual({
      seasonId: 's1',
      seasonNumber: 1,
      seasonTitle: 'Season 1',
      id: '102',
      number: 2,
      title: "Cat's in the Bag...",
    });
    expect(episodeByNumber(season1, 3)).toBeNull();
    expect(episodeByTitle([season1, season2], 'cats in the bag')?.id).toBe('102');
    expect(episodeByTitle([season1, season2, specials], 'PILOT')?.id).toBe('101');
    expect(episodeByTitle([season1], 'Grilled')).toBeNull();
    expect(episodeByTitle([season1], '...')).toBeNull();
    expect(episodeById([season1, season2], '202')).toMatchObject({ seasonNumber: 2, number: 2 });
    expect(episodeById([season1], '202')).toBeNull();
  });
});

/** A metadata service answering from fixed data, counting its calls. */
function fakeMetadata(options: {
  search?: Record<string, MediaSummary[]>;
  seasons?: SeasonDetails[];
  failing?: Set<string>;
  budget?: () => void;
}) {
  const calls: string[] = [];
  const unavailable = () => new AppError(503, 'metadata_unavailable', 'Failed to load metadata');
  const notFound = () => new AppError(404, 'media_not_found', "Couldn't find that media");
  const metadata: MatchMetadata = {
    withinBudget: (work) => {
      options.budget?.();
      return work();
    },
    search: async (query, language = 'en') => {
      calls.push(`search:${query}:${language}`);
      if (options.failing?.has(query)) throw unavailable();
      return options.search?.[`${query}:${language}`] ?? [];
    },
    findByImdb: async (imdbId) => {
      calls.push(`find:${imdbId}`);
      if (imdbId === 'tt0000503') throw unavailable();
      if (imdbId === 'tt0116282') return fargoMovie;
      throw notFound();
    },
    details: async (type, id) => {
      calls.push(`details:${type}:${id}`);
      if (type === 'tv' && id === fargoShow.id)
        return {
          ...fargoShow,
          seasons: [{ number: 0 }, { number: 1 }, { number: 2 }],
        } as unknown as MediaDetails;
      throw notFound();
    },
    season: async (showId, number, language = 'en') => {
      calls.push(`season:${showId}:${number}:${language}`);
      const found = options.seasons?.find((s) => s.number === number);
      if (number === 7) throw unavailable();
      if (!found) throw notFound();
      return found;
    },
  };
  return { metadata, calls };
}

const item = (key: string, title: string, extra: Partial<MatchItem> = {}): MatchItem => ({
  key,
  title,
  ...extra,
});

describe('matchTitles', () => {
  it('answers in order: ids first, a 404 falling through to the title, a failing title as failed', async () => {
    const { metadata, calls } = fakeMetadata({
      search: { 'The Lion King:en': [lionKing2019, lionKing1994], 'Fargo:en': [fargoMovie, fargoShow] },
      failing: new Set(['Broken']),
    });
    const results = await matchTitles(
      metadata,
      [
        item('a', 'Fargo', { imdbId: 'tt0116282' }),
        item('b', 'The Lion King', { year: 1994, type: 'movie', tmdbId: '99999999' }),
        item('c', 'Broken', { episodes: [{ season: 1, number: 1 }] }),
        item('d', 'Fargo', { imdbId: 'tt0000503' }),
        item('e', 'Nothing Like It'),
      ],
      'en',
    );
    expect(results.map((r) => [r.key, r.status, r.match?.id ?? null])).toEqual([
      ['a', 'matched', '275'],
      ['b', 'matched', '8587'],
      ['c', 'failed', null],
      ['d', 'failed', null],
      ['e', 'unmatched', null],
    ]);
    expect(results[2]!.episodes).toEqual([null]);
    expect(results[4]).toEqual({ key: 'e', status: 'unmatched', match: null, candidates: [], episodes: [] });
    expect(calls).toContain('details:movie:99999999');
    expect(calls).not.toContain('search:Fargo:en');
  });

  it('searches in the viewer’s language too when English has no exact title, and keeps the surer answer', async () => {
    const unforgiven = card(33, 'Unforgiven', 1992);
    const impitoyable = card(33, 'Impitoyable', 1992);
    const { metadata, calls } = fakeMetadata({
      search: {
        'Impitoyable:en': [unforgiven],
        'Impitoyable:fr': [impitoyable],
        'Dune:en': [dune2021],
      },
    });
    const [french, english] = await matchTitles(
      metadata,
      [item('a', 'Impitoyable', { year: 1992 }), item('b', 'Dune', { year: 2021 })],
      'fr',
    );
    expect(french).toMatchObject({ status: 'matched', match: impitoyable });
    expect(english).toMatchObject({ status: 'matched', match: dune2021 });
    expect(calls).not.toContain('search:Dune:fr');
  });

  it('finds episodes of a show, fetching each season once per request; a season that fails leaves its episodes null', async () => {
    const { metadata, calls } = fakeMetadata({
      search: { 'Fargo:en': [fargoMovie, fargoShow] },
      seasons: [specials, season1, season2],
    });
    const asked = [
      { season: 1, number: 2 },
      { season: 2, title: 'grilled' },
      { title: 'Seven Thirty-Seven' },
      { tmdbId: '101' },
      { season: 1, number: 9 },
      { season: 7, number: 1 },
      {},
    ];
    const results = await matchTitles(
      metadata,
      [
        item('show', 'Fargo', { type: 'tv', episodes: asked }),
        item('again', 'Fargo', { type: 'tv', episodes: [{ season: 1, number: 1 }] }),
        item('movie', 'Fargo', { type: 'movie', year: 1996, episodes: [{ season: 1, number: 1 }] }),
      ],
      'en',
    );
    expect(results[0]!.status).toBe('matched');
    expect(results[0]!.episodes.map((e) => e && e.id)).toEqual([
      '102',
      '202',
      '201',
      '101',
      null,
      null,
      null,
    ]);
    expect(results[1]!.episodes.map((e) => e && e.id)).toEqual(['101']);
    expect(results[2]!.episodes).toEqual([null]);
    const seasonCalls = calls.filter((c) => c.startsWith('season:'));
    expect(new Set(seasonCalls).size).toBe(seasonCalls.length);
    expect(seasonCalls.sort()).toEqual([
      'season:60622:0:en',
      'season:60622:1:en',
      'season:60622:2:en',
      'season:60622:7:en',
    ]);
  });

  it('answers titles not started by the deadline as failed', async () => {
    let clock = 0;
    const { metadata } = fakeMetadata({
      search: { 'Dune:en': [dune2021] },
      // Each title takes 6 s of the clock when it starts.
      budget: () => void (clock += 6_000),
    });
    const items = Array.from({ length: 8 }, (_, i) => item(String(i), 'Dune', { year: 2021 }));
    const results = await matchTitles(metadata, items, 'en', { now: () => clock });
    // Started at 0, 6, 12 and 18 s; the fifth would start at 24 s, past the 20 s deadline.
    expect(MATCH_DEADLINE_MS).toBe(20_000);
    expect(results.map((r) => r.status)).toEqual([
      'matched',
      'matched',
      'matched',
      'matched',
      'failed',
      'failed',
      'failed',
      'failed',
    ]);
  });
});
