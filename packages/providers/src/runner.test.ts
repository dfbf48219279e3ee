import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeEmbed, makeSourcerer, type Embed, type Sourcerer } from './base.ts';
import { makeProviders } from './controls.ts';
import { NotFoundError, ScrapeAbortedError } from './errors.ts';
import type { DiscoverEmbedsEvent, InitEvent, UpdateEvent } from './events.ts';
import type { Fetcher } from './fetchers/types.ts';
import type { MovieMedia, ShowMedia } from './media.ts';
import type { Stream } from './streams.ts';
import { flags, type Target } from './targets.ts';

const movie: MovieMedia = { type: 'movie', title: 'The Matrix', releaseYear: 1999, tmdbId: '603' };
const show: ShowMedia = {
  type: 'show',
  title: 'Breaking Bad',
  releaseYear: 2008,
  tmdbId: '1396',
  season: { number: 1, tmdbId: '3572' },
  episode: { number: 2, tmdbId: '62086' },
};

const hls = (id: string, streamFlags = [flags.CORS_ALLOWED]): Stream => ({
  id,
  type: 'hls',
  playlist: `https://cdn.example/${id}.m3u8`,
  flags: streamFlags,
  captions: [],
});

const noFetch: Fetcher = async () => {
  throw new Error('no network in this test');
};

function source(
  id: string,
  rank: number,
  behaviour:
    | Partial<Sourcerer>
    | ((kind: string) => Promise<{ embeds: { embedId: string; url: string }[]; stream?: Stream[] }>),
): Sourcerer {
  const scrape = typeof behaviour === 'function' ? () => behaviour(id) : undefined;
  return makeSourcerer({
    id,
    name: id,
    rank,
    flags: [],
    ...(scrape ? { scrapeMovie: scrape, scrapeShow: scrape } : behaviour),
  });
}

const found = (id: string) => async () => ({ embeds: [], stream: [hls(id)] });
const missing =
  (reason = 'not here') =>
  async () => {
    throw new NotFoundError(reason);
  };
const broken =
  (message = 'host answered 500') =>
  async () => {
    throw new Error(message);
  };

/** Records every event of a run, in order, as `name:detail`. */
function recorder() {
  const log: string[] = [];
  const updates: UpdateEvent[] = [];
  const events = {
    init: (e: InitEvent) => log.push(`init:${e.sourceIds.join(',')}`),
    start: (id: string) => log.push(`start:${id}`),
    update: (e: UpdateEvent) => {
      updates.push(e);
      log.push(`update:${e.id}:${e.status}`);
    },
    discoverEmbeds: (e: DiscoverEmbedsEvent) =>
      log.push(`embeds:${e.sourceId}:${e.embeds.map((x) => `${x.id}=${x.embedScraperId}`).join(',')}`),
  };
  return { log, updates, events };
}

function providers(
  sources: Sourcerer[],
  embeds: Embed[] = [],
  extra: { target?: Target; sourceOrder?: string[]; timeoutMs?: number } = {},
) {
  return makeProviders({ sources, embeds, fetcher: noFetch, target: extra.target ?? 'browser', ...extra });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('runAll', () => {
  it('tries sources by rank and stops at the first stream, reporting each status', async () => {
    const { log, events } = recorder();
    const output = await providers([
      source('low', 10, found('low')),
      source('high', 100, missing()),
      source('mid', 50, broken()),
    ]).runAll({
      media: movie,
      events,
    });
    expect(output).toEqual({ sourceId: 'low', stream: hls('low') });
    expect(log).toEqual([
      'init:high,mid,low',
      'start:high',
      'update:high:pending',
      'update:high:notfound',
      'start:mid',
      'update:mid:pending',
      'update:mid:failure',
      'start:low',
      'update:low:pending',
      'update:low:success',
    ]);
  });

  it('gives notfound a reason and failure an error without a stack', async () => {
    const { updates, events } = recorder();
    await providers([source('a', 2, missing('no such title')), source('b', 1, broken('boom'))]).runAll({
      media: movie,
      events,
    });
    expect(updates.find((u) => u.id === 'a' && u.status === 'notfound')).toEqual({
      id: 'a',
      status: 'notfound',
      percentage: 100,
      reason: 'no such title',
    });
    const failure = updates.find((u) => u.id === 'b' && u.status === 'failure')!;
    expect(failure.error).toEqual({ name: 'Error', message: 'boom' });
    expect(JSON.stringify(failure)).not.toContain('stack');
  });

  it('answers null when no source has the media', async () => {
    const output = await providers([source('a', 1, missing())]).runAll({ media: movie });
    expect(output).toBeNull();
  });

  it('follows the instance order, then a run’s own order before it; unknown ids are ignored', async () => {
    const list = [source('a', 30, missing()), source('b', 20, missing()), source('c', 10, missing())];
    const run = async (sourceOrder?: string[], runOrder?: string[]) => {
      const { log, events } = recorder();
      await makeProviders({
        sources: list,
        embeds: [],
        fetcher: noFetch,
        target: 'browser',
        ...(sourceOrder ? { sourceOrder } : {}),
      }).runAll({
        media: movie,
        events,
        ...(runOrder ? { sourceOrder: runOrder } : {}),
      });
      return log[0];
    };
    expect(await run()).toBe('init:a,b,c');
    expect(await run(['c'])).toBe('init:c,a,b');
    expect(await run(['c', 'nope'], ['b'])).toBe('init:b,c,a');
  });

  it('keeps a fallback source last whatever the order says, and leaves out disabled ones', async () => {
    const { log, events } = recorder();
    const fallback = makeSourcerer({
      id: 'sample',
      name: 'sample',
      rank: 1000,
      isFallback: true,
      flags: [],
      scrapeMovie: found('sample'),
    });
    const output = await makeProviders({
      sources: [
        fallback,
        source('off', 50, { disabled: true, scrapeMovie: found('off') }),
        source('real', 10, missing()),
      ],
      embeds: [],
      fetcher: noFetch,
      target: 'browser',
      sourceOrder: ['sample', 'off', 'real'],
    }).runAll({ media: movie, events });
    expect(log[0]).toBe('init:real,sample');
    expect(output?.sourceId).toBe('sample');
  });

  it('skips sources that cannot scrape the media type', async () => {
    const { log, events } = recorder();
    await providers([
      source('movies-only', 2, { scrapeMovie: found('m') }),
      source('both', 1, found('both')),
    ]).runAll({ media: show, events });
    expect(log[0]).toBe('init:both');
  });

  it('runs the embeds a source found, in embed order, with run ids, until one yields a stream', async () => {
    const { log, events } = recorder();
    const embeds = [
      makeEmbed({ id: 'slow', name: 'slow', rank: 1, scrape: missing('gone') }),
      makeEmbed({ id: 'good', name: 'good', rank: 5, scrape: async ({ url }) => ({ stream: [hls(url)] }) }),
      makeEmbed({ id: 'bad', name: 'bad', rank: 9, scrape: broken() }),
    ];
    const withEmbeds = source('site', 1, async () => ({
      embeds: [
        { embedId: 'slow', url: 'one' },
        { embedId: 'good', url: 'two' },
        { embedId: 'bad', url: 'three' },
        { embedId: 'unknown', url: 'four' },
      ],
    }));
    const output = await providers([withEmbeds], embeds).runAll({ media: movie, events });
    expect(output).toEqual({ sourceId: 'site', embedId: 'good', stream: hls('two') });
    expect(log).toEqual([
      'init:site',
      'start:site',
      'update:site:pending',
      'embeds:site:site-0=bad,site-1=good,site-2=slow',
      'start:site-0',
      'update:site-0:pending',
      'update:site-0:failure',
      'start:site-1',
      'update:site-1:pending',
      'update:site-1:success',
      'update:site:success',
    ]);
  });

  it('marks a source notfound when none of its embeds has a stream, and one without embeds as "No embeds found"', async () => {
    const { updates, events } = recorder();
    const embeds = [makeEmbed({ id: 'e', name: 'e', rank: 1, scrape: async () => ({ stream: [] }) })];
    await providers(
      [
        source('a', 2, async () => ({ embeds: [{ embedId: 'e', url: 'x' }] })),
        source('b', 1, async () => ({ embeds: [] })),
      ],
      embeds,
    ).runAll({
      media: movie,
      events,
    });
    expect(updates.filter((u) => u.status === 'notfound').map((u) => [u.id, u.reason])).toEqual([
      ['a-0', 'No stream'],
      ['a', 'No stream'],
      ['b', 'No embeds found'],
    ]);
  });

  it('offers a browser only streams whose host allows cross-origin reads; the extension gets them all', async () => {
    const locked = source('locked', 1, async () => ({ embeds: [], stream: [hls('x', [])] }));
    const { updates, events } = recorder();
    expect(await providers([locked]).runAll({ media: movie, events })).toBeNull();
    expect(updates.at(-1)).toMatchObject({ id: 'locked', status: 'notfound', reason: 'No stream' });
    expect(
      await providers([locked], [], { target: 'browser-extension' }).runAll({ media: movie }),
    ).toMatchObject({ sourceId: 'locked' });
  });

  it('passes progress on as pending updates of the provider at work', async () => {
    const { updates, events } = recorder();
    const progressing = makeSourcerer({
      id: 'p',
      name: 'p',
      rank: 1,
      flags: [],
      async scrapeMovie(ctx) {
        ctx.progress(40);
        ctx.progress(140);
        return { embeds: [], stream: [hls('p')] };
      },
    });
    await providers([progressing]).runAll({ media: movie, events });
    expect(updates.map((u) => `${u.status}:${u.percentage}`)).toEqual([
      'pending:0',
      'pending:40',
      'pending:100',
      'success:100',
    ]);
  });

  it('counts a provider that takes too long as a failure and goes on', async () => {
    vi.useFakeTimers();
    const { updates, events } = recorder();
    const hanging = source('hang', 2, {
      scrapeMovie: (ctx) =>
        new Promise((_, reject) => ctx.signal?.addEventListener('abort', () => reject(new Error('aborted')))),
    });
    const run = providers([hanging, source('ok', 1, found('ok'))], [], { timeoutMs: 1000 }).runAll({
      media: movie,
      events,
    });
    await vi.advanceTimersByTimeAsync(1001);
    expect((await run)?.sourceId).toBe('ok');
    expect(updates.find((u) => u.id === 'hang' && u.status === 'failure')?.error?.name).toBe(
      'ProviderTimeoutError',
    );
  });

  it('stops when the run is cancelled, and tells the provider through its signal', async () => {
    const controller = new AbortController();
    let providerSignal: AbortSignal | undefined;
    const waiting = source('wait', 2, {
      scrapeMovie: (ctx) => {
        providerSignal = ctx.signal;
        setTimeout(() => controller.abort(), 5);
        return new Promise(() => undefined);
      },
    });
    const next = vi.fn(found('never'));
    const { log, events } = recorder();
    await expect(
      providers([waiting, source('next', 1, next)]).runAll({
        media: movie,
        events,
        signal: controller.signal,
      }),
    ).rejects.toBeInstanceOf(ScrapeAbortedError);
    expect(providerSignal?.aborted).toBe(true);
    expect(next).not.toHaveBeenCalled();
    expect(log).not.toContain('update:wait:failure');
  });
});

describe('runSourceScraper and runEmbedScraper', () => {
  const embed = makeEmbed({
    id: 'e',
    name: 'e',
    rank: 1,
    scrape: async ({ url }) => ({ stream: url === 'good' ? [hls('e')] : [] }),
  });
  const list = providers(
    [
      source('s', 1, async () => ({
        embeds: [
          { embedId: 'e', url: 'good' },
          { embedId: 'zzz', url: 'x' },
        ],
      })),
      source('none', 1, missing()),
    ],
    [embed],
  );

  it('returns a source’s embeds (known ones only) and reports success', async () => {
    const { log, events } = recorder();
    expect(await list.runSourceScraper({ id: 's', media: movie, events })).toEqual({
      embeds: [{ embedId: 'e', url: 'good' }],
      stream: [],
    });
    expect(log).toEqual(['update:s:pending', 'update:s:success']);
  });

  it('throws NotFoundError (and reports it) when the source has nothing', async () => {
    const { log, events } = recorder();
    await expect(list.runSourceScraper({ id: 'none', media: movie, events })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(log).toEqual(['update:none:pending', 'update:none:notfound']);
  });

  it('runs one embed on a URL', async () => {
    expect(await list.runEmbedScraper({ id: 'e', url: 'good' })).toEqual({ stream: [hls('e')] });
    await expect(list.runEmbedScraper({ id: 'e', url: 'bad' })).rejects.toThrow('No stream');
  });

  it('refuses unknown ids', async () => {
    await expect(list.runSourceScraper({ id: 'nope', media: movie })).rejects.toThrow(
      'no source with id "nope"',
    );
    await expect(list.runEmbedScraper({ id: 'nope', url: 'x' })).rejects.toThrow('no embed with id "nope"');
  });
});

describe('makeProviders', () => {
  it('lists sources in run order and embeds by rank, with what sources can scrape', () => {
    const list = makeProviders({
      sources: [
        source('a', 1, { scrapeMovie: found('a') }),
        source('b', 5, found('b')),
        source('x', 9, { disabled: true, scrapeMovie: found('x') }),
      ],
      embeds: [
        makeEmbed({ id: 'e1', name: 'E1', rank: 1, scrape: missing() }),
        makeEmbed({ id: 'e2', name: 'E2', rank: 2, scrape: missing() }),
      ],
      fetcher: noFetch,
      target: 'browser',
      sourceOrder: ['a'],
    });
    expect(list.listSources()).toEqual([
      { type: 'source', id: 'a', name: 'a', rank: 1, mediaTypes: ['movie'] },
      { type: 'source', id: 'b', name: 'b', rank: 5, mediaTypes: ['movie', 'show'] },
    ]);
    expect(list.listEmbeds().map((e) => e.id)).toEqual(['e2', 'e1']);
    expect(list.getMetadata('e1')).toEqual({ type: 'embed', id: 'e1', name: 'E1', rank: 1 });
    expect(list.getMetadata('x')).toBeNull();
  });

  it('refuses two providers with one id', () => {
    expect(() => providers([source('a', 1, found('a')), source('a', 2, found('a'))])).toThrow(
      'share the id "a"',
    );
  });
});
