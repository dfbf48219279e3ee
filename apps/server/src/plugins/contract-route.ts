import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Endpoint } from '@marquee/contract';

type Input<E extends Endpoint> =
  E extends Endpoint<infer P, infer Q, infer B>
    ? { params: z.infer<P>; query: z.infer<Q>; body: z.infer<B> }
    : never;

/**
 * Registers a route from its contract declaration: the same zod schemas validate the input and
 * serialise (and strip) the output, and feed the OpenAPI document.
 */
export function contractRoute<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (input: Input<E>, request: FastifyRequest, reply: FastifyReply) => Promise<z.infer<E['response']>>,
): void {
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      summary: endpoint.summary,
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      response: { 200: endpoint.response },
    },
    handler: (request, reply) =>
      handler(
        { params: request.params, query: request.query, body: request.body } as Input<E>,
        request,
        reply,
      ),
  });
}
