import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminPayment,
  ApiErrorBody,
  APP_VERSION,
  Bookmark,
  CaptionSchema,
  CustomerProfile,
  CustomerUser,
  endpointTagDescriptions,
  endpointTags,
  errorResponses,
  mergeErrors,
  sharedErrors,
  Genre,
  MediaDetails,
  MediaSummary,
  MembershipResponse,
  Meta,
  Payment,
  Plan,
  ProgressItem,
  ProgressListItem,
  Promo,
  ProviderMetaSchema,
  RuntimeConfig,
  SeasonDetails,
  Session,
  StreamSchema,
  User,
  UserSettings,
  type EndpointAuth,
  type EndpointErrors,
  type ErrorCode,
  type ErrorStatus,
} from '@marquee/contract';
import { inertSchemaController } from './schema-compilers.ts';

/*
 * The OpenAPI document (/api/openapi.json, decision 075): built from the routes registered from the
 * contract (plugins/contract-route.ts). The route schemas give inputs and the 200 answer; this file adds
 * what the declarations say besides: error answers (the shared error body, referenced, with each status's
 * codes), security from `auth`, tags with descriptions, and shared schemas as components.
 */

/** The error body's component name. */
export const ERROR_COMPONENT = 'ApiError';

/** Schemas many operations share: documented once under components.schemas and referenced. */
const components = {
  [ERROR_COMPONENT]: ApiErrorBody,
  Meta,
  User,
  Session,
  Bookmark,
  ProgressItem,
  ProgressListItem,
  UserSettings,
  CustomerUser,
  CustomerProfile,
  Plan,
  Payment,
  AdminPayment,
  Membership: MembershipResponse,
  Promo,
  MediaSummary,
  MediaDetails,
  SeasonDetails,
  Genre,
  RuntimeConfig,
  Stream: StreamSchema,
  Caption: CaptionSchema,
  ProviderMeta: ProviderMetaSchema,
} satisfies Record<string, z.ZodType>;

function componentRegistry() {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(components)) registry.add(schema, { id });
  return registry;
}

/** Security scheme names of the document (components.securitySchemes). */
export const securitySchemes = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'A session token: `Authorization: Bearer <token>`.',
  },
  authToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-auth-token',
    description: 'The same session token, as the customer backend’s client sends it.',
  },
  accessToken: {
    type: 'apiKey',
    in: 'query',
    name: 'access_token',
    description: 'The session token as a query parameter, for EventSource (the scrape streams only).',
  },
} as const;

type SecurityRequirement = Partial<Record<keyof typeof securitySchemes, string[]>>;

/** The operation's `security` for an endpoint's `auth` (none: no security at all). */
export function securityOf(auth: EndpointAuth): SecurityRequirement[] | undefined {
  switch (auth) {
    case 'none':
      return undefined;
    case 'optional':
      // `{}` first: calling without any token is allowed.
      return [{}, { bearer: [] }, { authToken: [] }, { accessToken: [] }];
    case 'session':
    case 'admin':
      return [{ bearer: [] }, { authToken: [] }];
  }
}

const statusText: Record<number, string> = {
  400: 'Bad request',
  401: 'Not signed in, or a check failed',
  402: 'Payment required',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  416: 'Range not satisfiable',
  429: 'Rate limited (Retry-After says when to try again)',
  451: 'Unavailable for legal reasons',
  500: 'Internal error',
  502: 'Bad gateway',
  503: 'Unavailable (Retry-After may say when to try again)',
};

/** The error answers of an operation: the shared error body, its `code` narrowed to this status's codes. */
export function errorResponseObjects(errors: Map<ErrorStatus, ErrorCode[]>) {
  return Object.fromEntries(
    [...errors].map(([status, codes]) => [
      status,
      {
        description: `${statusText[status] ?? 'Error'}: ${codes.map((c) => `\`${c}\``).join(', ')}`,
        content: {
          'application/json': {
            schema: {
              allOf: [
                { $ref: `#/components/schemas/${ERROR_COMPONENT}` },
                { type: 'object', properties: { code: { type: 'string', enum: codes } } },
              ],
            },
          },
        },
      },
    ]),
  );
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Error answers of a route that is not registered from the contract (media files), for the document. */
    documentedErrors?: EndpointErrors;
  }
}

/**
 * Every registered schema gets an input and an output component (`XInput`, `X`); the input variants of
 * schemas only ever answered are dropped, so components.schemas lists what operations reference.
 */
function withoutUnusedComponents<T extends object>(openapi: T): T {
  const document = openapi as { components?: { schemas?: Record<string, unknown> } };
  const schemas = { ...document.components?.schemas };
  for (;;) {
    const text = JSON.stringify({ ...document, components: { ...document.components, schemas } });
    const unused = Object.keys(schemas).filter(
      (id) => id.endsWith('Input') && !text.includes(`"#/components/schemas/${id}"`),
    );
    if (unused.length === 0) break;
    for (const id of unused) delete schemas[id];
  }
  return { ...document, components: { ...document.components, schemas } } as T;
}

/** What the document needs of a route, as registered on the server. */
type RecordedRoute = Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config' | 'constraints'>;

/**
 * The document's own Fastify instance: @fastify/swagger and its UI registered first, then every route the
 * server registered after registerOpenApi (same method, URL, schema and config; handlers that are never
 * called). Fastify adds the HEAD of each GET again itself, as on the server.
 */
async function documentInstance(recorded: readonly RecordedRoute[]): Promise<FastifyInstance> {
  const [{ default: fastifySwagger }, { default: fastifySwaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  const registry = componentRegistry();
  const toJsonSchema = createJsonSchemaTransform({ schemaRegistry: registry });
  const withComponents = createJsonSchemaTransformObject({ schemaRegistry: registry });
  const doc = Fastify({ logger: false, schemaController: inertSchemaController });
  await doc.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Marquee API',
        version: APP_VERSION,
        description:
          'Metadata, accounts, sync, memberships and the scrape API of Marquee. Every error answer is `{errorType, code, message}` (components.schemas.ApiError); clients switch on `code`.',
      },
      tags: endpointTags.map((name) => ({ name, description: endpointTagDescriptions[name] })),
      components: { securitySchemes },
    },
    transform: (document) => {
      const result = toJsonSchema(document);
      const { contract, documentedErrors } = document.route.config ?? {};
      if (result.schema.hide || (!contract && !documentedErrors)) return result;
      const errors = contract ? errorResponses(contract) : mergeErrors(documentedErrors!, sharedErrors);
      const response = { ...(result.schema.response as Record<string, unknown>) };
      Object.assign(response, errorResponseObjects(errors));
      return { ...result, schema: { ...result.schema, response } };
    },
    transformObject: (document) => withoutUnusedComponents(withComponents(document)),
  });
  await doc.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  const unused = () => {
    throw new Error('the OpenAPI instance serves no route of the server');
  };
  for (const route of recorded.filter((r) => r.method !== 'HEAD')) doc.route({ ...route, handler: unused });
  // A HEAD the server declared itself (Fastify added the others again above).
  for (const route of recorded.filter((r) => r.method === 'HEAD'))
    if (!doc.hasRoute({ method: 'HEAD', url: route.url, constraints: route.constraints }))
      doc.route({ ...route, handler: unused });
  await doc.ready();
  return doc;
}

/**
 * The OpenAPI document at /api/openapi.json and its UI at /api/docs. Routes are recorded as the server
 * registers them; @fastify/swagger, its UI and YAML are loaded, and the document built, only when one of
 * the two is first asked for — an idle server never holds them (decision 090).
 */
export function registerOpenApi(server: FastifyInstance): void {
  const recorded: RecordedRoute[] = [];
  let instance: Promise<FastifyInstance> | undefined;
  const built = () =>
    (instance ??= documentInstance(recorded).catch((error: unknown) => {
      instance = undefined;
      throw error;
    }));
  server.get('/api/openapi.json', { schema: { hide: true } }, async () => (await built()).swagger());
  const ui = async (request: FastifyRequest, reply: FastifyReply) => {
    const answer = await (await built()).inject({ method: 'GET', url: request.url });
    for (const name of ['content-type', 'location', 'cache-control', 'last-modified'])
      if (answer.headers[name] !== undefined) void reply.header(name, answer.headers[name]);
    return reply.code(answer.statusCode).send(answer.rawPayload);
  };
  server.get('/api/docs', { schema: { hide: true } }, ui);
  server.get('/api/docs/*', { schema: { hide: true } }, ui);
  // Every route registered from here on (these three are not documented).
  server.addHook('onRoute', (route) => {
    const { method, url, schema, config, constraints } = route;
    recorded.push({ method, url, schema, config, constraints });
  });
}
