import { z } from './z.ts';
import { errorCodes, type ErrorCode } from './errors.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Method and path of an endpoint: what a client needs at run time (the schemas only give its types). */
export interface Route {
  method: HttpMethod;
  /** Fastify-style path, `:name` for parameters. */
  path: string;
}

/**
 * Who may call an endpoint, as the server checks it (apps/server/src/plugins/auth.ts):
 * - `none`: anyone; a token is not read.
 * - `optional`: anyone; a bearer token (header or `?access_token=`) is read when present (the scrape
 *   streams: a membership gate may need it, decision 041).
 * - `session`: a live session's token as `Authorization: Bearer` or `X-auth-token`, else 401
 *   `unauthorized`; a `:uid` in the path must be the caller (403 `forbidden`).
 * - `admin`: a session whose account has the admin role (403 `forbidden` otherwise).
 */
export type EndpointAuth = 'none' | 'optional' | 'session' | 'admin';

/** One tag per server module; the OpenAPI document groups operations by them. */
export const endpointTags = [
  'accounts',
  'sync',
  'customers',
  'membership',
  'admin',
  'metadata',
  'config',
  'sources',
  'parties',
  'cast',
] as const;
export type EndpointTag = (typeof endpointTags)[number];

/** What each tag covers (the OpenAPI document's tag descriptions). */
export const endpointTagDescriptions: Record<EndpointTag, string> = {
  accounts:
    'Passphrase accounts, sessions, /meta, captcha challenges and client metrics: the account backend protocol of the app family (decisions 010–015).',
  sync: 'Bookmarks, watch progress and settings of an account or of one of its household profiles (X-Profile-Id).',
  customers: 'Email accounts and household profiles (decision 040).',
  membership: 'Plans, payment requests, payments and promo codes (decision 041).',
  admin:
    'Tools for accounts with the admin role: payments overview, the instance self-test and the media library scanner.',
  metadata: 'Movie and show metadata (TMDB or the embedded catalog, decision 002).',
  config: 'Runtime configuration of the instance for the web app.',
  sources: 'The scrape API (server-sent events) and the provider list (decision 020).',
  parties:
    "Watch parties: rooms that keep their members' players in step, with chat and reactions (decision 110); p-stream's player status polling.",
  cast: 'Casting: the caption a viewer chose, relayed as WebVTT for a Chromecast to load (decision 113).',
};

/** HTTP statuses of error answers. */
export type ErrorStatus =
  400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 414 | 415 | 416 | 429 | 451 | 500 | 502 | 503;
/** Error codes (errors.ts) a route answers, by HTTP status. */
export type EndpointErrors = Partial<Record<ErrorStatus, readonly ErrorCode[]>>;

/**
 * One endpoint declared as data. The server registers routes from these objects (so input is validated
 * and output serialised by the same schemas) and the web client derives its calls from them.
 */
export interface Endpoint<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** Fastify-style path, `:name` for parameters. */
  path: string;
  summary: string;
  /** Who may call it (see EndpointAuth). */
  auth: EndpointAuth;
  /** The module it belongs to (one tag). */
  tags: readonly [EndpointTag];
  /**
   * The errors of this route itself. Those every route of a kind shares are added by `errorResponses`:
   * validation, body parsing, authentication, the database.
   */
  errors?: EndpointErrors;
  /**
   * `allowed`: a kids' profile may call it — its own library's routes, and the few account routes a
   * kid needs (who is signed in, opening another profile). Every other signed-in route answers 403
   * `kids_profile` when the request names a kids' profile (X-Profile-Id; decision 106).
   */
  kids?: 'allowed';
  /** `events`: the answer is text/event-stream (see StreamEndpoint); absent: JSON. */
  kind?: 'json' | 'events';
  /** The status of a successful answer: 200 unless work was only started (202 Accepted). */
  successStatus?: 200 | 202;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
}

export function defineEndpoint<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
>(endpoint: Endpoint<P, Q, B, R> & { kind?: 'json' }): Endpoint<P, Q, B, R> {
  return endpoint;
}

/** One event of a stream as `{event, data}`, for documentation and for clients that validate. */
export function eventUnion<M extends Record<string, z.ZodType>>(events: M) {
  const options = Object.entries(events).map(([event, data]) => z.object({ event: z.literal(event), data }));
  return z.discriminatedUnion(
    'event',
    options as unknown as [
      z.ZodObject<{ event: z.ZodLiteral<string> }>,
      ...z.ZodObject<{ event: z.ZodLiteral<string> }>[],
    ],
  );
}

/**
 * A GET endpoint that answers `text/event-stream`: `events` holds each event's data schema by event name
 * (the server checks every event against it before it leaves), `response` is their union as
 * `{event, data}` (what the OpenAPI document shows). Errors found before the stream starts are ordinary
 * JSON error bodies.
 */
export interface StreamEndpoint<
  Q extends z.ZodType = z.ZodType,
  M extends Record<string, z.ZodType> = Record<string, z.ZodType>,
  P extends z.ZodType = z.ZodType,
> extends Endpoint<P, Q, z.ZodType, z.ZodType> {
  method: 'GET';
  kind: 'events';
  events: M;
}

export function defineStream<
  Q extends z.ZodType,
  M extends Record<string, z.ZodType>,
  P extends z.ZodType = z.ZodType,
>(endpoint: Omit<StreamEndpoint<Q, M, P>, 'kind' | 'response' | 'body'>): StreamEndpoint<Q, M, P> {
  return { ...endpoint, kind: 'events', response: eventUnion(endpoint.events) };
}

export function isStreamEndpoint(endpoint: Endpoint): endpoint is StreamEndpoint {
  return endpoint.kind === 'events';
}

/** A signed-in route a kids' profile may not call (see `Endpoint.kids`). */
export const closedToKids = (endpoint: Endpoint): boolean =>
  (endpoint.auth === 'session' || endpoint.auth === 'admin') && endpoint.kids !== 'allowed';

/** Errors any route can answer: an unexpected failure, and a database that does not answer (Retry-After). */
export const sharedErrors = {
  500: ['internal_error'],
  503: ['database_unavailable'],
} as const satisfies EndpointErrors;

/**
 * Every error answer of an endpoint, by status: its own `errors` plus those its shape implies —
 * input (400 `validation_failed`), path parameters (414 `bad_request` for an overlong one), a request that
 * may carry a body, with a schema for it or not (400 `bad_request` for malformed JSON, 413, 415), who may call
 * it (401 `unauthorized`; 403 `forbidden` for a `:uid` path or the admin role) and `sharedErrors`.
 * The fuzz suite checks every error it provokes against this list.
 */
export function errorResponses(endpoint: Endpoint): Map<ErrorStatus, ErrorCode[]> {
  const implied: EndpointErrors[] = [];
  if (endpoint.params || endpoint.query || endpoint.body) implied.push({ 400: ['validation_failed'] });
  if (endpoint.params) implied.push({ 414: ['bad_request'] });
  if (endpoint.body || endpoint.method !== 'GET')
    implied.push({ 400: ['bad_request'], 413: ['payload_too_large'], 415: ['unsupported_media_type'] });
  if (endpoint.auth === 'session' || endpoint.auth === 'admin') implied.push({ 401: ['unauthorized'] });
  if (endpoint.auth === 'admin' || (endpoint.auth === 'session' && endpoint.path.includes(':uid')))
    implied.push({ 403: ['forbidden'] });
  if (closedToKids(endpoint)) implied.push({ 403: ['kids_profile'] });
  return mergeErrors(...implied, endpoint.errors ?? {}, sharedErrors);
}

/** Error lists merged by status (ascending); each status's codes once, in errors.ts order. */
export function mergeErrors(...lists: EndpointErrors[]): Map<ErrorStatus, ErrorCode[]> {
  const found = new Map<ErrorStatus, Set<ErrorCode>>();
  for (const errors of lists) {
    for (const [status, codes] of Object.entries(errors) as [string, readonly ErrorCode[]][]) {
      const set = found.get(Number(status) as ErrorStatus) ?? new Set<ErrorCode>();
      for (const code of codes) set.add(code);
      found.set(Number(status) as ErrorStatus, set);
    }
  }
  const order = (code: ErrorCode) => errorCodes.indexOf(code);
  return new Map(
    [...found]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [status, [...codes].sort((a, b) => order(a) - order(b))]),
  );
}

/** Fills `:name` segments of an endpoint path; values are URI-encoded. */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}
