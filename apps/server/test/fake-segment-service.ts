import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local online segment service for the tests of decision 111, over real HTTP on 127.0.0.1, speaking
 * TheIntroDB's API as p-stream's client uses it: `GET /v3/media?tmdb_id=<id>` for a film,
 * `&season=<n>&episode=<n>` for an episode, optional `&duration_ms=<ms>`, optional
 * `Authorization: Bearer <key>`. A title it knows answers 200
 * `{tmdb_id, type: 'movie'|'tv', intro: [{start_ms, end_ms}], recap, credits, preview}` (an episode's
 * answer also names its season and episode; a type it knows nothing of is absent; `start_ms: null` is
 * the start, `end_ms: null` the end), one it does not 404 `{error}`. What is faithful besides: 400 for
 * a missing or malformed tmdb_id, a season without an episode (or the reverse) or a bad duration_ms;
 * 401 for a key it did not issue (no key at all is allowed: the API is public). It records every
 * request with its Authorization header. For the failure tests it can answer 500, answer garbage (an
 * HTML page, as a proxy in the way does, or JSON of another shape), answer about another title than the
 * one asked for, or hold its answers until released.
 */

export interface FakeServiceEntry {
  start_ms: number | null;
  end_ms: number | null;
}
export type FakeServiceSegments = Partial<
  Record<'intro' | 'recap' | 'credits' | 'preview', FakeServiceEntry[]>
>;

/** How it answers: as the service (`answer`), or as a failing one. */
export type FakeServiceBehaviour = 'answer' | 'error' | 'garbage' | 'wrong-shape' | 'another-title' | 'slow';

export interface FakeServiceRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The Authorization header as sent, or null. */
  authorization: string | null;
}

export interface FakeSegmentService {
  /** The API's base, as SEGMENTS_SERVICE_URL takes it (`http://127.0.0.1:<port>/v3`). */
  url: string;
  requests: FakeServiceRequest[];
  behaviour: FakeServiceBehaviour;
  /** What it knows about a film. */
  movie(tmdbId: number, segments: FakeServiceSegments): void;
  /** What it knows about an episode. */
  episode(tmdbId: number, season: number, episode: number, segments: FakeServiceSegments): void;
  /** Requests held by the `slow` behaviour, not yet answered. */
  held(): number;
  /** Answers every held request as the service would. */
  release(): void;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

const positiveInt = (value: string | undefined) =>
  value !== undefined && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null;
const count = (value: string | undefined) =>
  value !== undefined && /^\d{1,4}$/.test(value) ? Number(value) : null;

/** What the service answers to `/media` (its status and body), by its own rules. */
function mediaAnswer(
  query: Record<string, string>,
  known: Map<string, { body: object }>,
): { status: number; body: unknown } {
  const tmdbId = positiveInt(query.tmdb_id);
  if (tmdbId === null) return { status: 400, body: { error: 'tmdb_id must be a positive integer' } };
  if ((query.season === undefined) !== (query.episode === undefined))
    return { status: 400, body: { error: 'season and episode go together' } };
  if (query.duration_ms !== undefined && positiveInt(query.duration_ms) === null)
    return { status: 400, body: { error: 'duration_ms must be a positive integer' } };
  const season = count(query.season);
  const episode = count(query.episode);
  if (query.season !== undefined && (season === null || episode === null))
    return { status: 400, body: { error: 'season and episode must be numbers' } };
  const key = season === null ? `movie:${tmdbId}` : `tv:${tmdbId}:${season}:${episode}`;
  const found = known.get(key);
  return found ? { status: 200, body: found.body } : { status: 404, body: { error: 'Media not found' } };
}

export async function startFakeSegmentService(o: { keys?: string[] } = {}): Promise<FakeSegmentService> {
  const known = new Map<string, { body: object }>();
  const requests: FakeServiceRequest[] = [];
  const held: (() => void)[] = [];
  const keys = new Set(o.keys ?? []);
  const fake = { behaviour: 'answer' as FakeServiceBehaviour };

  const answer = (req: IncomingMessage, res: ServerResponse, url: URL, query: Record<string, string>) => {
    if (req.method !== 'GET' || url.pathname !== '/v3/media') return json(res, 404, { error: 'Not found' });
    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      const key = /^Bearer (.+)$/.exec(authorization)?.[1];
      if (!key || !keys.has(key)) return json(res, 401, { error: 'Invalid API key' });
    }
    if (fake.behaviour === 'error') return json(res, 500, { error: 'Internal server error' });
    if (fake.behaviour === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html><body><h1>Gateway says hello</h1></body></html>');
    }
    if (fake.behaviour === 'wrong-shape') return json(res, 200, { tmdb_id: 'x', intro: 'soon' });
    if (fake.behaviour === 'another-title')
      return json(res, 200, {
        tmdb_id: Number(query.tmdb_id) + 1,
        type: 'movie',
        intro: [{ start_ms: 0, end_ms: 30_000 }],
      });
    const { status, body } = mediaAnswer(query, known);
    json(res, status, body);
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const query = Object.fromEntries(url.searchParams);
    requests.push({
      method: req.method ?? '',
      path: url.pathname,
      query,
      authorization: req.headers.authorization ?? null,
    });
    if (fake.behaviour === 'slow') held.push(() => answer(req, res, url, { ...query }));
    else answer(req, res, url, query);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v3`,
    requests,
    get behaviour() {
      return fake.behaviour;
    },
    set behaviour(value: FakeServiceBehaviour) {
      fake.behaviour = value;
    },
    movie(tmdbId, segments) {
      known.set(`movie:${tmdbId}`, { body: { tmdb_id: tmdbId, type: 'movie', ...segments } });
    },
    episode(tmdbId, season, episode, segments) {
      known.set(`tv:${tmdbId}:${season}:${episode}`, {
        body: { tmdb_id: tmdbId, type: 'tv', season, episode, ...segments },
      });
    },
    held: () => held.length,
    release() {
      const wasSlow = fake.behaviour === 'slow';
      if (wasSlow) fake.behaviour = 'answer';
      for (const reply of held.splice(0)) reply();
      if (wasSlow) fake.behaviour = 'slow';
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
