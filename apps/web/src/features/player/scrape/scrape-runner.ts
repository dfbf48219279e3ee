import { SCRAPE_TOKEN_HEADER, scrapeQuery, sourcePaths, type ScrapeMediaParams } from '@marquee/contract';
import type {
  DiscoverEmbedsEvent,
  InitEvent,
  RunOutput,
  SourcererOutput,
  UpdateEvent,
} from '@marquee/providers';
import { scrapeTokens, type ScrapeTokenStore } from '../../../lib/proxy-transport.ts';
import { useAccountStore } from '../../../stores/account-store.ts';
import type { ScrapeState } from '../core/player-store.ts';
import { readEventStream } from './event-stream.ts';
import { emptyScrapeState, onDiscoverEmbeds, onInit, onStart, onUpdate, type NameOf } from './segments.ts';

export type ScrapeFailure =
  | { kind: 'removed' }
  | { kind: 'captcha' }
  | { kind: 'membership' }
  | { kind: 'login' }
  | { kind: 'notFound' }
  | { kind: 'failed'; message: string };

export type ScrapeOutcome = { kind: 'found'; output: RunOutput } | ScrapeFailure;

/** Turns runner events into the per-source list the scraping view shows. */
export class SegmentTracker {
  state: ScrapeState = emptyScrapeState();
  constructor(
    private readonly names: NameOf,
    private readonly onState: (state: ScrapeState) => void,
  ) {}
  private set(state: ScrapeState) {
    this.state = state;
    this.onState(state);
  }
  readonly events = {
    init: (e: InitEvent) => this.set(onInit(this.state, e, this.names)),
    start: (id: string) => this.set(onStart(this.state, id)),
    update: (e: UpdateEvent) => this.set(onUpdate(this.state, e)),
    discoverEmbeds: (e: DiscoverEmbedsEvent) => this.set(onDiscoverEmbeds(this.state, e, this.names)),
  };
}

/**
 * This instance's scrape endpoints know who is asking (the subscription site gates playback on a
 * membership): the signed-in account's bearer token goes along. Never sent to another origin.
 */
function scrapeHeaders(
  scrapeToken: string | null | undefined,
  toThisInstance: boolean,
): Record<string, string> {
  const account = toThisInstance ? useAccountStore.getState().account?.token : undefined;
  return {
    accept: 'text/event-stream',
    ...(scrapeToken ? { [SCRAPE_TOKEN_HEADER]: scrapeToken } : {}),
    ...(account ? { authorization: `Bearer ${account}` } : {}),
  };
}

interface ErrorBody {
  code?: string;
  message?: string;
}

export interface ServerScrapeOptions {
  /** `''` for this instance, or a provider API's origin. */
  base: string;
  media: ScrapeMediaParams;
  sourceOrder?: readonly string[];
  signal?: AbortSignal;
  tracker: SegmentTracker;
  /** Solves the instance's human check; resolves to a token like `altcha|…`. */
  solveCaptcha?: () => Promise<string>;
  tokens?: ScrapeTokenStore;
  fetchLike?: typeof fetch;
}

function failureOf(status: number, body: ErrorBody | null): ScrapeFailure {
  switch (body?.code) {
    case 'media_removed':
      return { kind: 'removed' };
    case 'captcha_required':
    case 'captcha_invalid':
    case 'captcha_unavailable':
      return { kind: 'captcha' };
    case 'membership_required':
      return { kind: 'membership' };
    case 'login_required':
      return { kind: 'login' };
    default:
      return { kind: 'failed', message: body?.message ?? `HTTP ${status}` };
  }
}

/**
 * Server-side scraping over the scrape API's event stream, read with fetch (not EventSource) so the
 * X-Token header can be sent and read. A captcha demand is solved once and the request repeated.
 */
export async function scrapeOnServer(o: ServerScrapeOptions): Promise<ScrapeOutcome> {
  const tokens = o.tokens ?? scrapeTokens;
  const fetchLike = o.fetchLike ?? fetch;
  let token = tokens.header();
  for (let attempt = 0; attempt < 2; attempt++) {
    const query = new URLSearchParams(
      scrapeQuery(o.media, { ...(o.sourceOrder?.length ? { sourceOrder: o.sourceOrder } : {}) }),
    );
    const response = await fetchLike(`${o.base}${sourcePaths.scrape}?${query}`, {
      headers: scrapeHeaders(token, !o.base),
      ...(o.signal ? { signal: o.signal } : {}),
    });
    tokens.set(response.headers.get(SCRAPE_TOKEN_HEADER));
    if (!response.ok) {
      const failure = failureOf(
        response.status,
        (await response.json().catch(() => null)) as ErrorBody | null,
      );
      if (failure.kind === 'captcha' && attempt === 0 && o.solveCaptcha) {
        token = await o.solveCaptcha();
        continue;
      }
      return failure;
    }
    return readScrapeEvents(response, o.tracker, tokens);
  }
  return { kind: 'captcha' };
}

async function readScrapeEvents(
  response: Response,
  tracker: SegmentTracker,
  tokens: ScrapeTokenStore,
): Promise<ScrapeOutcome> {
  for await (const { event, data } of readEventStream(response)) {
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      continue;
    }
    switch (event) {
      case 'token':
        tokens.set(payload as string);
        break;
      case 'init':
        tracker.events.init(payload as InitEvent);
        break;
      case 'start':
        tracker.events.start(payload as string);
        break;
      case 'update':
        tracker.events.update(payload as UpdateEvent);
        break;
      case 'discoverEmbeds':
        tracker.events.discoverEmbeds(payload as DiscoverEmbedsEvent);
        break;
      case 'completed':
        return { kind: 'found', output: payload as RunOutput };
      case 'noOutput':
        return { kind: 'notFound' };
      case 'error': {
        const error = payload as { name?: string; message?: string };
        return error.name === 'NotFoundError'
          ? { kind: 'notFound' }
          : { kind: 'failed', message: error.message ?? 'scrape failed' };
      }
      default:
        break;
    }
  }
  return { kind: 'failed', message: 'the scrape stream closed early' };
}

interface OneShotOptions {
  signal?: AbortSignal;
  tokens?: ScrapeTokenStore;
  fetchLike?: typeof fetch;
}

/**
 * One request to this instance's `/scrape/source` or `/scrape/embed`: sends the scrape token and the
 * account, keeps the token it gets back, and resolves to the `completed` payload (an `error` event is
 * thrown with its name).
 */
async function scrapeOnce<T>(path: string, query: URLSearchParams, o: OneShotOptions): Promise<T> {
  const tokens = o.tokens ?? scrapeTokens;
  const response = await (o.fetchLike ?? fetch)(`${path}?${query}`, {
    headers: scrapeHeaders(tokens.header(), true),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  tokens.set(response.headers.get(SCRAPE_TOKEN_HEADER));
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  for await (const { event, data } of readEventStream(response)) {
    if (event === 'token') tokens.set(JSON.parse(data) as string);
    if (event === 'completed') return JSON.parse(data) as T;
    if (event === 'error') {
      const error = JSON.parse(data) as { name: string; message: string };
      const thrown = new Error(error.message);
      thrown.name = error.name;
      throw thrown;
    }
  }
  throw new Error('the scrape stream closed early');
}

/** One source of this instance through `/scrape/source` (the browser cannot read the operator's files). */
export function scrapeSourceOnServer(
  o: OneShotOptions & { id: string; media: ScrapeMediaParams },
): Promise<SourcererOutput> {
  return scrapeOnce(sourcePaths.scrapeSource, new URLSearchParams(scrapeQuery(o.media, { id: o.id })), o);
}

/** One embed URL through this instance's `/scrape/embed`. */
export function scrapeEmbedOnServer(
  o: OneShotOptions & { id: string; url: string },
): Promise<{ stream: RunOutput['stream'][] }> {
  return scrapeOnce(sourcePaths.scrapeEmbed, new URLSearchParams({ id: o.id, url: o.url }), o);
}
