import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { isStreamEndpoint, type Endpoint, type StreamEndpoint } from '@marquee/contract';
import { securityOf } from './openapi.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract declaration a route was registered from (the OpenAPI document reads it). */
    contract?: Endpoint;
  }
}

declare const jsonOf: unique symbol;
declare const sentBody: unique symbol;

/** JSON text of a `T` built by the handler (in slices, say), not by the route's serialiser. */
export type PreSerialised<T> = Buffer & { readonly [jsonOf]: T };

/**
 * A reply the handler sent itself, with a body of type `T` (pre-serialised) or none (`T` = never: a
 * 304, the not-found handler's answer), so the route's declared response type still checks `T`. At
 * run time it is the reply, whose `then` settles the handler once the answer is out; the type hides
 * that `then`, or an async handler's return would be checked as `unknown`.
 */
export type SentReply<T> = { readonly [sentBody]: T };

/** What a contract route's handler answers: its response, or a reply it sent itself. */
export type RouteAnswer<T> = T | SentReply<T>;

/** Sends JSON the handler built (Fastify's serialiser would build it in one blocking go). */
export const sendJson = <T>(reply: FastifyReply, json: PreSerialised<T>) =>
  reply.type('application/json; charset=utf-8').send(json) as unknown as SentReply<T>;

/** Sends the status and headers set on `reply` without a body (a 304). */
export const sendEmpty = (reply: FastifyReply) => reply.send() as unknown as SentReply<never>;

/** Answers as if no route matched: the not-found handler's answer (the web app to a browser navigation). */
export function sendNotFound(reply: FastifyReply): SentReply<never> {
  reply.callNotFound();
  return reply as unknown as SentReply<never>;
}

type Input<E extends Endpoint> =
  E extends Endpoint<infer P, infer Q, infer B>
    ? { params: z.infer<P>; query: z.infer<Q>; body: z.infer<B> }
    : never;

/** What every contract route's schema carries besides its input and output: summary, tag, security. */
function documentation(endpoint: Endpoint): FastifySchema {
  const security = securityOf(endpoint.auth);
  return {
    summary: endpoint.summary,
    tags: [...endpoint.tags],
    ...(security ? { security } : {}),
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
    ...(endpoint.body ? { body: endpoint.body } : {}),
  };
}

/**
 * Registers a route from its contract declaration: the same zod schemas validate the input and
 * serialise (and strip) the output, and feed the OpenAPI document (plugins/openapi.ts adds the error
 * responses from the declaration).
 */
export function contractRoute<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (
    input: Input<E>,
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<RouteAnswer<z.infer<E['response']>>>,
  /** `bodyLimit`: bytes this route's body may have, where the server's 1 MiB is not the route's bound. */
  options: { bodyLimit?: number } = {},
): void {
  if (isStreamEndpoint(endpoint))
    throw new Error(`${endpoint.method} ${endpoint.path} is a stream: register it with contractStream`);
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    config: { contract: endpoint },
    schema: { ...documentation(endpoint), response: { [endpoint.successStatus ?? 200]: endpoint.response } },
    handler: (request, reply) => {
      if (endpoint.successStatus) reply.status(endpoint.successStatus);
      return handler(
        { params: request.params, query: request.query, body: request.body } as Input<E>,
        request,
        reply,
      );
    },
  });
}

/**
 * Registers a server-sent events route from its contract declaration: the query is validated by the
 * contract, and the OpenAPI document shows `text/event-stream` with the union of the events. The handler
 * writes the stream itself (modules/sources/event-stream.ts, with `endpoint.events`); the route's
 * response schema is documentation only, since the stream bypasses serialisation.
 */
export function contractStream<E extends StreamEndpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (
    input: { query: z.infer<NonNullable<E['query']>>; params: z.infer<NonNullable<E['params']>> },
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<void>,
): void {
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    config: { contract: endpoint },
    schema: {
      ...documentation(endpoint),
      description:
        'Answers `text/event-stream`: each event is `event: <name>` and `data: <JSON>`; the schema is the union of the events as `{event, data}`. Errors found before the stream starts are JSON error bodies.',
      response: {
        200: {
          description: 'The event stream',
          content: { 'text/event-stream': { schema: endpoint.response } },
        },
      },
    },
    handler: (request, reply) =>
      handler(
        { query: request.query, params: request.params } as {
          query: z.infer<NonNullable<E['query']>>;
          params: z.infer<NonNullable<E['params']>>;
        },
        request,
        reply,
      ),
  });
}
