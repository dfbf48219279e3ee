/**
 * Catalog search latency: the service path a request takes (no cache hits), on the embedded catalog and on
 * a generated catalog of 1,000,000 titles (decision 081; budget p95 ≤ 20 ms), with the index's build time
 * and heap. Prints p50/p95/p99 in ms.
 * Run: node --import tsx bench/catalog-search.ts  (BENCH_TITLES=… for another size)
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Catalog, loadCatalogData } from '../apps/server/src/modules/metadata/catalog/catalog.ts';
import { TitleSearchIndex } from '../apps/server/src/modules/metadata/catalog/search-index.ts';
import { MetadataService } from '../apps/server/src/modules/metadata/metadata.service.ts';
import { searchWords } from '../apps/server/src/modules/metadata/search-rules.ts';
import { generateCatalog } from '../apps/server/test/generated-catalog.ts';

const QUERIES = [
  'the',
  'matrix',
  'spiderman',
  'star wars',
  'dark knight',
  'breaking',
  'office',
  'lord of the rings',
  'toy',
  'amelie',
  'inception',
  'alien',
  'godfather',
  'harry potter',
  'avengers',
  'dune',
  'ghibli',
  'x',
  'love',
  'game',
];

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

export async function catalogSearchBench(rounds = 50) {
  const catalog = new Catalog(loadCatalogData());
  const times: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    // A fresh service each round: every search misses the cache, as a first search does.
    const service = new MetadataService({ api: catalog });
    for (const q of QUERIES) {
      const t0 = performance.now();
      await service.search(`${q}`);
      times.push(performance.now() - t0);
    }
    service.close();
  }
  times.sort((a, b) => a - b);
  return {
    samples: times.length,
    p50: pct(times, 50),
    p95: pct(times, 95),
    p99: pct(times, 99),
    size: catalog.size,
  };
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMiB = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

/**
 * Queries a viewer could type into a big catalog, made from its titles (deterministic): whole titles, the
 * first letters of one, one word, two words in another order, a word with a typo (a letter dropped,
 * swapped, replaced), and the fixed list above.
 */
const KINDS = ['title', 'first letters', 'word', 'two words', 'typo', 'typo'];
/** What kind of query each generated query is (the fixed list aside). */
const kinds = new Map<string, string>();

function queriesFor(titles: readonly string[], count: number): string[] {
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const typo = (word: string) => {
    const at = Math.floor(random() * (word.length - 1));
    const kind = Math.floor(random() * 3);
    if (kind === 0) return word.slice(0, at) + word.slice(at + 1);
    if (kind === 1) return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
    return word.slice(0, at) + 'e' + word.slice(at + 1);
  };
  const queries = new Set<string>(QUERIES);
  let tries = 0;
  while (queries.size < count && tries++ < count * 10) {
    const title = titles[Math.floor(random() * titles.length)] as string;
    const words = searchWords(title);
    const kind = tries % 6;
    const word = words[Math.floor(random() * words.length)] as string;
    const add = (query: string) => {
      if (!queries.has(query)) kinds.set(query, KINDS[kind] as string);
      queries.add(query);
    };
    if (kind === 0) add(title);
    else if (kind === 1) add(title.slice(0, 1 + Math.floor(random() * 8)));
    else if (kind === 2) add(word);
    else if (kind === 3) add(words.slice(-2).reverse().join(' '));
    else if (word.length >= 4) add(typo(word));
    else add(typo(words.join('')));
  }
  return [...queries];
}

/** The same on a generated catalog of `size` titles: build time and heap of the index, then latency. */
export async function bigCatalogSearchBench(size = 1_000_000, samples = 3000) {
  const data = generateCatalog(size);
  const names = [...data.movies, ...data.shows]
    .sort((a, b) => b.popularity - a.popularity)
    .map((t) => ('title' in t ? [t.title, t.original_title] : [t.name, t.original_name]));
  const titles = names.map((n) => n[0] as string);
  const queries = queriesFor(titles, samples);

  // The index alone (what the search adds to a loaded catalog).
  const before = heapMiB();
  let t0 = performance.now();
  let index: TitleSearchIndex | undefined = new TitleSearchIndex(names);
  const indexBuildMs = performance.now() - t0;
  const indexMiB = heapMiB() - before;
  const indexSize = index.size;
  index = undefined;
  names.length = 0;

  // The whole catalog (maps by id, the index, its ranking) as the server builds it.
  const beforeCatalog = heapMiB();
  t0 = performance.now();
  const catalog = new Catalog(data);
  const catalogBuildMs = performance.now() - t0;
  const catalogMiB = heapMiB() - beforeCatalog;

  const service = new MetadataService({ api: catalog });
  const times: number[] = [];
  const byKind = new Map<string, number[]>();
  const slowest: { query: string; ms: number }[] = [];
  let empty = 0;
  // Every query distinct (and distinct once trimmed and lower-cased): the service answers none from memory.
  const distinct = [...new Map(queries.map((q) => [q.trim().toLowerCase(), q])).values()];
  for (const query of distinct) {
    const start = performance.now();
    const results = await service.search(query);
    const ms = performance.now() - start;
    times.push(ms);
    if (results.length === 0) empty += 1;
    slowest.push({ query, ms });
    const kind = kinds.get(query) ?? 'fixed list';
    byKind.set(kind, [...(byKind.get(kind) ?? []), ms]);
  }
  service.close();
  times.sort((a, b) => a - b);
  return {
    titles: indexSize,
    samples: times.length,
    empty,
    p50: pct(times, 50),
    p95: pct(times, 95),
    p99: pct(times, 99),
    max: times.at(-1) as number,
    byKind: [...byKind].map(([kind, ms]) => {
      ms.sort((a, b) => a - b);
      return { kind, n: ms.length, p50: pct(ms, 50), p95: pct(ms, 95) };
    }),
    slowest: slowest.sort((a, b) => b.ms - a.ms).slice(0, 5),
    indexBuildMs,
    indexMiB,
    catalogBuildMs,
    catalogMiB,
    dataMiB: beforeCatalog,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const real = new Catalog(loadCatalogData());
  const r = await catalogSearchBench();
  console.log(`catalog: ${r.size.movies} movies, ${r.size.shows} shows; ${r.samples} uncached searches`);
  console.log(
    `catalog search latency: p50 ${r.p50.toFixed(3)} ms, p95 ${r.p95.toFixed(3)} ms, p99 ${r.p99.toFixed(3)} ms`,
  );
  const t0 = performance.now();
  void new Catalog(loadCatalogData());
  console.log(
    `embedded catalog: read and indexed in ${(performance.now() - t0).toFixed(0)} ms (${real.size.movies + real.size.shows} titles)`,
  );

  const size = Number(process.env.BENCH_TITLES ?? 1_000_000);
  const big = await bigCatalogSearchBench(size);
  const mib = (n: number) => `${n.toFixed(0)} MiB`;
  console.log(
    `\ngenerated catalog: ${big.titles.toLocaleString('en')} titles (data on the heap: ${mib(big.dataMiB)})`,
  );
  console.log(`search index: built in ${(big.indexBuildMs / 1000).toFixed(1)} s, heap ${mib(big.indexMiB)}`);
  console.log(
    `whole Catalog (maps by id + index): built in ${(big.catalogBuildMs / 1000).toFixed(1)} s, heap ${mib(big.catalogMiB)}`,
  );
  console.log(
    `search latency (${big.samples} uncached searches, ${big.empty} found nothing): p50 ${big.p50.toFixed(3)} ms, p95 ${big.p95.toFixed(3)} ms, p99 ${big.p99.toFixed(3)} ms, max ${big.max.toFixed(1)} ms (budget p95 ≤ 20 ms)`,
  );
  console.log(
    `  slowest: ${big.slowest.map((q) => `${JSON.stringify(q.query)} ${q.ms.toFixed(1)} ms`).join(', ')}`,
  );
  for (const k of big.byKind)
    console.log(
      `  ${k.kind.padEnd(14)} n=${String(k.n).padStart(4)}  p50 ${k.p50.toFixed(3)} ms  p95 ${k.p95.toFixed(3)} ms`,
    );
}
