import type { Embed, EmbedOutput, ScrapeContext, Sourcerer, SourcererOutput } from './base.ts';
import { describeError, NotFoundError, ScrapeAbortedError } from './errors.ts';
import type { FullScraperEvents, IndividualScraperEvents, ScrapeStatus, UpdateEvent } from './events.ts';
import { makeUseableFetcher } from './fetchers/common.ts';
import type { Fetcher } from './fetchers/types.ts';
import type { ScrapeMedia } from './media.ts';
import { orderProviders } from './order.ts';
import { isValidStream, type Stream } from './streams.ts';
import { flagsAllowed, type FeatureMap } from './targets.ts';

/** What a whole run found: the first playable stream, and who found it. */
export interface RunOutput {
  sourceId: string;
  embedId?: string;
  stream: Stream;
}

export class UnknownProviderError extends Error {
  constructor(kind: 'source' | 'embed', id: string) {
    super(`no ${kind} with id "${id}"`);
    this.name = 'UnknownProviderError';
  }
}

export class ProviderTimeoutError extends Error {
  constructor(ms: number) {
    super(`gave no answer within ${ms} ms`);
    this.name = 'ProviderTimeoutError';
  }
}

export interface RunnerSetup {
  sources: readonly Sourcerer[];
  embeds: readonly Embed[];
  fetcher: Fetcher;
  /** Defaults to `fetcher`. */
  proxiedFetcher?: Fetcher;
  features: FeatureMap;
  /** Longest time one provider may take before it counts as a failure. */
  timeoutMs?: number;
}

interface RunControl {
  signal?: AbortSignal;
}

export interface RunAllOptions extends RunControl {
  media: ScrapeMedia;
  events?: FullScraperEvents;
  /** Ids to try first, in this order; the rest follow by rank. */
  sourceOrder?: readonly string[];
  embedOrder?: readonly string[];
}

export interface RunSourceOptions extends RunControl {
  id: string;
  media: ScrapeMedia;
  events?: IndividualScraperEvents;
}

export interface RunEmbedOptions extends RunControl {
  id: string;
  url: string;
  events?: IndividualScraperEvents;
}

/**
 * Runs `work` with a signal that aborts when the run is cancelled or the provider takes too long.
 * Cancellation rejects with ScrapeAbortedError (the run stops); a timeout with ProviderTimeoutError
 * (the provider failed, the run goes on).
 */
async function guarded<T>(
  work: (signal: AbortSignal) => Promise<T>,
  outer: AbortSignal | undefined,
  timeoutMs?: number,
): Promise<T> {
  if (outer?.aborted) throw new ScrapeAbortedError();
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await new Promise<T>((resolve, reject) => {
      onAbort = () => {
        controller.abort();
        reject(new ScrapeAbortedError());
      };
      outer?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          const error = new ProviderTimeoutError(timeoutMs);
          controller.abort(error);
          reject(error);
        }, timeoutMs);
      }
      work(controller.signal).then(resolve, reject);
    });
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (onAbort) outer?.removeEventListener('abort', onAbort);
  }
}

function makeContext(
  setup: RunnerSetup,
  signal: AbortSignal,
  progress: (percentage: number) => void,
): ScrapeContext {
  return {
    fetcher: makeUseableFetcher(setup.fetcher, signal),
    proxiedFetcher: makeUseableFetcher(setup.proxiedFetcher ?? setup.fetcher, signal),
    progress: (percentage) => progress(Math.max(0, Math.min(100, Math.round(percentage)))),
    signal,
  };
}

async function scrapeSource(
  source: Sourcerer,
  media: ScrapeMedia,
  ctx: ScrapeContext,
): Promise<SourcererOutput> {
  if (media.type === 'movie' && source.scrapeMovie) return source.scrapeMovie({ ...ctx, media });
  if (media.type === 'show' && source.scrapeShow) return source.scrapeShow({ ...ctx, media });
  throw new NotFoundError(`this source has no ${media.type === 'movie' ? 'movies' : 'shows'}`);
}

/** The streams the target can play, in the provider's order. */
function playable(streams: Stream[] | undefined, features: FeatureMap): Stream[] {
  return (streams ?? []).filter((s) => isValidStream(s) && flagsAllowed(features, s.flags));
}

type Report = (
  id: string,
  status: ScrapeStatus,
  extra?: { error?: unknown; reason?: string; percentage?: number },
) => void;

function reporter(update: ((e: UpdateEvent) => void) | undefined): Report {
  return (id, status, extra = {}) =>
    update?.({
      id,
      status,
      percentage: extra.percentage ?? (status === 'pending' ? 0 : 100),
      ...(status === 'failure' ? { error: describeError(extra.error) } : {}),
      ...(status === 'notfound' ? { reason: extra.reason ?? 'not found' } : {}),
    });
}

/** Reports a provider's error as notfound or failure; rethrows cancellation. */
function reportError(report: Report, id: string, error: unknown): void {
  if (error instanceof ScrapeAbortedError) throw error;
  if (error instanceof NotFoundError) report(id, 'notfound', { reason: error.message });
  else report(id, 'failure', { error });
}

/**
 * Tries the sources in order until one yields a playable stream, directly or through its embeds, and
 * reports each provider's status through `events`. Null when nothing was found.
 */
export async function runAllProviders(setup: RunnerSetup, ops: RunAllOptions): Promise<RunOutput | null> {
  const sources = orderProviders(setup.sources, ops.sourceOrder).filter((s) =>
    ops.media.type === 'movie' ? !!s.scrapeMovie : !!s.scrapeShow,
  );
  const embedPriority = orderProviders(setup.embeds, ops.embedOrder);
  const report = reporter(ops.events?.update?.bind(ops.events));
  let current = '';
  const progress = (percentage: number) => report(current, 'pending', { percentage });

  ops.events?.init?.({ sourceIds: sources.map((s) => s.id) });

  for (const source of sources) {
    if (ops.signal?.aborted) throw new ScrapeAbortedError();
    current = source.id;
    ops.events?.start?.(source.id);
    report(source.id, 'pending');

    let output: SourcererOutput;
    try {
      output = await guarded(
        (signal) => scrapeSource(source, ops.media, makeContext(setup, signal, progress)),
        ops.signal,
        setup.timeoutMs,
      );
    } catch (error) {
      reportError(report, source.id, error);
      continue;
    }

    const [stream] = playable(output.stream, setup.features);
    if (stream) {
      report(source.id, 'success');
      return { sourceId: source.id, stream };
    }

    const embeds = output.embeds
      .map((e) => ({ found: e, scraper: embedPriority.find((x) => x.id === e.embedId) }))
      .filter((e): e is { found: typeof e.found; scraper: Embed } => e.scraper !== undefined)
      .sort((a, b) => embedPriority.indexOf(a.scraper) - embedPriority.indexOf(b.scraper));
    if (embeds.length === 0) {
      report(source.id, 'notfound', { reason: output.stream?.length ? 'No stream' : 'No embeds found' });
      continue;
    }

    const runIds = embeds.map((_, index) => `${source.id}-${index}`);
    ops.events?.discoverEmbeds?.({
      sourceId: source.id,
      embeds: embeds.map((e, index) => ({ id: runIds[index]!, embedScraperId: e.scraper.id })),
    });

    for (const [index, { found, scraper }] of embeds.entries()) {
      if (ops.signal?.aborted) throw new ScrapeAbortedError();
      const runId = runIds[index]!;
      current = runId;
      ops.events?.start?.(runId);
      report(runId, 'pending');
      try {
        const embedOutput = await guarded(
          (signal) => scraper.scrape({ ...makeContext(setup, signal, progress), url: found.url }),
          ops.signal,
          setup.timeoutMs,
        );
        const [embedStream] = playable(embedOutput.stream, setup.features);
        if (!embedStream) throw new NotFoundError('No stream');
        report(runId, 'success');
        report(source.id, 'success');
        return { sourceId: source.id, embedId: scraper.id, stream: embedStream };
      } catch (error) {
        reportError(report, runId, error);
      }
    }
    report(source.id, 'notfound', { reason: 'No stream' });
  }
  return null;
}

/** Runs one source. Its streams are filtered to what the target plays; throws NotFoundError when it has nothing. */
export async function runSourceScraper(setup: RunnerSetup, ops: RunSourceOptions): Promise<SourcererOutput> {
  const source = setup.sources.find((s) => s.id === ops.id && !s.disabled);
  if (!source) throw new UnknownProviderError('source', ops.id);
  const report = reporter(ops.events?.update?.bind(ops.events));
  report(source.id, 'pending');
  try {
    const output = await guarded(
      (signal) =>
        scrapeSource(
          source,
          ops.media,
          makeContext(setup, signal, (percentage) => report(source.id, 'pending', { percentage })),
        ),
      ops.signal,
      setup.timeoutMs,
    );
    const known = output.embeds.filter((e) => setup.embeds.some((x) => x.id === e.embedId && !x.disabled));
    const stream = playable(output.stream, setup.features);
    if (stream.length === 0 && known.length === 0)
      throw new NotFoundError(output.stream?.length ? 'No stream' : 'No embeds found');
    report(source.id, 'success');
    return { embeds: known, stream };
  } catch (error) {
    reportError(report, source.id, error);
    throw error;
  }
}

/** Runs one embed on a URL a source found. Throws NotFoundError when it yields nothing playable. */
export async function runEmbedScraper(setup: RunnerSetup, ops: RunEmbedOptions): Promise<EmbedOutput> {
  const embed = setup.embeds.find((e) => e.id === ops.id && !e.disabled);
  if (!embed) throw new UnknownProviderError('embed', ops.id);
  const report = reporter(ops.events?.update?.bind(ops.events));
  report(embed.id, 'pending');
  try {
    const output = await guarded(
      (signal) =>
        embed.scrape({
          ...makeContext(setup, signal, (percentage) => report(embed.id, 'pending', { percentage })),
          url: ops.url,
        }),
      ops.signal,
      setup.timeoutMs,
    );
    const stream = playable(output.stream, setup.features);
    if (stream.length === 0) throw new NotFoundError('No stream');
    report(embed.id, 'success');
    return { stream };
  } catch (error) {
    reportError(report, embed.id, error);
    throw error;
  }
}
