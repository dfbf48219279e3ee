import { parseProxyEntry } from './proxy-entries.ts';

/**
 * The scrape token of the app family (the app family's client behaviour): a JWT the server or proxy hands out
 * (X-Token header or `token` event), kept in memory and sent back as `jwt|<token>` until it expires.
 */
export class ScrapeTokenStore {
  private token: string | null = null;
  constructor(private readonly now: () => number = () => Date.now()) {}

  set(token: string | null | undefined): void {
    if (token) this.token = token.replace(/^jwt\|/, '');
  }

  /** `jwt|<token>` while the token's `exp` is in the future, else null. */
  header(): string | null {
    if (!this.token) return null;
    const exp = jwtExpiry(this.token);
    if (exp !== null && exp * 1000 <= this.now()) {
      this.token = null;
      return null;
    }
    return `jwt|${this.token}`;
  }
}

export function jwtExpiry(token: string): number | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp : null;
  } catch {
    return null;
  }
}

export const scrapeTokens = new ScrapeTokenStore();

/** Picks proxies from a list: a random first one, then round-robin. */
export function makeBalancer(urls: readonly string[], random: () => number = Math.random): () => string {
  if (urls.length === 0) throw new Error('no proxy to balance');
  let index = Math.floor(random() * urls.length) % urls.length;
  return () => {
    const url = urls[index]!;
    index = (index + 1) % urls.length;
    return url;
  };
}

/** The viewer's custom CORS proxies (entries of type proxy), from their proxy list. */
export function customProxyUrls(list: readonly string[] | null): string[] {
  return (list ?? []).flatMap((raw) => {
    const entry = parseProxyEntry(raw);
    return entry?.type === 'proxy' ? [entry.url] : [];
  });
}

/** A provider API (`|type=api|…`) from the viewer's list: scraping then goes to that server. */
export function providerApiUrl(list: readonly string[] | null): string | null {
  for (const raw of list ?? []) {
    const entry = parseProxyEntry(raw);
    if (entry?.type === 'api') return entry.url.replace(/\/+$/, '');
  }
  return null;
}

export interface ProxyRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string | URLSearchParams | FormData;
  signal?: AbortSignal;
}

/**
 * Sends requests through the viewer's simple proxies: `<proxy>?destination=<url>`, with the X-Token
 * header when we hold a token, and a returned X-Token stored for next time.
 */
export function createProxyTransport(
  urls: readonly string[],
  fetchLike: typeof fetch = fetch,
  tokens: ScrapeTokenStore = scrapeTokens,
) {
  const next = makeBalancer(urls);
  return {
    async request(destination: string, init: ProxyRequestInit): Promise<Response> {
      const url = new URL(next());
      url.searchParams.set('destination', destination);
      const headers = { ...init.headers };
      const token = tokens.header();
      if (token) headers['X-Token'] = token;
      const response = await fetchLike(url.toString(), { ...init, headers });
      tokens.set(response.headers.get('x-token'));
      return response;
    },
  };
}

/** Downloads a text through a proxy (captions that need one). */
export async function fetchTextViaProxy(
  urls: readonly string[],
  target: string,
  fetchLike: typeof fetch = fetch,
): Promise<string> {
  const response = await createProxyTransport(urls, fetchLike).request(target, {
    method: 'GET',
    headers: {},
  });
  if (!response.ok) throw new Error(`proxy answered ${response.status}`);
  return response.text();
}
