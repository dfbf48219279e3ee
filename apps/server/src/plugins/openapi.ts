import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
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

/** Registers @fastify/swagger (the document at /api/openapi.json) and the UI at /api/docs. */
export async function registerOpenApi(server: FastifyInstance): Promise<void> {
  const registry = componentRegistry();
  const toJsonSchema = createJsonSchemaTransform({ schemaRegistry: registry });
  const withComponents = createJsonSchemaTransformObject({ schemaRegistry: registry });
  await server.register(fastifySwagger, {
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
  server.get('/api/openapi.json', { schema: { hide: true } }, async () => server.swagger());
  await server.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
}
