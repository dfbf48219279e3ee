import {
  accountRoutes,
  castRoutes,
  configRoutes,
  customerRoutes,
  deviceLinkRoutes,
  historyRoutes,
  jobRoutes,
  membershipRoutes,
  metadataRoutes,
  ratingsRoutes,
  sourceRoutes,
  syncRoutes,
} from '@marquee/contract/values';
import type { ApiErrorBody, Route } from '@marquee/contract';
import type {
  accountEndpoints,
  castEndpoints,
  configEndpoints,
  customerEndpoints,
  deviceLinkEndpoints,
  historyEndpoints,
  jobEndpoints,
  membershipEndpoints,
  metadataEndpoints,
  ratingsEndpoints,
  sourcesEndpoints,
  syncEndpoints,
} from '@marquee/contract';
import type { ApiOutput, StreamEventOf, StreamRoute } from '../lib/api/index.ts';

/*
 * A fake server for web tests whose handlers the contract types: each is named by its endpoint and must
 * answer that endpoint's response type (or an error in the contract's error shape). Requests are matched by
 * the route tables, so a test cannot answer a path or method the contract does not declare.
 */

interface Groups {
  account: typeof accountEndpoints;
  sync: typeof syncEndpoints;
  history: typeof historyEndpoints;
  ratings: typeof ratingsEndpoints;
  customer: typeof customerEndpoints;
  membership: typeof membershipEndpoints;
  metadata: typeof metadataEndpoints;
  config: typeof configEndpoints;
  sources: typeof sourcesEndpoints;
  jobs: typeof jobEndpoints;
  deviceLinks: typeof deviceLinkEndpoints;
  cast: typeof castEndpoints;
}
const tables: Record<keyof Groups, Record<string, Route>> = {
  account: accountRoutes,
  sync: syncRoutes,
  history: historyRoutes,
  ratings: ratingsRoutes,
  customer: customerRoutes,
  membership: membershipRoutes,
  metadata: metadataRoutes,
  config: configRoutes,
  sources: sourceRoutes,
  jobs: jobRoutes,
  deviceLinks: deviceLinkRoutes,
  cast: castRoutes,
};

export interface FakeRequest {
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  headers: Headers;
}
/** A refusal in the contract's error shape. */
export const refuse = (status: number, body: Pick<ApiErrorBody, 'code'> & Partial<ApiErrorBody>) => ({
  refusal: true as const,
  status,
  error: { errorType: 'message' as const, message: body.code, ...body },
});
type Refusal = ReturnType<typeof refuse>;
type Answer<T> = T | Refusal | Response;

export type Handlers = {
  [G in keyof Groups]?: {
    [K in keyof Groups[G]]?: (
      request: FakeRequest,
    ) => Answer<ApiOutput<Groups[G][K]>> | Promise<Answer<ApiOutput<Groups[G][K]>>>;
  };
};

function match(route: Route, method: string, pathname: string): Record<string, string> | null {
  if (route.method !== method) return null;
  const want = route.path.split('/');
  const got = pathname.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(':')) params[want[i]!.slice(1)] = decodeURIComponent(got[i]!);
    else if (want[i] !== got[i]) return null;
  }
  return params;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fetch that answers the handled endpoints (404 route_not_found otherwise), and the requests it saw. */
export function contractServer(handlers: Handlers) {
  const requests: { endpoint: string; url: string; init: RequestInit }[] = [];
  const fetchLike = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    for (const [group, routes] of Object.entries(tables) as [keyof Groups, Record<string, Route>][]) {
      for (const [key, route] of Object.entries(routes)) {
        const params = match(route, method, url.pathname);
        const handler = (handlers[group] as Record<string, (r: FakeRequest) => unknown> | undefined)?.[key];
        if (!params || !handler) continue;
        requests.push({ endpoint: `${group}.${key}`, url: String(input), init });
        const answer = await handler({
          params,
          query: Object.fromEntries(url.searchParams),
          body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
          headers: new Headers(init.headers),
        });
        if (answer instanceof Response) return answer;
        if (answer && typeof answer === 'object' && 'refusal' in answer && answer.refusal === true) {
          const refusal = answer as Refusal;
          return json(refusal.error, refusal.status);
        }
        return json(answer);
      }
    }
    return json({ errorType: 'message', code: 'route_not_found', message: 'not found' }, 404);
  };
  return { fetch: fetchLike as typeof fetch, requests };
}

/**
 * An event-stream answer of a stream route, its events typed by the contract's event schemas. The bytes
 * come in awkward 7-byte chunks, so events and even lines cross chunk borders as on a real network.
 */
export function eventStream<R extends StreamRoute>(
  _route: R,
  events: readonly StreamEventOf<R>[],
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  const body = events
    .map(({ event, data }) => `id: 1\nevent: ${String(event)}\ndata: ${JSON.stringify(data)}\n\n`)
    .join(': keep-alive\n\n');
  const bytes = new TextEncoder().encode(body);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
      controller.close();
    },
  });
  return new Response(stream, {
    status: init.status ?? 200,
    headers: { 'content-type': 'text/event-stream', ...init.headers },
  });
}
