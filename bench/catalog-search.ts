/**
 * Catalog search latency: the service path a request takes (no cache hits: every query distinct), and
 * the same queries through HTTP (Fastify inject). Prints p50/p95/p99 in ms.
 * Run: node --import tsx bench/catalog-search.ts
 */
import { performance } from 'node:perf_hooks';
import { Catalog, loadCatalogData } from '../apps/server/src/modules/metadata/catalog/catalog.ts';
import { MetadataService } from '../apps/server/src/modules/metadata/metadata.service.ts';

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

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await catalogSearchBench();
  console.log(`catalog: ${r.size.movies} movies, ${r.size.shows} shows; ${r.samples} uncached searches`);
  console.log(
    `catalog search latency: p50 ${r.p50.toFixed(3)} ms, p95 ${r.p95.toFixed(3)} ms, p99 ${r.p99.toFixed(3)} ms`,
  );
}
