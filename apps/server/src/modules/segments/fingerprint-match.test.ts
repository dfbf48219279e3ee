import { describe, expect, it } from 'vitest';
import {
  INTRO_MATCH,
  POINT_LAG_SECONDS,
  POINT_SECONDS,
  agreedPassage,
  bitErrors,
  candidateShifts,
  matchPair,
  sharedPassages,
  sharedPassagesInTurns,
  type EpisodePrint,
} from './fingerprint-match.ts';

/** Seeded numbers (mulberry32): the same prints on every run. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const randomPoints = (n: number, seed: number) => {
  const random = prng(seed);
  return Uint32Array.from({ length: n }, () => Math.floor(random() * 2 ** 32));
};

/** `points` with `bits` random bits flipped in each (an encoding's noise). */
function noisy(points: Uint32Array, bits: number, seed: number): Uint32Array {
  const random = prng(seed);
  return points.map((p) => {
    let out = p;
    for (let k = 0; k < bits; k++) out ^= 1 << Math.floor(random() * 32);
    return out >>> 0;
  });
}

const seconds = (s: number) => Math.round(s / POINT_SECONDS);

/** An episode: its own points with `shared` put in at `at` seconds (`bits` flipped in each point). */
function episode(
  id: string,
  length: number,
  shared: Uint32Array,
  at: number,
  seed: number,
  bits = 3,
): EpisodePrint {
  const points = randomPoints(seconds(length), seed);
  points.set(noisy(shared, bits, seed + 1), seconds(at));
  return { id, points, offset: 0 };
}

describe('fingerprint matching (decision 111)', () => {
  it('counts differing bits', () => {
    expect(bitErrors(0, 0)).toBe(0);
    expect(bitErrors(0, 0xffffffff)).toBe(32);
    expect(bitErrors(0b1011, 0b0001)).toBe(2);
    expect(bitErrors(0x80000000, 0)).toBe(1);
  });

  it('votes for the alignment of a shared passage first', () => {
    const shared = randomPoints(seconds(20), 1);
    const a = episode('a', 120, shared, 10, 10).points;
    const b = episode('b', 120, shared, 40, 20).points;
    const [best] = candidateShifts(a, b, 5, seconds(15));
    expect(best).toBe(seconds(10) - seconds(40));
  });

  it('finds the passage two episodes share, wherever each has it, within a second', () => {
    const shared = randomPoints(seconds(25), 2);
    const a = episode('a', 180, shared, 0, 30).points;
    const b = episode('b', 180, shared, 73.5, 40).points;
    const runs = matchPair(a, b, INTRO_MATCH);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.aStart * POINT_SECONDS).toBeCloseTo(0, 0);
    expect(runs[0]!.bStart * POINT_SECONDS).toBeCloseTo(73.5, 0);
    expect((runs[0]!.aEnd - runs[0]!.aStart + 1) * POINT_SECONDS).toBeCloseTo(25, 0);
  });

  it('keeps only passages of the allowed length, and never stillness (silence, a held tone)', () => {
    const short = randomPoints(seconds(8), 3);
    expect(
      matchPair(episode('a', 90, short, 5, 50).points, episode('b', 90, short, 30, 60).points, INTRO_MATCH),
    ).toEqual([]);
    const long = randomPoints(seconds(150), 4);
    expect(
      matchPair(episode('a', 200, long, 5, 70).points, episode('b', 200, long, 20, 80).points, INTRO_MATCH),
    ).toEqual([]);
    // Chromaprint gives stillness one point over and over (what fpcalc answers for silence or a 440 Hz tone).
    const silence = new Uint32Array(seconds(30)).fill(558758263);
    const still = (seed: number, at: number) => episode('x', 90, silence, at, seed, 0).points;
    expect(matchPair(still(90, 5), still(100, 30), INTRO_MATCH)).toEqual([]);
    // The same passage with music in it is found.
    const music = randomPoints(seconds(30), 11);
    expect(
      matchPair(
        episode('a', 90, music, 5, 90, 0).points,
        episode('b', 90, music, 30, 100, 0).points,
        INTRO_MATCH,
      ),
    ).toHaveLength(1);
  });

  it('gives each episode of a season the passage most others share, not one another episode repeats', () => {
    const intro = randomPoints(seconds(30), 5);
    const recap = randomPoints(seconds(40), 6);
    const prints = [
      episode('e1', 300, intro, 60, 110),
      episode('e2', 300, intro, 0, 120),
      episode('e3', 300, intro, 95, 130),
      episode('e4', 300, intro, 20, 140),
    ];
    // Episode 3 recaps episode 2 (a longer passage those two alone share) before its intro.
    prints[1]!.points.set(noisy(recap, 2, 7), seconds(150));
    prints[2]!.points.set(noisy(recap, 2, 8), seconds(10));
    const found = sharedPassages(prints, INTRO_MATCH);
    for (const [id, at] of [
      ['e1', 60],
      ['e2', 0],
      ['e3', 95],
      ['e4', 20],
    ] as const) {
      const passage = found.get(id)!;
      expect(Math.abs(passage.start - at), id).toBeLessThan(1);
      expect(Math.abs(passage.end - (at + 30)), id).toBeLessThan(1.5);
      expect(passage.support).toBe(3);
    }
  });

  it('finds the same a pair at a time, letting the event loop go in between, and stops when told', async () => {
    const intro = randomPoints(seconds(25), 13);
    const prints = [0, 40, 75].map((at, i) => episode(`e${i}`, 120, intro, at, 600 + i));
    let turns = 0;
    const counting = setInterval(() => (turns += 1), 0);
    try {
      expect(await sharedPassagesInTurns(prints, INTRO_MATCH)).toEqual(sharedPassages(prints, INTRO_MATCH));
    } finally {
      clearInterval(counting);
    }
    expect(turns).toBeGreaterThan(0);
    const stop = new AbortController();
    stop.abort(new Error('closing'));
    await expect(sharedPassagesInTurns(prints, INTRO_MATCH, stop.signal)).rejects.toThrow('closing');
  });

  it('finds nothing in episodes that share nothing', () => {
    const prints = [1, 2, 3].map((n) => ({
      id: `e${n}`,
      points: randomPoints(seconds(120), n * 1000),
      offset: 0,
    }));
    expect(sharedPassages(prints, INTRO_MATCH).size).toBe(0);
  });

  it('places passages at the fingerprint’s offset in the file', () => {
    const shared = randomPoints(seconds(20), 9);
    const a = { ...episode('a', 100, shared, 10, 200), offset: 600 };
    const b = { ...episode('b', 100, shared, 30, 300), offset: 1200 };
    const found = sharedPassages([a, b], INTRO_MATCH);
    expect(found.get('a')!.start - POINT_LAG_SECONDS).toBeCloseTo(610, 0);
    expect(found.get('b')!.start - POINT_LAG_SECONDS).toBeCloseTo(1230, 0);
  });

  it('does not stretch a passage over ragged edges (points that match now and then)', () => {
    const shared = randomPoints(seconds(20), 12);
    const a = episode('a', 90, shared, 30, 400, 0).points;
    const b = episode('b', 90, shared, 30, 500, 0).points;
    // Three seconds before and after it, one point in four matches (gaps the runs would bridge).
    for (const edge of [seconds(27), seconds(50)])
      for (let i = edge; i < edge + seconds(3); i += 4) b[i] = a[i]!;
    const [run] = matchPair(a, b, INTRO_MATCH);
    // Bridged, they would stretch it by 3 s at each end; trimmed, it is off by half a second at most.
    expect(Math.abs(run!.aStart - seconds(30))).toBeLessThanOrEqual(4);
    expect(Math.abs(run!.aEnd - (seconds(30) + shared.length - 1))).toBeLessThanOrEqual(4);
  });

  it('agrees on the passage most partners share, then the longest', () => {
    expect(agreedPassage([])).toBeNull();
    const passage = agreedPassage([
      { start: 10, end: 30, partner: 'b' },
      { start: 11, end: 31, partner: 'c' },
      { start: 100, end: 160, partner: 'd' },
    ]);
    expect(passage).toEqual({ start: 10.5, end: 30.5, support: 2 });
    expect(
      agreedPassage([
        { start: 10, end: 30, partner: 'b' },
        { start: 100, end: 160, partner: 'c' },
      ]),
    ).toEqual({ start: 100, end: 160, support: 1 });
  });
});
