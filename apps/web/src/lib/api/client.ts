import {
  PROFILE_HEADER,
  PROFILE_TOKEN_HEADER,
  accountRoutes,
  configRoutes,
  customerRoutes,
  historyRoutes,
  jobRoutes,
  membershipRoutes,
  metadataRoutes,
  ratingsRoutes,
  sourceRoutes,
  syncRoutes,
  traktRoutes,
} from '@marquee/contract/values';
import type { Route } from '@marquee/contract';
// Types only: the endpoint declarations hold zod schemas, which must stay out of the first view's bundle.
import type {
  accountEndpoints,
  configEndpoints,
  customerEndpoints,
  Endpoint,
  historyEndpoints,
  jobEndpoints,
  membershipEndpoints,
  metadataEndpoints,
  ratingsEndpoints,
  sourcesEndpoints,
  syncEndpoints,
  traktEndpoints,
} from '@marquee/contract';
import type { z } from 'zod';
import { apiCredentials } from './credentials.ts';
import { ApiError, errorFromAnswer, networkError } from './errors.ts';

/*
 * The web's client of Marquee's API, derived from the contract: the route tables (method and path,
 * schema-free) are the run-time values, the endpoint declarations give the types of params, query, body
 * (what the schemas accept: z.input) and answer (what the server's serialiser sends: z.output). A call
 * site names the endpoint and its inputs — `api.metadata.details({ params: { type, id } })` — and never
 * a method, a path or a response type.
 */

// ---- types ----

/** A schema slot the endpoint leaves out is inferred as the bare `z.ZodType` default. */
type Absent<S> = z.ZodType extends S ? true : false;
type Slot<K extends string, S> =
  Absent<S> extends true
    ? { [P in K]?: never }
    : undefined extends z.input<S>
      ? { [P in K]?: z.input<S> }
      : // An object whose fields are all optional (a query of filters) may be left out too.
        object extends z.input<S>
        ? { [P in K]?: z.input<S> }
        : { [P in K]: z.input<S> };

/** What a call of endpoint `E` takes: its params, query and body as the contract's schemas accept them. */
export type ApiInput<E> =
  E extends Endpoint<infer P, infer Q, infer B, z.ZodType>
    ? Slot<'params', P> & Slot<'query', Q> & Slot<'body', B>
    : never;
/** What a call of endpoint `E` resolves to: its response schema's output (the server serialises with it). */
export type ApiOutput<E> = E extends Endpoint<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;

/** Where a group of routes lives by default. */
type Server = 'account' | 'instance';

export interface CallOptions {
  /** Bearer token. Default: the signed-in account's, when the call goes to the route's default server; null sends none. */
  token?: string | null;
  /**
   * Server origin ('' = this instance). Default: account, sync, customer and membership routes go to the
   * account server chosen in settings (else this instance); metadata, config and sources always to this instance.
   */
  baseUrl?: string;
  /** Default 20 s; 0 for none. A timeout fails as `network_error`. */
  timeoutMs?: number;
  /** The caller's abort (TanStack Query's signal): rethrown as the AbortError it is, never an ApiError. */
  signal?: AbortSignal | undefined;
  /** Extra request headers (X-Profile-Id on sync calls, If-None-Match). */
  headers?: Record<string, string> | undefined;
  /** Outlives the page (metrics sent while leaving). */
  keepalive?: boolean;
  /** Only for tests and the scrape runner's injected transport. */
  fetch?: typeof fetch;
}

export type CallInput<E> = ApiInput<E> & CallOptions;

/** The answer of a raw call: the status and headers, and the typed body unless it was 304 Not Modified. */
export type RawAnswer<T> =
  | { notModified: true; status: 304; headers: Headers }
  | { notModified: false; status: number; headers: Headers; data: T };

/** Input optional when the endpoint needs none. */
type Args<E> = object extends ApiInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>];

export interface EndpointCall<E> {
  (...args: Args<E>): Promise<ApiOutput<E>>;
  /** Like the call, but a 304 resolves (conditional reads) and the status and headers come along. */
  raw(...args: Args<E>): Promise<RawAnswer<ApiOutput<E>>>;
  readonly route: Route;
}

export type EndpointCalls<M> = { readonly [K in keyof M]: EndpointCall<M[K]> };

// ---- requests ----

/** The account server: the one chosen in settings, else this instance (''). */
export const accountBaseUrl = (override?: string | null) =>
  (override ?? apiCredentials().backendUrl() ?? '').replace(/\/+$/, '');

const DEFAULT_TIMEOUT_MS = 20_000;
/**
 * What one metadata call may take in all (decision 082): the server's TMDB budget (7 s) and the way here.
 * A lost connection is tried once more within it, and nothing retries the call after it.
 */
export const METADATA_BUDGET_MS = 8_000;
/** The pause before the one retry of a lost connection; it is tried only with this much time left. */
const RETRY_PAUSE_MS = 300;
const RETRY_MIN_LEFT_MS = 1_000;

type Loose = Record<string, unknown>;
/** The untyped shape every typed input reduces to; only this module and the legacy shim build it. */
export interface RequestInput extends CallOptions {
  params?: Loose | undefined;
  query?: Loose | undefined;
  body?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Fills `:name` segments; values are URI-encoded. */
export function fillPath(path: string, params: Loose = {}): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null)
      throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}

export function queryString(query: Loose = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null)
      search.set(key, typeof value === 'string' ? value : text(value));
  const out = search.toString();
  return out ? `?${out}` : '';
}

/** The caller's signal and the timeout as one; `timedOut` tells which fired. */
function deadline(signal: AbortSignal | undefined, timeoutMs: number) {
  const controller = new AbortController();
  const endsAt = Date.now() + timeoutMs;
  let timedOut = false;
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new DOMException('The request timed out', 'TimeoutError'));
        }, timeoutMs)
      : undefined;
  const forward = () => controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    /** Time left before the timeout (Infinity without one). */
    left: () => (timeoutMs > 0 ? endsAt - Date.now() : Number.POSITIVE_INFINITY),
    done: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    },
  };
}

/** The token to send: the given one, else the signed-in account's when the call goes to the route's default server. */
function tokenFor(input: RequestInput): string | null {
  if (input.token !== undefined) return input.token;
  if (input.baseUrl !== undefined) return null;
  return apiCredentials().token();
}

/**
 * Sends one request and answers the Response when it is 2xx (or 304 when `allowNotModified`). No
 * answer throws ApiError `network_error` (status 0); any other status an ApiError with the body's code.
 */
export async function send(
  route: Route,
  server: Server,
  input: RequestInput,
  o: {
    accept?: string;
    allowNotModified?: boolean;
    timeoutMs?: number;
    /** Sees every answer's status and headers, refusals included. */
    onResponse?: (answer: { status: number; headers: Headers }) => void;
    /**
     * The timeout is the call's whole budget (decision 082): a GET whose connection fails is tried once
     * more within it, and every error is `final` (nothing should retry it).
     */
    budgeted?: boolean;
  } = {},
): Promise<Response> {
  const base = input.baseUrl ?? (server === 'account' ? accountBaseUrl() : '');
  const url = base.replace(/\/+$/, '') + fillPath(route.path, input.params) + queryString(input.query);
  const headers: Record<string, string> = { accept: o.accept ?? 'application/json', ...input.headers };
  const token = tokenFor(input);
  if (token) headers.authorization = `Bearer ${token}`;
  const ours = token !== null && token === apiCredentials().token();
  // The signed-in account's calls for a PIN-locked profile carry this device's unlock of it (decision 104).
  const profile = headers[PROFILE_HEADER] ?? '';
  const unlocked = ours ? apiCredentials().profileToken(profile) : null;
  if (unlocked && !headers[PROFILE_TOKEN_HEADER]) headers[PROFILE_TOKEN_HEADER] = unlocked;
  // A kids' profile names itself on the calls that name no profile, so the server keeps its answers to
  // the kid's limit (decision 106).
  const kid = ours ? apiCredentials().kidsProfile() : null;
  if (kid && headers[PROFILE_HEADER] === undefined) headers[PROFILE_HEADER] = kid;
  const hasBody = input.body !== undefined && route.method !== 'GET';
  if (hasBody) headers['content-type'] = 'application/json';

  const limit = deadline(input.signal, input.timeoutMs ?? o.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const retryOnce = o.budgeted === true && route.method === 'GET';
  let response: Response | undefined;
  try {
    for (let attempt = 1; response === undefined; attempt++) {
      try {
        response = await (input.fetch ?? fetch)(url, {
          method: route.method,
          headers,
          ...(hasBody ? { body: JSON.stringify(input.body) } : {}),
          ...(input.keepalive ? { keepalive: true } : {}),
          signal: limit.signal,
        });
      } catch (error) {
        // The caller gave up: not an API failure (TanStack Query drops it quietly).
        if (input.signal?.aborted && !limit.timedOut()) throw error;
        const again = retryOnce && attempt === 1 && !limit.timedOut() && limit.left() >= RETRY_MIN_LEFT_MS;
        if (!again) throw networkError(o.budgeted);
        await pause(RETRY_PAUSE_MS, limit.signal);
        if (input.signal?.aborted) throw input.signal.reason;
      }
    }
  } finally {
    limit.done();
  }
  o.onResponse?.({ status: response.status, headers: response.headers });
  if (response.ok || (o.allowNotModified && response.status === 304)) return response;
  const error = errorFromAnswer(response.status, await response.json().catch(() => null));
  if (error.code === 'profile_locked' && token) apiCredentials().profileLocked(profile);
  if (!o.budgeted) throw error;
  throw new ApiError(error.status, error.code, error.message, error.issues, true);
}

/** Waits `ms`, or less when `signal` aborts (the caller then decides what the abort means). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

async function bodyOf(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  try {
    return await response.json();
  } catch (error) {
    throw new ApiError(response.status, 'unknown', `Unreadable answer: ${(error as Error).message}`);
  }
}

/** How a group's calls are limited in time: a default timeout, or a budget (decision 082). */
type Timing = { timeoutMs?: number; budgeted?: boolean };

function endpointCall<E>(route: Route, server: Server, timing: Timing): EndpointCall<E> {
  const call = async (input: RequestInput = {}) =>
    (await bodyOf(await send(route, server, input, timing))) as ApiOutput<E>;
  const raw = async (input: RequestInput = {}): Promise<RawAnswer<ApiOutput<E>>> => {
    const response = await send(route, server, input, { ...timing, allowNotModified: true });
    if (response.status === 304) return { notModified: true, status: 304, headers: response.headers };
    return {
      notModified: false,
      status: response.status,
      headers: response.headers,
      data: (await bodyOf(response)) as ApiOutput<E>,
    };
  };
  return Object.assign(call, { raw, route }) as unknown as EndpointCall<E>;
}

/**
 * The calls of one route table. Groups no first view needs are made where they are used, so their tables
 * stay out of the first view's code (lib/api/device-links-api.ts).
 */
export function group<M>(
  routes: Record<string, Route>,
  server: Server,
  timing: Timing = {},
): EndpointCalls<M> {
  return Object.fromEntries(
    Object.entries(routes).map(([key, route]) => [key, endpointCall(route, server, timing)]),
  ) as unknown as EndpointCalls<M>;
}

/** Every endpoint of the contract, grouped as the contract declares them. */
export const api = {
  account: group<typeof accountEndpoints>(accountRoutes, 'account'),
  sync: group<typeof syncEndpoints>(syncRoutes, 'account'),
  history: group<typeof historyEndpoints>(historyRoutes, 'account'),
  ratings: group<typeof ratingsEndpoints>(ratingsRoutes, 'account'),
  trakt: group<typeof traktEndpoints>(traktRoutes, 'account'),
  customer: group<typeof customerEndpoints>(customerRoutes, 'account'),
  membership: group<typeof membershipEndpoints>(membershipRoutes, 'account'),
  metadata: group<typeof metadataEndpoints>(metadataRoutes, 'instance', {
    timeoutMs: METADATA_BUDGET_MS,
    budgeted: true,
  }),
  config: group<typeof configEndpoints>(configRoutes, 'instance'),
  sources: group<typeof sourcesEndpoints>(sourceRoutes, 'instance'),
  /** Admins: the background job queue (on the account server, like the self-test beside it). */
  jobs: group<typeof jobEndpoints>(jobRoutes, 'account'),
};
