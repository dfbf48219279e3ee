import { makeFullUrl, readBody, serializeBody } from './common.ts';
import type { Fetcher, FetchLike } from './types.ts';

/** Requests go straight out through `fetch` (the server, or a browser for CORS-friendly hosts). */
export function makeStandardFetcher(fetchLike: FetchLike): Fetcher {
  return async (url, ops) => {
    const target = makeFullUrl(url, ops);
    const { body, headers } = serializeBody(ops.body);
    const response = await fetchLike(target, {
      method: ops.method,
      headers: { ...headers, ...ops.headers },
      ...(body !== undefined ? { body } : {}),
      ...(ops.signal ? { signal: ops.signal } : {}),
    });
    return {
      statusCode: response.status,
      headers: response.headers,
      finalUrl: response.url || target,
      body: ops.method === 'HEAD' ? '' : await readBody(response),
    };
  };
}
