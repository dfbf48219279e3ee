import { makeFullUrl, readBody, serializeBody } from './common.ts';
import type { Fetcher } from './types.ts';

export interface ProxyRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string | URLSearchParams | FormData;
  signal?: AbortSignal;
}

/**
 * A viewer's custom proxy ("simple proxy" protocol). The web app implements it: it picks a proxy from
 * the viewer's list (random start, then round-robin) and adds and refreshes the `X-Token` header.
 */
export interface ProxyTransport {
  /** Sends one request for `destination` through a proxy and returns the proxy's raw answer. */
  request(destination: string, init: ProxyRequestInit): Promise<Response>;
}

/** Request headers a browser may not set: the proxy reads them under these names and restores them. */
const HEADER_ALIASES: Record<string, string> = {
  cookie: 'X-Cookie',
  referer: 'X-Referer',
  origin: 'X-Origin',
  'user-agent': 'X-User-Agent',
  'x-real-ip': 'X-X-Real-Ip',
};

export function aliasProxyHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    out[HEADER_ALIASES[name.toLowerCase()] ?? name] = value;
  return out;
}

/** Requests go through a custom proxy: forbidden headers aliased, final URL and cookies read back. */
export function makeProxyFetcher(transport: ProxyTransport): Fetcher {
  return async (url, ops) => {
    const target = makeFullUrl(url, ops);
    const { body, headers } = serializeBody(ops.body);
    const response = await transport.request(target, {
      method: ops.method,
      headers: aliasProxyHeaders({ ...headers, ...ops.headers }),
      ...(body !== undefined ? { body } : {}),
      ...(ops.signal ? { signal: ops.signal } : {}),
    });
    const responseHeaders = new Headers(response.headers);
    const setCookie = response.headers.get('x-set-cookie');
    if (setCookie) responseHeaders.set('set-cookie', setCookie);
    return {
      statusCode: response.status,
      headers: responseHeaders,
      finalUrl: response.headers.get('x-final-destination') ?? target,
      body: ops.method === 'HEAD' ? '' : await readBody(response),
    };
  };
}
