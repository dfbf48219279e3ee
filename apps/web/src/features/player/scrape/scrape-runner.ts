import { PROFILE_HEADER, SCRAPE_TOKEN_HEADER, scrapeQuery, sourceRoutes } from '@marquee/contract/values';
import type {
  ErrorCode,
  ScrapeAllEventData,
  ScrapeEmbedEventData,
  ScrapeSourceEventData,
  ScrapeMediaParams,
} from '@marquee/contract';
import type { DiscoverEmbedsEvent, InitEvent } from '@marquee/providers';
import { ApiError } from '../../../lib/api/index.ts';
import { STOP, stream } from '../../../lib/api/stream.ts';
import { scrapeTokens, type ScrapeTokenStore } from '../../../lib/proxy-transport.ts';
import type { ScrapeState } from '../core/player-store.ts';
import { useLibraryStore } from '../../../stores/index.ts';
import { deviceFields, deviceQuery, type DeviceQuery } from './device-query.ts';
import {
  emptyScrapeState,
  onDiscoverEmbeds,
  onInit,
  onStart,
  onUpdate,
  type NameOf,
  type SegmentUpdate,
} from './segments.ts';

export type ScrapeFailure =
  | { kind: 'removed' }
  | { kind: 'unreleased' }
  /** The metadata (TMDB or the embedded catalog) does not list this movie, season or episode. */
  | { kind: 'notInCatalog' }
  /** The metadata source is down and nothing is cached: whether the title is out cannot be checked. */
  | { kind: 'metadataUnavailable' }
  | { kind: 'captcha' }
  | { kind: 'membership' }
  | { kind: 'login' }
  | { kind: 'notFound' }
  | { kind: 'failed'; message: string };

/** What a scrape found: the `completed` event's data, typed by the contract. */
export type RunOutput = ScrapeAllEventData['completed'];
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
    update: (e: SegmentUpdate) => this.set(onUpdate(this.state, e)),
    discoverEmbeds: (e: DiscoverEmbedsEvent) => this.set(onDiscoverEmbeds(this.state, e, this.names)),
  };
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
  /** What the device plays and the audio language it wants (default: this browser's, the viewer's). */
  device?: DeviceQuery;
}

function failureOf(error: ApiError): ScrapeFailure {
  switch (error.code) {
    case 'media_removed':
      return { kind: 'removed' };
    case 'media_unreleased':
      return { kind: 'unreleased' };
    case 'media_not_found':
      return { kind: 'notInCatalog' };
    case 'metadata_unavailable':
      return { kind: 'metadataUnavailable' };
    case 'captcha_required':
    case 'captcha_invalid':
    case 'captcha_unavailable':
      return { kind: 'captcha' };
    case 'membership_required':
      return { kind: 'membership' };
    case 'login_required':
      return { kind: 'login' };
    default:
      return { kind: 'failed', message: error.message };
  }
}

/** What the scrape API refuses for the media itself, before any source runs (the same for every source). */
export type TitleRefusal = Extract<
  ScrapeFailure,
  { kind: 'removed' | 'unreleased' | 'notInCatalog' | 'metadataUnavailable' }
>;

/**
 * A refusal of the title itself (removed, not out yet, not in the metadata, its release not checkable) as
 * the failure it is, or null: one of this instance's sources refused this way in the browser stands for
 * every other one, so the whole run ends with it (browser-scrape.ts).
 */
export function titleRefusalOf(error: unknown): TitleRefusal | null {
  if (!(error instanceof ApiError)) return null;
  const failure = failureOf(error);
  switch (failure.kind) {
    case 'removed':
    case 'unreleased':
    case 'notInCatalog':
    case 'metadataUnavailable':
      return failure;
    default:
      return null;
  }
}

/** The scrape query of a media as the contract types it (same fields and order as the family's clients). */
const mediaQuery = (media: ScrapeMediaParams, extra: Parameters<typeof scrapeQuery>[1] = {}) => ({
  ...scrapeQuery(media, extra),
  type: media.type,
  title: media.title,
  tmdbId: media.tmdbId,
});

/**
 * What every scrape request carries. This instance's scrape endpoints know who is asking (the subscription
 * site gates playback on a membership): the client sends the signed-in account's bearer token to this
 * instance only — a provider API's origin (`base`) gets none. The X-Token answer header is kept, refusals included.
 */
const profileHeader = (profile: string): Record<string, string> =>
  profile ? { [PROFILE_HEADER]: profile } : {};

function transport(
  o: { base?: string; signal?: AbortSignal | undefined; fetchLike?: typeof fetch | undefined },
  tokens: ScrapeTokenStore,
  scrapeToken: string | null | undefined,
) {
  return {
    ...(o.base ? { baseUrl: o.base } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.fetchLike ? { fetch: o.fetchLike } : {}),
    headers: {
      ...(scrapeToken ? { [SCRAPE_TOKEN_HEADER]: scrapeToken } : {}),
      // This instance plays for the viewer's profile, which must be open here if it has a PIN (decision 104).
      ...(o.base ? {} : profileHeader(useLibraryStore.getState().profile)),
    },
    onResponse: ({ headers }: { headers: Headers }) => tokens.set(headers.get(SCRAPE_TOKEN_HEADER)),
  };
}

/**
 * Server-side scraping over the scrape API's event stream (the client's `stream`, over fetch so the
 * X-Token header can be sent and read). A captcha demand is solved once and the request repeated.
 */
export async function scrapeOnServer(o: ServerScrapeOptions): Promise<ScrapeOutcome> {
  const tokens = o.tokens ?? scrapeTokens;
  let token = tokens.header();
  for (let attempt = 0; attempt < 2; attempt++) {
    const query = mediaQuery(o.media, {
      ...(o.sourceOrder?.length ? { sourceOrder: o.sourceOrder } : {}),
      ...deviceFields(o.device ?? deviceQuery()),
    });
    try {
      return await readScrapeEvents({ query, ...transport(o, tokens, token) }, o.tracker, tokens);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 0) throw error;
      const failure = failureOf(error);
      if (failure.kind === 'captcha' && attempt === 0 && o.solveCaptcha) {
        token = await o.solveCaptcha();
        continue;
      }
      return failure;
    }
  }
  return { kind: 'captcha' };
}

async function readScrapeEvents(
  input: Parameters<typeof stream<typeof sourceRoutes.scrape>>[1],
  tracker: SegmentTracker,
  tokens: ScrapeTokenStore,
): Promise<ScrapeOutcome> {
  let outcome: ScrapeOutcome = { kind: 'failed', message: 'the scrape stream closed early' };
  await stream(sourceRoutes.scrape, input, (e) => {
    switch (e.event) {
      case 'token':
        tokens.set(e.data);
        return;
      case 'init':
        tracker.events.init(e.data);
        return;
      case 'start':
        tracker.events.start(e.data);
        return;
      case 'update':
        tracker.events.update(e.data);
        return;
      case 'discoverEmbeds':
        tracker.events.discoverEmbeds(e.data);
        return;
      case 'completed':
        outcome = { kind: 'found', output: e.data };
        return STOP;
      case 'noOutput':
        outcome = { kind: 'notFound' };
        return STOP;
      case 'error':
        outcome =
          e.data.name === 'NotFoundError'
            ? { kind: 'notFound' }
            : { kind: 'failed', message: e.data.message };
        return STOP;
    }
  });
  return outcome;
}

interface OneShotOptions {
  signal?: AbortSignal;
  tokens?: ScrapeTokenStore;
  fetchLike?: typeof fetch;
}

/** An `error` event of a one-shot scrape: its name (NotFoundError stays recognisable) and the server's code. */
export class ScrapeEventError extends Error {
  constructor(
    name: string,
    message: string,
    /** The contract's error code, when the server gave one (`media_unplayable`). */
    readonly code?: ErrorCode,
  ) {
    super(message);
    this.name = name;
  }
}

function scrapeError(data: { name: string; message: string; code?: ErrorCode | undefined }): Error {
  return new ScrapeEventError(data.name, data.message, data.code);
}

/**
 * One source of this instance through `/scrape/source` (the browser cannot read the operator's files):
 * sends the scrape token, the account and the device, keeps the token it gets back, and resolves to the
 * `completed` data (an `error` event is thrown as a `ScrapeEventError`).
 */
export async function scrapeSourceOnServer(
  o: OneShotOptions & { id: string; media: ScrapeMediaParams; device?: DeviceQuery },
) {
  const tokens = o.tokens ?? scrapeTokens;
  const out: { result: Settled<ScrapeSourceOutput> | null } = { result: null };
  const query = { ...mediaQuery(o.media, deviceFields(o.device ?? deviceQuery())), id: o.id };
  await stream(sourceRoutes.scrapeSource, { query, ...transport(o, tokens, tokens.header()) }, (e) => {
    if (e.event === 'token') tokens.set(e.data);
    else if (e.event === 'completed') out.result = { done: e.data };
    else if (e.event === 'error') out.result = { failed: scrapeError(e.data) };
    else if (e.event === 'noOutput') out.result = { done: { embeds: [] } };
    return out.result ? STOP : undefined;
  });
  return settle(out.result);
}

/** One embed URL through this instance's `/scrape/embed`. */
export async function scrapeEmbedOnServer(o: OneShotOptions & { id: string; url: string }) {
  const tokens = o.tokens ?? scrapeTokens;
  const out: { result: Settled<ScrapeEmbedOutput> | null } = { result: null };
  await stream(
    sourceRoutes.scrapeEmbed,
    { query: { id: o.id, url: o.url }, ...transport(o, tokens, tokens.header()) },
    (e) => {
      if (e.event === 'token') tokens.set(e.data);
      else if (e.event === 'completed') out.result = { done: e.data };
      else if (e.event === 'error') out.result = { failed: scrapeError(e.data) };
      else if (e.event === 'noOutput') out.result = { done: { stream: [] } };
      return out.result ? STOP : undefined;
    },
  );
  return settle(out.result);
}

type ScrapeSourceOutput = ScrapeSourceEventData['completed'];
type ScrapeEmbedOutput = ScrapeEmbedEventData['completed'];

type Settled<T> = { done: T } | { failed: Error };
function settle<T>(result: Settled<T> | null): T {
  if (!result) throw new Error('the scrape stream closed early');
  if ('failed' in result) throw result.failed;
  return result.done;
}
