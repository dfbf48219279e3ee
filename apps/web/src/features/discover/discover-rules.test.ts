import { describe, expect, it } from 'vitest';
import {
  CAROUSEL_SIZE,
  MOVIE_GENRE_PAGES,
  RANDOM_MOVIE_GENRES,
  RANDOM_TV_GENRES,
  WATCH_SOMETHING_NEW_SECONDS,
  MIN_GENRE_ROW_TITLES,
  cardWidth,
  genreRowTitle,
  isFullGenreRow,
  pickRandom,
  pickReleased,
  pressCountdown,
  shuffle,
  tickCountdown,
  toCarousel,
  truncateTitle,
  visibleGenres,
  type CountdownState,
} from './discover-rules.ts';

/** mulberry32: a tiny seeded generator, so "random" tests are reproducible. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('discover constants', () => {
  it('keep the page’s rows and counts', () => {
    expect(CAROUSEL_SIZE).toBe(20);
    expect(RANDOM_MOVIE_GENRES).toBe(4);
    expect(RANDOM_TV_GENRES).toBe(6);
    expect(MOVIE_GENRE_PAGES).toBe(6);
    expect(WATCH_SOMETHING_NEW_SECONDS).toBe(5);
  });
});

describe('cardWidth', () => {
  it('is 150 px under a 600 px viewport and 200 px from 600 px on', () => {
    expect(cardWidth(320)).toBe(150);
    expect(cardWidth(599)).toBe(150);
    expect(cardWidth(600)).toBe(200);
    expect(cardWidth(1920)).toBe(200);
  });

  it('in TV mode is the same share of every screen (13 %), 150 px at least', () => {
    expect(cardWidth(1920, true)).toBe(250);
    expect(cardWidth(1280, true)).toBe(166);
    expect(cardWidth(1920, true) / 1920).toBeCloseTo(cardWidth(1280, true) / 1280, 2);
    expect(cardWidth(3840, true)).toBe(499);
    expect(cardWidth(800, true)).toBe(150);
    expect(cardWidth(1920, false)).toBe(200);
  });
});

describe('truncateTitle', () => {
  it('leaves titles of up to 32 characters alone', () => {
    const exactly32 = 'A'.repeat(32);
    expect(truncateTitle(exactly32)).toBe(exactly32);
    expect(truncateTitle('The Matrix')).toBe('The Matrix');
  });

  it('cuts longer titles to 32 characters and marks the cut', () => {
    const title = 'The Lord of the Rings: The Fellowship of the Ring';
    const cut = truncateTitle(title);
    expect(cut.endsWith('…')).toBe(true);
    expect(title.startsWith(cut.slice(0, -1))).toBe(true);
    expect(Array.from(cut.slice(0, -1)).length).toBeLessThanOrEqual(32);
    expect(truncateTitle('B'.repeat(33))).toBe(`${'B'.repeat(32)}…`);
  });

  it('does not leave a dangling space before the ellipsis', () => {
    expect(truncateTitle(`${'a'.repeat(31)} bcdef`)).toBe(`${'a'.repeat(31)}…`);
  });

  it('counts characters, not UTF-16 units (never splits an emoji or a surrogate pair)', () => {
    const title = '😀'.repeat(40);
    expect(truncateTitle(title)).toBe(`${'😀'.repeat(32)}…`);
  });
});

describe('shuffle and pickRandom', () => {
  const items = Array.from({ length: 10 }, (_, i) => i);

  it('returns a permutation and leaves the input untouched', () => {
    const input = [...items];
    const out = shuffle(input, seeded(1));
    expect(input).toEqual(items);
    expect([...out].sort((a, b) => a - b)).toEqual(items);
  });

  it('is reproducible with the same seed and varies with the seed', () => {
    expect(shuffle(items, seeded(42))).toEqual(shuffle(items, seeded(42)));
    const outcomes = new Set([1, 2, 3, 4, 5].map((s) => shuffle(items, seeded(s)).join(',')));
    expect(outcomes.size).toBeGreaterThan(1);
  });

  it('gives every order the same chance (Fisher–Yates, not a biased variant)', () => {
    const random = seeded(7);
    const counts = new Map<string, number>();
    const runs = 60_000;
    for (let i = 0; i < runs; i += 1) {
      const key = shuffle(['a', 'b', 'c'], random).join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    for (const count of counts.values()) expect(Math.abs(count - runs / 6)).toBeLessThan(runs * 0.01);
  });

  it('picks the asked number of distinct items, or all when there are fewer', () => {
    const genres = [28, 12, 16, 35, 80, 99, 18, 10751, 14, 36];
    const picked = pickRandom(genres, RANDOM_MOVIE_GENRES, seeded(3));
    expect(picked).toHaveLength(4);
    expect(new Set(picked).size).toBe(4);
    for (const g of picked) expect(genres).toContain(g);
    expect(pickRandom([1, 2], 6, seeded(3)).sort()).toEqual([1, 2]);
    expect(pickRandom([], 4, seeded(3))).toEqual([]);
  });
});

describe('toCarousel', () => {
  it('drops repeats of the same id and title and keeps the first occurrence', () => {
    const items = [
      { id: '1', title: 'A', n: 1 },
      { id: '2', title: 'B', n: 2 },
      { id: '1', title: 'A', n: 3 },
      { id: '1', title: 'A (re-release)', n: 4 },
    ];
    expect(toCarousel(items).map((i) => i.n)).toEqual([1, 2, 4]);
  });

  it('keeps at most 20 items, counted after de-duplication', () => {
    const pages = [...Array.from({ length: 15 }, (_, i) => ({ id: String(i), title: `T${i}` }))];
    const withRepeats = [
      ...pages,
      ...pages,
      ...Array.from({ length: 30 }, (_, i) => ({ id: `x${i}`, title: `X${i}` })),
    ];
    const carousel = toCarousel(withRepeats);
    expect(carousel).toHaveLength(CAROUSEL_SIZE);
    expect(new Set(carousel.map((i) => i.id)).size).toBe(CAROUSEL_SIZE);
    expect(carousel.slice(0, 15).map((i) => i.id)).toEqual(pages.map((p) => p.id));
    expect(carousel[15]?.id).toBe('x0');
  });
});

describe('Watch Something New countdown', () => {
  const idle: CountdownState = { phase: 'idle' };

  it('counts 5 → 1 and then is done after exactly five ticks', () => {
    let state = pressCountdown(idle);
    const seen: CountdownState[] = [state];
    for (let i = 0; i < 5; i += 1) {
      state = tickCountdown(state);
      seen.push(state);
    }
    expect(seen).toEqual([
      { phase: 'counting', remaining: 5 },
      { phase: 'counting', remaining: 4 },
      { phase: 'counting', remaining: 3 },
      { phase: 'counting', remaining: 2 },
      { phase: 'counting', remaining: 1 },
      { phase: 'done' },
    ]);
  });

  it('cancels when pressed again during the countdown', () => {
    const counting = tickCountdown(tickCountdown(pressCountdown(idle)));
    expect(pressCountdown(counting)).toEqual({ phase: 'idle' });
  });

  it('ignores ticks when not counting', () => {
    expect(tickCountdown(idle)).toEqual(idle);
    expect(tickCountdown({ phase: 'done' })).toEqual({ phase: 'done' });
  });

  it('starts afresh when pressed after a cancel', () => {
    const cancelled = pressCountdown(tickCountdown(pressCountdown(idle)));
    expect(pressCountdown(cancelled)).toEqual({ phase: 'counting', remaining: 5 });
  });
});

describe('genre rows that are never empty', () => {
  const genres = [1, 2, 3, 4, 5, 6].map((id) => ({ id, name: `G${id}` }));

  it('shows the first genres of the shuffled order', () => {
    expect(visibleGenres(genres, new Set(), 4).map((g) => g.id)).toEqual([1, 2, 3, 4]);
  });

  it('a genre too small for a row gives its place to the next one, keeping the count', () => {
    expect(visibleGenres(genres, new Set([2, 4]), 4).map((g) => g.id)).toEqual([1, 3, 5, 6]);
  });

  it('shows fewer rows only when no more genres are left', () => {
    expect(visibleGenres(genres, new Set([1, 2, 3]), 4).map((g) => g.id)).toEqual([4, 5, 6]);
  });

  it('needs at least 8 titles for a row', () => {
    expect(MIN_GENRE_ROW_TITLES).toBe(8);
    expect(isFullGenreRow(Array.from({ length: 7 }))).toBe(false);
    expect(isFullGenreRow(Array.from({ length: 8 }))).toBe(true);
    expect(isFullGenreRow([])).toBe(false);
  });
});

describe('genre row titles', () => {
  it('name ordinary genres by the kind of title', () => {
    expect(genreRowTitle('movie', { id: 28, name: 'Action' })).toEqual({
      key: 'discover.lists.genreMovies',
      genre: 'Action',
    });
    expect(genreRowTitle('tv', { id: 18, name: 'Drama' })).toEqual({
      key: 'discover.lists.genreShows',
      genre: 'Drama',
    });
  });

  it('give genres that already are a kind of title a title of their own (no "TV Movie Movies")', () => {
    expect(genreRowTitle('movie', { id: 10770, name: 'TV Movie' })).toEqual({
      key: 'discover.lists.tvMovies',
    });
    expect(genreRowTitle('tv', { id: 10766, name: 'Soap' })).toEqual({ key: 'discover.lists.soapOperas' });
    expect(genreRowTitle('tv', { id: 10767, name: 'Talk' })).toEqual({ key: 'discover.lists.talkShows' });
    expect(genreRowTitle('tv', { id: 10764, name: 'Reality' })).toEqual({
      key: 'discover.lists.realityShows',
    });
    expect(genreRowTitle('tv', { id: 10763, name: 'News' })).toEqual({ key: 'discover.lists.newsShows' });
    // The ids are per kind: a movie genre with a TV genre's id is an ordinary one.
    expect(genreRowTitle('movie', { id: 10766, name: 'X' }).key).toBe('discover.lists.genreMovies');
  });
});

describe('Watch Something New picks released titles only', () => {
  const now = new Date('2026-04-20T10:00:00Z');
  const title = (id: string, releaseDate: string | null, year: number | null = null) => ({
    id,
    title: id,
    releaseDate,
    year,
  });
  const candidates = [
    title('out', '1999-03-31', 1999),
    title('today', '2026-04-20', 2026),
    title('later', '2026-07-15', 2026),
    title('no-date', null),
    title('next-year', '', 2027),
  ];

  it('never picks a title that is not out, and can pick every one that is', () => {
    const random = seeded(14);
    const picked = new Set<string>();
    for (let i = 0; i < 200; i++) picked.add(pickReleased(candidates, now, random)!.id);
    expect([...picked].sort()).toEqual(['out', 'today']);
  });

  it('picks nothing when nothing loaded is out', () => {
    expect(pickReleased(candidates.slice(2), now)).toBeNull();
    expect(pickReleased([], now)).toBeNull();
  });
});
