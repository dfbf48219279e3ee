export type FetchMethod = 'GET' | 'POST' | 'HEAD';

export type FetchBody = Record<string, unknown> | string | URLSearchParams | FormData;

/** What a provider passes when it requests a page or an API. */
export interface FetcherOptions {
  baseUrl?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  method?: FetchMethod;
  /** Response headers the provider wants to read (the extension returns only these). */
  readHeaders?: string[];
  body?: FetchBody;
  signal?: AbortSignal;
}

/** The options with every default filled in: what a fetcher implementation receives. */
export interface DefaultedFetcherOptions {
  baseUrl?: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  method: FetchMethod;
  readHeaders: string[];
  body?: FetchBody;
  signal?: AbortSignal;
}

export interface FetcherResponse<T = unknown> {
  statusCode: number;
  headers: Headers;
  /** URL after redirects. */
  finalUrl: string;
  /** Parsed JSON when the answer says it is JSON, otherwise text. */
  body: T;
}

/** How requests leave the runner: directly, through a custom proxy, or through the extension. */
export type Fetcher = (url: string, ops: DefaultedFetcherOptions) => Promise<FetcherResponse>;

/** What providers call: the body (throws on HTTP errors), or `.full` for status, headers and final URL. */
export interface UseableFetcher {
  <T = unknown>(url: string, ops?: FetcherOptions): Promise<T>;
  full<T = unknown>(url: string, ops?: FetcherOptions): Promise<FetcherResponse<T>>;
}

/** The subset of the Fetch API a fetcher needs (Node's and the browser's `fetch` both fit). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
