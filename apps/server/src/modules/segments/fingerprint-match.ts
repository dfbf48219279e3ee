import { setImmediate } from 'node:timers/promises';

/*
 * Finding the audio a season's episodes share (decision 111), pure: Chromaprint's raw fingerprints
 * (`fpcalc -raw`: one 32-bit point per 1365 samples at 11025 Hz, ~0.1238 s of audio) of the same part of
 * each episode — its first minutes for the intro, its last for the credits — compared pair by pair.
 * Two points match when they differ in at most a few bits; a shared passage is a long run of matching
 * points at one alignment of the two episodes. An episode's segment is the passage it shares with the
 * most other episodes.
 */

/** Seconds of audio from one fingerprint point to the next (Chromaprint's hop, 1365 / 11025). */
export const POINT_SECONDS = 1365 / 11025;

export interface MatchOptions {
  /** Bits two points may differ by and still match (the popcount of their XOR). */
  maxBitErrors: number;
  /** Unmatched points a run bridges (a click, a sound effect over the music). */
  maxGapPoints: number;
  /** Shortest and longest passage kept, in seconds. */
  minSeconds: number;
  maxSeconds: number;
  /** Alignments tried per pair of episodes (the best voted ones). */
  candidateShifts: number;
  /** Each episode is compared with this many episodes before it and after it. */
  neighbours: number;
}

export const INTRO_MATCH: MatchOptions = {
  maxBitErrors: 8,
  maxGapPoints: 8,
  minSeconds: 15,
  maxSeconds: 120,
  candidateShifts: 12,
  neighbours: 4,
};

/** Credits songs run longer than intros; the tail window bounds them. */
export const CREDITS_MATCH: MatchOptions = { ...INTRO_MATCH, minSeconds: 10, maxSeconds: 600 };

/** How many of a point's 32 bits differ from another's. */
export function bitErrors(a: number, b: number): number {
  let x = (a ^ b) >>> 0;
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * The alignments (shift = index in `a` − index in `b`) worth trying: each point of `a` votes for every
 * point of `b` that has one of its four bytes equal (two points a few bits apart nearly always do), so
 * a passage both share piles its votes on its alignment. Bytes shared by too many points (silence, a
 * held tone) say nothing and do not vote.
 */
export function candidateShifts(a: Uint32Array, b: Uint32Array, count: number, minOverlap: number): number[] {
  if (a.length === 0 || b.length === 0) return [];
  const buckets: number[][][] = [0, 1, 2, 3].map(() => Array.from({ length: 256 }, () => []));
  for (let j = 0; j < b.length; j++)
    for (let k = 0; k < 4; k++) buckets[k]![(b[j]! >>> (8 * k)) & 0xff]!.push(j);
  const crowded = Math.max(16, Math.ceil((8 * b.length) / 256));
  const base = b.length - 1;
  const votes = new Uint32Array(a.length + b.length - 1);
  for (let i = 0; i < a.length; i++)
    for (let k = 0; k < 4; k++) {
      const bucket = buckets[k]![(a[i]! >>> (8 * k)) & 0xff]!;
      if (bucket.length > crowded) continue;
      for (const j of bucket) votes[i - j + base]! += 1;
    }
  const overlap = (shift: number) => Math.min(a.length, b.length + shift) - Math.max(0, shift);
  const order: number[] = [];
  for (let s = 0; s < votes.length; s++) if (votes[s]! > 0 && overlap(s - base) >= minOverlap) order.push(s);
  order.sort((x, y) => votes[y]! - votes[x]! || x - y);
  return order.slice(0, count).map((s) => s - base);
}

/** A passage two fingerprints share: point indexes in each (inclusive), at one alignment. */
export interface Run {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

const runLength = (run: Run) => run.aEnd - run.aStart + 1;

/**
 * Whether a run is audio rather than stillness: silence, a held tone or steady noise gives the same
 * point over and over, which matches everywhere; music moves a few bits from one point to the next. At
 * least a fifth of its points must differ from the point before by two bits or more.
 */
function isVaried(points: Uint32Array, start: number, end: number): boolean {
  let changes = 0;
  for (let i = start + 1; i <= end; i++) if (bitErrors(points[i]!, points[i - 1]!) >= 2) changes += 1;
  return changes >= (end - start) / 5;
}

/** Points at a run's edges are trimmed until this many in a row hold at least EDGE_MATCHES matches. */
const EDGE_WINDOW = 8;
const EDGE_MATCHES = 6;

/**
 * A run without its ragged edges: a point whose audio straddles the passage's boundary still half
 * matches now and then, and the gaps bridged there would stretch the passage out by a second or two.
 */
function trimmed(matched: (i: number) => boolean, start: number, last: number): [number, number] {
  const dense = (from: number) => {
    let count = 0;
    for (let i = from; i < from + EDGE_WINDOW; i++) if (matched(i)) count += 1;
    return count >= EDGE_MATCHES;
  };
  while (start + EDGE_WINDOW <= last && !(matched(start) && dense(start))) start += 1;
  while (last - EDGE_WINDOW >= start && !(matched(last) && dense(last - EDGE_WINDOW + 1))) last -= 1;
  return [start, last];
}

/** The runs of matching points at one alignment, gaps of up to `maxGapPoints` bridged, long enough kept. */
export function runsAtShift(a: Uint32Array, b: Uint32Array, shift: number, o: MatchOptions): Run[] {
  const minPoints = Math.ceil(o.minSeconds / POINT_SECONDS);
  const maxPoints = Math.floor(o.maxSeconds / POINT_SECONDS);
  const from = Math.max(0, shift);
  const to = Math.min(a.length, b.length + shift);
  const matched = (i: number) => i >= from && i < to && bitErrors(a[i]!, b[i - shift]!) <= o.maxBitErrors;
  const runs: Run[] = [];
  let start = -1;
  let last = -1;
  const close = () => {
    if (start < 0) return;
    const [first, end] = trimmed(matched, start, last);
    const length = end - first + 1;
    if (length >= minPoints && length <= maxPoints && isVaried(a, first, end))
      runs.push({ aStart: first, aEnd: end, bStart: first - shift, bEnd: end - shift });
    start = -1;
  };
  for (let i = from; i < to; i++) {
    if (!matched(i)) continue;
    if (start >= 0 && i - last - 1 > o.maxGapPoints) close();
    if (start < 0) start = i;
    last = i;
  }
  close();
  return runs;
}

const overlapOf = (s1: number, e1: number, s2: number, e2: number) =>
  Math.max(0, Math.min(e1, e2) - Math.max(s1, s2) + 1);

/**
 * The passages two fingerprints share, at their best alignments; a passage found at neighbouring
 * alignments (the episodes' audio is rarely a whole number of points apart) is kept once, its longest.
 */
export function matchPair(a: Uint32Array, b: Uint32Array, o: MatchOptions): Run[] {
  const minPoints = Math.ceil(o.minSeconds / POINT_SECONDS);
  const found = candidateShifts(a, b, o.candidateShifts, minPoints).flatMap((shift) =>
    runsAtShift(a, b, shift, o),
  );
  found.sort((x, y) => runLength(y) - runLength(x) || x.aStart - y.aStart);
  const kept: Run[] = [];
  for (const run of found) {
    const same = kept.some(
      (k) =>
        overlapOf(k.aStart, k.aEnd, run.aStart, run.aEnd) > runLength(run) / 2 ||
        overlapOf(k.bStart, k.bEnd, run.bStart, run.bEnd) > runLength(run) / 2,
    );
    if (!same) kept.push(run);
  }
  return kept;
}

/** One episode's fingerprint of one part of it. */
export interface EpisodePrint {
  id: string;
  points: Uint32Array;
  /** Where in the file (seconds) the fingerprinted audio starts. */
  offset: number;
}

/** A passage of one episode (seconds in the file) and how many other episodes share it. */
export interface SharedPassage {
  start: number;
  end: number;
  support: number;
}

interface Candidate {
  start: number;
  end: number;
  partner: string;
}

/**
 * Where a point's audio sits, on average, after the point's own start: a point sums up the audio from
 * its start to ~2.2 s after it (a 4096-sample frame and the classifiers' 16 frames), and it still
 * matches when part of that straddles the passage's edge. Measured on the test fixture's and the
 * benchmark's seasons (decision 111): without it, passages came out half a second early at both ends.
 */
export const POINT_LAG_SECONDS = 0.5;

/** A run's passage in seconds: from its first point to the end of its last point's frame. */
const passageOf = (offset: number, start: number, end: number) => ({
  start: offset + start * POINT_SECONDS + POINT_LAG_SECONDS,
  end: offset + (end + 1) * POINT_SECONDS + 4096 / 11025 + POINT_LAG_SECONDS,
});

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * An episode's passage among those it shares with others: the one the most other episodes agree on
 * (passages overlapping by half of the shorter), then the longest; its bounds the median of theirs.
 */
export function agreedPassage(candidates: readonly Candidate[]): SharedPassage | null {
  let best: { passage: SharedPassage; length: number } | null = null;
  for (const c of candidates) {
    const agreeing = candidates.filter(
      (other) =>
        Math.min(c.end, other.end) - Math.max(c.start, other.start) >=
        Math.min(c.end - c.start, other.end - other.start) / 2,
    );
    const partners = new Set(agreeing.map((x) => x.partner)).size;
    const passage = {
      start: median(agreeing.map((x) => x.start)),
      end: median(agreeing.map((x) => x.end)),
      support: partners,
    };
    const length = c.end - c.start;
    if (
      !best ||
      partners > best.passage.support ||
      (partners === best.passage.support && length > best.length)
    )
      best = { passage, length };
  }
  return best?.passage ?? null;
}

/**
 * The shared passage of each episode (absent: it shares none): every episode is compared with its
 * `neighbours` before and after it in the given order (a season's episodes, in order), each pair's
 * passages noted on both sides, and each episode keeps the one most others agree on.
 */
export function sharedPassages(prints: readonly EpisodePrint[], o: MatchOptions): Map<string, SharedPassage> {
  const season = new SeasonMatch(prints, o);
  for (const [i, j] of season.pairs()) season.compare(i, j);
  return season.passages();
}

/**
 * The same, a pair at a time with the event loop let go in between (a pair of 10-minute fingerprints
 * takes a few milliseconds; a season of them, seconds): what the server runs. Stops when `signal` does.
 */
export async function sharedPassagesInTurns(
  prints: readonly EpisodePrint[],
  o: MatchOptions,
  signal?: AbortSignal,
): Promise<Map<string, SharedPassage>> {
  const season = new SeasonMatch(prints, o);
  for (const [i, j] of season.pairs()) {
    season.compare(i, j);
    await setImmediate();
    signal?.throwIfAborted();
  }
  return season.passages();
}

/** The passages each episode of a season shares with the others, as the pairs are compared. */
class SeasonMatch {
  private readonly candidates: Map<string, Candidate[]>;

  constructor(
    private readonly prints: readonly EpisodePrint[],
    private readonly o: MatchOptions,
  ) {
    this.candidates = new Map(prints.map((p) => [p.id, []]));
  }

  *pairs(): Generator<[number, number]> {
    for (let i = 0; i < this.prints.length; i++)
      for (let j = i + 1; j < Math.min(this.prints.length, i + 1 + this.o.neighbours); j++) yield [i, j];
  }

  compare(i: number, j: number): void {
    const a = this.prints[i]!;
    const b = this.prints[j]!;
    for (const run of matchPair(a.points, b.points, this.o)) {
      this.candidates.get(a.id)!.push({ ...passageOf(a.offset, run.aStart, run.aEnd), partner: b.id });
      this.candidates.get(b.id)!.push({ ...passageOf(b.offset, run.bStart, run.bEnd), partner: a.id });
    }
  }

  passages(): Map<string, SharedPassage> {
    const out = new Map<string, SharedPassage>();
    for (const [id, list] of this.candidates) {
      const passage = agreedPassage(list);
      if (passage) out.set(id, passage);
    }
    return out;
  }
}
