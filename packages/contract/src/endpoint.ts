import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Method and path of an endpoint: what a client needs at run time (the schemas only give its types). */
export interface Route {
  method: HttpMethod;
  /** Fastify-style path, `:name` for parameters. */
  path: string;
}

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
>(endpoint: Endpoint<P, Q, B, R>): Endpoint<P, Q, B, R> {
  return endpoint;
}

/** Fills `:name` segments of an endpoint path; values are URI-encoded. */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}
