import type {
  DefaultedFetcherOptions,
  FetchBody,
  Fetcher,
  FetcherOptions,
  FetcherResponse,
  UseableFetcher,
} from './types.ts';

export class FetchError extends Error {
  constructor(
    readonly statusCode: number,
    readonly url: string,
  ) {
    super(`request to ${url} answered ${statusCode}`);
    this.name = 'FetchError';
  }
}

/** Joins baseUrl and url with exactly one slash and appends the query. */
export function makeFullUrl(
  url: string,
  ops: { baseUrl?: string; query?: Record<string, string> } = {},
): string {
  let full = url;
  if (ops.baseUrl) {
    const base = ops.baseUrl.endsWith('/') ? ops.baseUrl.slice(0, -1) : ops.baseUrl;
    const rest = url.startsWith('/') ? url.slice(1) : url;
    full = rest ? `${base}/${rest}` : base;
  }
  if (!/^https?:\/\//i.test(full)) throw new Error(`invalid URL, it must be absolute: ${full}`);
  const parsed = new URL(full);
  for (const [key, value] of Object.entries(ops.query ?? {})) parsed.searchParams.set(key, value);
  return parsed.toString();
}

/** Turns a provider body into something `fetch` sends, with the content type it implies. */
export function serializeBody(body: FetchBody | undefined): {
  body?: string | URLSearchParams | FormData;
  headers: Record<string, string>;
} {
  if (body === undefined) return { headers: {} };
  if (typeof body === 'string') return { body, headers: {} };
  if (body instanceof URLSearchParams)
    return { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  if (typeof FormData !== 'undefined' && body instanceof FormData) return { body, headers: {} };
  return { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
}

/** Reads a response body as JSON when it says it is JSON, else as text. */
export async function readBody(response: Response): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  if (response.status === 204 || response.status === 304) return '';
  if (/\bjson\b/i.test(type)) return response.json();
  return response.text();
}

function withDefaults(ops: FetcherOptions = {}): DefaultedFetcherOptions {
  return {
    ...(ops.baseUrl !== undefined ? { baseUrl: ops.baseUrl } : {}),
    headers: ops.headers ?? {},
    query: ops.query ?? {},
    method: ops.method ?? 'GET',
    readHeaders: ops.readHeaders ?? [],
    ...(ops.body !== undefined ? { body: ops.body } : {}),
    ...(ops.signal ? { signal: ops.signal } : {}),
  };
}

/** Wraps a fetcher into what providers call; `signal` is the run's, unless the provider passes its own. */
export function makeUseableFetcher(fetcher: Fetcher, signal?: AbortSignal): UseableFetcher {
  const full = async <T>(url: string, ops?: FetcherOptions) => {
    const defaulted = withDefaults(ops);
    if (!defaulted.signal && signal) defaulted.signal = signal;
    return (await fetcher(url, defaulted)) as FetcherResponse<T>;
  };
  const useable = async <T>(url: string, ops?: FetcherOptions) => {
    const response = await full<T>(url, ops);
    if (response.statusCode >= 400) throw new FetchError(response.statusCode, response.finalUrl);
    return response.body;
  };
  return Object.assign(useable, { full }) as UseableFetcher;
}
