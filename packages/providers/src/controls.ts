import type { Embed, EmbedOutput, Sourcerer, SourcererOutput } from './base.ts';
import type { Fetcher } from './fetchers/types.ts';
import { embedMeta, sourceMeta, type ProviderMeta } from './meta.ts';
import { orderProviders } from './order.ts';
import {
  runAllProviders,
  runEmbedScraper,
  runSourceScraper,
  type RunAllOptions,
  type RunEmbedOptions,
  type RunOutput,
  type RunSourceOptions,
  type RunnerSetup,
} from './runner.ts';
import { targetFeatures, type Target } from './targets.ts';

export interface ProvidersOptions {
  sources: readonly Sourcerer[];
  embeds: readonly Embed[];
  fetcher: Fetcher;
  proxiedFetcher?: Fetcher;
  /** Who plays the streams: decides which stream flags are acceptable. */
  target: Target;
  /** The instance's order (SOURCE_ORDER); a run's own order goes before it. */
  sourceOrder?: readonly string[];
  embedOrder?: readonly string[];
  timeoutMs?: number;
}

export interface ProviderControls {
  runAll(ops: RunAllOptions): Promise<RunOutput | null>;
  runSourceScraper(ops: RunSourceOptions): Promise<SourcererOutput>;
  runEmbedScraper(ops: RunEmbedOptions): Promise<EmbedOutput>;
  /** Sources in the order a run tries them (without a viewer's order). */
  listSources(): ProviderMeta[];
  listEmbeds(): ProviderMeta[];
  getMetadata(id: string): ProviderMeta | null;
}

function assertUniqueIds(items: readonly { id: string }[]): void {
  const seen = new Set<string>();
  for (const { id } of items) {
    if (seen.has(id)) throw new Error(`two providers share the id "${id}"`);
    seen.add(id);
  }
}

/** One entry point for everything that scrapes: the server's scrape API and the browser alike. */
export function makeProviders(options: ProvidersOptions): ProviderControls {
  assertUniqueIds([...options.sources, ...options.embeds]);
  const setup: RunnerSetup = {
    sources: options.sources,
    embeds: options.embeds,
    fetcher: options.fetcher,
    ...(options.proxiedFetcher ? { proxiedFetcher: options.proxiedFetcher } : {}),
    features: targetFeatures(options.target),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  };
  const sources = () => orderProviders(options.sources, options.sourceOrder);
  const embeds = () => orderProviders(options.embeds, options.embedOrder);
  return {
    runAll: (ops) =>
      runAllProviders(setup, {
        ...ops,
        sourceOrder: [...(ops.sourceOrder ?? []), ...(options.sourceOrder ?? [])],
        embedOrder: [...(ops.embedOrder ?? []), ...(options.embedOrder ?? [])],
      }),
    runSourceScraper: (ops) => runSourceScraper(setup, ops),
    runEmbedScraper: (ops) => runEmbedScraper(setup, ops),
    listSources: () => sources().map(sourceMeta),
    listEmbeds: () => embeds().map(embedMeta),
    getMetadata(id) {
      const source = options.sources.find((s) => s.id === id && !s.disabled);
      if (source) return sourceMeta(source);
      const embed = options.embeds.find((e) => e.id === id && !e.disabled);
      return embed ? embedMeta(embed) : null;
    },
  };
}
