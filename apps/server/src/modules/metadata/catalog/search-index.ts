import {
  MatchTier,
  editDistanceWithin,
  matchTier,
  maxTypos,
  prepareSearch,
  searchText,
  searchWords,
  typosWanted,
  type SearchText,
} from '../search-rules.ts';

/** One hit: the title's position in the index (0 = most popular) and how it matched. */
export interface IndexHit {
  entry: number;
  tier: MatchTier;
}

/**
 * The catalog's search index (decision 081), built once when the catalog loads. Titles are numbered by
 * popularity (0 the most popular), so every list below is in popularity order and a search stops reading a
 * list as soon as it has enough better titles. It answers what `matchTier` (search-rules.ts) decides; the
 * index only finds the candidates:
 * - exact, near and prefix matches: every name's folded form (and without a leading article) in one sorted
 *   array, searched by binary search;
 * - word matches: the sorted vocabulary of folded words, each with the titles holding it;
 * - typos: the vocabulary's words by their letter pairs, checked by a bounded edit distance.
 * Names are kept folded, words separated by spaces; nothing else per title.
 */
export class TitleSearchIndex {
  /** Folded names, words separated by spaces; the names of title `e` are [nameStart[e], nameStart[e + 1]). */
  private readonly names: string[] = [];
  private readonly nameStart: Int32Array;
  /** Folded name keys (compact, and without article), sorted; keyOwner[i] is the title of keys[i]. */
  private readonly keys: string[];
  private readonly keyOwner: Int32Array;
  /** Sorted distinct words; the titles holding vocab[w] are postings[postStart[w]..postStart[w + 1]), ascending. */
  private readonly vocab: string[];
  private readonly postStart: Int32Array;
  private readonly postings: Int32Array;
  /** Letter pairs of the words (with start and end marks) → the vocabulary positions holding them. */
  private readonly bigrams = new Map<number, Int32Array>();
  /** Per vocabulary word, how many of a query word's letter pairs it has (zeroed after each use). */
  private readonly shared: Uint16Array;
  /** The words of title `e` (vocabulary positions): entryWords[entryWordStart[e]..entryWordStart[e + 1]). */
  private readonly entryWordStart: Int32Array;
  private readonly entryWords: Int32Array;
  /** The shortest and longest name keys of each title (lengths, at most 255). */
  private readonly keyMin: Uint8Array;
  private readonly keyMax: Uint8Array;
  /** Titles a search has looked at, marked with its epoch (no set to allocate per search). */
  private readonly checked: Uint32Array;
  private epoch = 0;
  /** Vocabulary positions by word length, for words whose typos letter pairs cannot find. */
  private readonly byLength = new Map<number, Int32Array>();

  /** `titles[e]` are the names of title e (title, original title, translations), most popular first. */
  constructor(titles: Iterable<readonly string[]>) {
    const nameStart: number[] = [0];
    const keyText: string[] = [];
    const keyEntry: number[] = [];
    const holders = new Map<string, number[]>();
    let entry = 0;
    for (const titleNames of titles) {
      const seen = new Set<string>();
      for (const name of titleNames) {
        const words = searchWords(name);
        const spaced = words.join(' ');
        if (!spaced || seen.has(spaced)) continue;
        seen.add(spaced);
        this.names.push(spaced);
        const text = searchText(words);
        keyText.push(text.compact);
        keyEntry.push(entry);
        if (text.bare) {
          keyText.push(text.bare);
          keyEntry.push(entry);
        }
        for (const word of words) {
          const list = holders.get(word);
          if (!list) holders.set(word, [entry]);
          else if (list[list.length - 1] !== entry) list.push(entry);
        }
      }
      nameStart.push(this.names.length);
      entry += 1;
    }
    this.nameStart = Int32Array.from(nameStart);

    const order = Array.from(keyText.keys()).sort((a, b) => {
      const x = keyText[a] as string;
      const y = keyText[b] as string;
      return x < y ? -1 : x > y ? 1 : (keyEntry[a] as number) - (keyEntry[b] as number);
    });
    this.keys = order.map((i) => keyText[i] as string);
    this.keyMin = new Uint8Array(nameStart.length - 1).fill(255);
    this.keyMax = new Uint8Array(nameStart.length - 1);
    for (const [i, key] of keyText.entries()) {
      const e = keyEntry[i] as number;
      this.keyMin[e] = Math.min(this.keyMin[e] as number, Math.min(255, key.length));
      this.keyMax[e] = Math.max(this.keyMax[e] as number, Math.min(255, key.length));
    }
    this.keyOwner = Int32Array.from(order, (i) => keyEntry[i] as number);

    this.vocab = [...holders.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.postStart = new Int32Array(this.vocab.length + 1);
    let total = 0;
    for (const [i, word] of this.vocab.entries()) {
      this.postStart[i] = total;
      total += (holders.get(word) as number[]).length;
    }
    this.postStart[this.vocab.length] = total;
    this.postings = new Int32Array(total);
    const grams = new Map<number, number[]>();
    for (const [i, word] of this.vocab.entries()) {
      this.postings.set(holders.get(word) as number[], this.postStart[i] as number);
      // Typos are looked for in words of 4 letters or more, so within 1 edit of 3 letters at least.
      if (word.length < 3) continue;
      for (const gram of bigramsOf(word)) {
        const list = grams.get(gram);
        if (!list) grams.set(gram, [i]);
        else if (list[list.length - 1] !== i) list.push(i);
      }
    }
    for (const [gram, list] of grams) this.bigrams.set(gram, Int32Array.from(list));
    this.shared = new Uint16Array(this.vocab.length);
    // The inverse of the postings: each title's words.
    const size = nameStart.length - 1;
    this.entryWordStart = new Int32Array(size + 1);
    for (const entry of this.postings)
      this.entryWordStart[entry + 1] = (this.entryWordStart[entry + 1] as number) + 1;
    for (let e = 0; e < size; e++)
      this.entryWordStart[e + 1] =
        (this.entryWordStart[e + 1] as number) + (this.entryWordStart[e] as number);
    this.entryWords = new Int32Array(total);
    const fill = this.entryWordStart.slice(0, size);
    for (let w = 0; w < this.vocab.length; w++)
      for (let i = this.postStart[w] as number; i < (this.postStart[w + 1] as number); i++) {
        const entry = this.postings[i] as number;
        this.entryWords[fill[entry] as number] = w;
        fill[entry] = (fill[entry] as number) + 1;
      }
    this.checked = new Uint32Array(size);
    const lengths = new Map<number, number[]>();
    for (const [i, word] of this.vocab.entries()) {
      const list = lengths.get(word.length);
      if (list) list.push(i);
      else lengths.set(word.length, [i]);
    }
    for (const [length, list] of lengths) this.byLength.set(length, Int32Array.from(list));
  }

  /** How many titles it holds. */
  get size(): number {
    return this.nameStart.length - 1;
  }

  /** The folded names of title `entry`. */
  namesOf(entry: number): SearchText[] {
    const names: SearchText[] = [];
    for (let i = this.nameStart[entry] as number; i < (this.nameStart[entry + 1] as number); i++)
      names.push(searchText((this.names[i] as string).split(' ')));
    return names;
  }

  /** The best `limit` titles for `query`: by tier, then popularity. */
  search(query: string, limit: number): IndexHit[] {
    const q = prepareSearch(query);
    if (!q.compact || limit <= 0) return [];
    const found = new Map<number, MatchTier>();

    // Exact, near and prefix: the sorted keys that start with the query.
    const lo = lowerBound(this.keys, q.compact);
    const hi = lowerBound(this.keys, `${q.compact}\uffff`);
    const length = q.compact.length;
    for (let i = lo; i < hi; i++) {
      const keyLength = (this.keys[i] as string).length;
      if (2 * length < keyLength) continue;
      const tier = keyLength === length ? MatchTier.exact : MatchTier.near;
      const entry = this.keyOwner[i] as number;
      const had = found.get(entry);
      if (had === undefined || tier < had) found.set(entry, tier);
    }
    const prefix = new TopEntries(limit);
    for (let i = lo; i < hi; i++) {
      const entry = this.keyOwner[i] as number;
      if (!found.has(entry)) prefix.offer(entry);
    }
    for (const entry of prefix.entries) found.set(entry, MatchTier.prefix);

    // Words, then typos, only while the page is not full: each reads lists in popularity order.
    if (found.size < limit) this.collect(q, [MatchTier.words], limit, found);
    if (found.size < limit && typosWanted(found.size))
      this.collect(q, [MatchTier.typo, MatchTier.typoWords], limit, found);

    return [...found]
      .map(([entry, tier]) => ({ entry, tier }))
      .sort((a, b) => a.tier - b.tier || a.entry - b.entry)
      .slice(0, limit);
  }

  /**
   * Adds up to `limit` titles matching in `tier` (word or typo), most popular first. The candidates are
   * the titles of the query word with the fewest (words it starts, and for typos words within the allowed
   * edits; a one-word query also run-together words); `matchTier` confirms each.
   */
  private collect(q: SearchText, tiers: MatchTier[], limit: number, found: Map<number, MatchTier>): void {
    const typos = tiers[0] !== MatchTier.words;
    let driver: Ranges | undefined;
    let accepts: Accept[] = [];
    if (q.words.length === 1) {
      const word = q.words[0] as string;
      // A single word matches by prefix in the word tier; in the typo tier only by its typos.
      driver = typos ? this.rangesOf(this.typoWords(word)) : this.runRanges(word);
    } else {
      // Each query word must start a word of the title, or (typos) be one within the allowed edits.
      accepts = q.words.map((word) => {
        const [from, to] = this.prefixWords(word);
        const extra = typos ? this.typoWords(word).filter((w) => w < from || w >= to) : [];
        return { from, to, extra: new Set(extra) };
      });
      for (const { from, to, extra } of accepts) {
        const ranges = this.rangesOf([...Array.from({ length: to - from }, (_, i) => from + i), ...extra]);
        if (!driver || ranges.size < driver.size) driver = ranges;
      }
      // A typo match has a query word that only a typo matches: the titles of those words will do too.
      if (typos) {
        const typoOnly = this.rangesOf(accepts.flatMap((a) => [...a.extra]));
        if (driver && typoOnly.size < driver.size) driver = typoOnly;
      }
    }
    if (!driver || driver.size === 0) return;
    // The best `limit - found` of each tier: the page is filled tier by tier.
    const room = limit - found.size;
    const length = q.compact.length;
    const max = maxTypos(length);
    const tops = tiers.map(() => new TopEntries(room));
    const epoch = this.nextEpoch();
    for (const [from, to] of driver.ranges) {
      for (let i = from; i < to; i++) {
        const entry = this.postings[i] as number;
        if ((tops[0] as TopEntries).full && entry > (tops[0] as TopEntries).worst) break;
        // Once the last tier is full, only a better one can take more: a whole title within typos, so
        // of a length within `max` of the query's.
        const last = tops[tops.length - 1] as TopEntries;
        if (tops.length > 1 && last.full && entry > last.worst && !this.lengthWithin(entry, length, max))
          continue;
        if (this.checked[entry] === epoch || found.has(entry)) continue;
        this.checked[entry] = epoch;
        // The title's words (all names together) first: a cheap test that rules most candidates out.
        if (!accepts.every((a) => this.hasWord(entry, a))) continue;
        const tier = matchTier(q, this.namesOf(entry), tiers[tiers.length - 1]);
        const at = tier === undefined ? -1 : tiers.indexOf(tier);
        if (at >= 0) (tops[at] as TopEntries).offer(entry);
      }
    }
    for (const [at, top] of tops.entries())
      for (const entry of top.entries.slice(0, limit - found.size)) found.set(entry, tiers[at] as MatchTier);
  }

  /** Whether a name of title `entry` (or one without its article) is `length` letters long, give or take `max`. */
  private lengthWithin(entry: number, length: number, max: number): boolean {
    return (this.keyMin[entry] as number) <= length + max && (this.keyMax[entry] as number) >= length - max;
  }

  /** Whether title `entry` has a word `accept` takes. */
  private hasWord(entry: number, accept: Accept): boolean {
    for (let i = this.entryWordStart[entry] as number; i < (this.entryWordStart[entry + 1] as number); i++) {
      const w = this.entryWords[i] as number;
      if ((w >= accept.from && w < accept.to) || accept.extra.has(w)) return true;
    }
    return false;
  }

  /** A fresh mark for `checked` (cleared when the counter wraps). */
  private nextEpoch(): number {
    if (this.epoch === 0xffffffff) {
      this.checked.fill(0);
      this.epoch = 0;
    }
    return ++this.epoch;
  }

  /** The vocabulary positions [from, to) of the words starting with `prefix`. */
  private prefixWords(prefix: string): [number, number] {
    return [lowerBound(this.vocab, prefix), lowerBound(this.vocab, `${prefix}\uffff`)];
  }

  /** The posting ranges of vocabulary words, and how many titles they list in all. */
  private rangesOf(words: Iterable<number>): Ranges {
    const ranges: [number, number][] = [];
    let size = 0;
    for (const w of words) {
      const range: [number, number] = [this.postStart[w] as number, this.postStart[w + 1] as number];
      ranges.push(range);
      size += range[1] - range[0];
    }
    return { ranges, size };
  }

  /**
   * Candidates for a word that may run several words of a title together: titles with a word starting with
   * it, or with a word `word[0, k)` followed by words matching the rest, where either list will do (the
   * shorter is taken): "thematrix" reads the titles of "matrix", not all those of "the".
   */
  private runRanges(word: string, memo = new Map<number, Ranges>(), start = 0): Ranges {
    const known = memo.get(start);
    if (known) return known;
    const rest = word.slice(start);
    const [from, to] = this.prefixWords(rest);
    const result = this.rangesOf(Array.from({ length: to - from }, (_, i) => from + i));
    for (let k = 1; k < rest.length && start + k < MAX_RUN; k++) {
      const w = lowerBound(this.vocab, rest.slice(0, k));
      if (this.vocab[w] !== rest.slice(0, k)) continue;
      const head = this.rangesOf([w]);
      const tail = this.runRanges(word, memo, start + k);
      const smaller = tail.size < head.size ? tail : head;
      result.ranges.push(...smaller.ranges);
      result.size += smaller.size;
    }
    memo.set(start, result);
    return result;
  }

  /** Vocabulary positions of the words within `maxTypos` edits of `word`. */
  private typoWords(word: string): number[] {
    const max = maxTypos(word.length);
    if (max === 0) return [];
    const grams = bigramsOf(word);
    // An edit changes at most 3 letter pairs (a swap of neighbours; others 1 or 2): a word within `max`
    // edits shares at least this many of the word's pairs. Words with few distinct pairs ("nynyny") are
    // compared with every word of a length within `max` instead.
    const needed = grams.size - 3 * max;
    if (needed <= 0) {
      const words: number[] = [];
      for (let length = word.length - max; length <= word.length + max; length++)
        for (const w of this.byLength.get(length) ?? [])
          if (editDistanceWithin(word, this.vocab[w] as string, max) <= max) words.push(w);
      return words;
    }
    const touched: number[] = [];
    for (const gram of grams) {
      const list = this.bigrams.get(gram);
      if (!list) continue;
      for (const w of list) {
        const count = (this.shared[w] as number) + 1;
        this.shared[w] = count;
        if (count === needed) touched.push(w);
      }
    }
    const words: number[] = [];
    for (const w of touched) {
      const candidate = this.vocab[w] as string;
      if (Math.abs(candidate.length - word.length) <= max && editDistanceWithin(word, candidate, max) <= max)
        words.push(w);
    }
    for (const gram of grams) for (const w of this.bigrams.get(gram) ?? []) this.shared[w] = 0;
    return words;
  }
}

/** The vocabulary words a query word takes: those in [from, to) (starting with it) and `extra` (typos). */
interface Accept {
  from: number;
  to: number;
  extra: Set<number>;
}

interface Ranges {
  ranges: [number, number][];
  size: number;
}

/** Letters of a query word considered for running words together (a longer word is read as typed). */
const MAX_RUN = 40;

/** The smallest `size` title numbers offered (the most popular), each once. */
class TopEntries {
  readonly entries: number[] = [];
  constructor(private readonly size: number) {}
  get full() {
    return this.entries.length >= this.size;
  }
  get worst() {
    return this.entries[this.entries.length - 1] as number;
  }
  offer(entry: number) {
    if (this.full && entry >= this.worst) return;
    let i = this.entries.length;
    while (i > 0 && (this.entries[i - 1] as number) > entry) i--;
    if (this.entries[i - 1] === entry) return;
    this.entries.splice(i, 0, entry);
    if (this.entries.length > this.size) this.entries.pop();
  }
}

/** The distinct pairs of neighbouring letters of a word, with a start and an end mark, as numbers. */
function bigramsOf(word: string): Set<number> {
  const grams = new Set<number>();
  let previous = 2;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    grams.add(previous * 65536 + code);
    previous = code;
  }
  grams.add(previous * 65536 + 3);
  return grams;
}

/** The first position in sorted `items` whose value is not less than `value`. */
function lowerBound(items: readonly string[], value: string): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((items[mid] as string) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
