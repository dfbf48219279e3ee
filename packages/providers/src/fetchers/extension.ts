import { makeFullUrl } from './common.ts';
import type { Fetcher, FetchBody } from './types.ts';

export type ExtensionBodyType = 'string' | 'FormData' | 'URLSearchParams' | 'object';

/** The `makeRequest` message body of the app family's browser extension. */
export interface ExtensionRequest {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: unknown;
  bodyType?: ExtensionBodyType;
  readHeaders?: string[];
}

export interface ExtensionResponse {
  statusCode: number;
  headers: Record<string, string>;
  finalUrl: string;
  body: unknown;
}

export type ExtensionResult =
  { success: true; response: ExtensionResponse } | { success: false; error: string };

/** The extension's messaging, implemented by the web app (a relay over window.postMessage). */
export interface ExtensionTransport {
  makeRequest(request: ExtensionRequest): Promise<ExtensionResult>;
}

export class ExtensionRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExtensionRequestError';
  }
}

/** FormData and URLSearchParams travel as [key, value] pairs; objects as they are (JSON). */
export function encodeExtensionBody(body: FetchBody | undefined): {
  body?: unknown;
  bodyType?: ExtensionBodyType;
} {
  if (body === undefined) return {};
  if (typeof body === 'string') return { body, bodyType: 'string' };
  if (body instanceof URLSearchParams) return { body: [...body.entries()], bodyType: 'URLSearchParams' };
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    const pairs: [string, string][] = [];
    body.forEach((value, key) => pairs.push([key, typeof value === 'string' ? value : value.name]));
    return { body: pairs, bodyType: 'FormData' };
  }
  return { body, bodyType: 'object' };
}

/** Requests go through the browser extension, which has no CORS limits. */
export function makeExtensionFetcher(transport: ExtensionTransport): Fetcher {
  return async (url, ops) => {
    const target = makeFullUrl(url, ops);
    const result = await transport.makeRequest({
      url: target,
      method: ops.method,
      headers: ops.headers,
      readHeaders: ops.readHeaders,
      ...encodeExtensionBody(ops.body),
    });
    if (!result.success) throw new ExtensionRequestError(result.error);
    return {
      statusCode: result.response.statusCode,
      headers: new Headers(result.response.headers),
      finalUrl: result.response.finalUrl,
      body: result.response.body,
    };
  };
}
