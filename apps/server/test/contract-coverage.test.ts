import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  endpointTags,
  errorCodes,
  errorResponses,
  isStreamEndpoint,
  listEndpoints,
  type Endpoint,
} from '@marquee/contract';
import { ERROR_COMPONENT } from '../src/plugins/openapi.ts';
import { CATCH_ALL_METHODS, crossOriginCatchAlls } from '../src/plugins/cors.ts';
import { startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/*
 * One contract, end to end (decision 075): every endpoint the contract declares is registered from its
 * declaration, every route the server registers is in the contract or a listed exception, and the
 * OpenAPI document shows every operation's errors, security and tag.
 */

interface Exception {
  method: string;
  /** The registered URL, or a prefix when it ends with `/`. */
  url: string;
  reason: string;
  /** Registered only in some configurations (not the one this suite builds). */
  conditional?: true;
}

/** Routes that are not contract endpoints, each with why. */
const exceptions: Exception[] = [
  { method: 'GET', url: '/api/openapi.json', reason: 'the OpenAPI document itself' },
  { method: 'GET', url: '/api/docs', reason: 'the OpenAPI UI (HTML and static files)' },
  { method: 'GET', url: '/api/docs/', reason: 'the OpenAPI UI (HTML and static files)' },
  { method: 'OPTIONS', url: '*', reason: 'CORS preflights (plugins/cors.ts), no body' },
  { method: 'GET', url: '/healthz', reason: 'liveness probe, plain text (decision 060)' },
  { method: 'GET', url: '/readyz', reason: 'readiness probe for load balancers (decision 060)' },
  { method: 'GET', url: '/ping.txt', reason: 'plain-text ping the app family’s clients call' },
  {
    method: 'GET',
    url: '/metrics',
    reason: 'Prometheus text exposition behind METRICS_TOKEN (decision 073)',
  },
  { method: 'GET', url: '/api/images/:size/*', reason: 'poster image bytes served from our origin' },
  {
    method: 'GET',
    url: '/api/sources/sample/:access/*',
    reason: 'media bytes with range requests behind signed URLs (decision 071); documented by hand',
  },
  {
    method: 'GET',
    url: '/api/sources/library/:access/:fileId/:name',
    reason: 'media bytes with range requests behind signed URLs (decision 071); documented by hand',
  },
  {
    method: 'GET',
    url: '/api/sources/library/:access/:fileId/thumbnails/:name',
    reason:
      'seek thumbnail sprites and their WebVTT behind signed URLs (decisions 071, 086); documented by hand',
    conditional: true,
  },
  {
    method: 'GET',
    url: '/api/cast/captions/:id',
    reason:
      'a relayed caption as text/vtt for a Chromecast, any origin (decision 113); documented in castPaths',
  },
  {
    method: 'POST',
    url: '/api/payments/shkeeper/callback',
    reason: 'the payment gateway’s signed callback: raw body, answered 202, not for browsers',
  },
  { method: 'GET', url: '/', reason: 'the web app’s HTML', conditional: true },
  { method: 'GET', url: '/*', reason: 'the web app’s static files', conditional: true },
  ...crossOriginCatchAlls.flatMap((url) =>
    CATCH_ALL_METHODS.map((method) => ({
      method,
      url,
      reason: 'a path of the family’s APIs this server lacks: route_not_found with CORS (plugins/cors.ts)',
    })),
  ),
];

const isException = (method: string, url: string) =>
  exceptions.some(
    (e) => e.method === method && (e.url === url || (e.url.endsWith('/') && url.startsWith(e.url))),
  );

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
  responses: Record<
    string,
    { description: string; content?: Record<string, { schema: Record<string, unknown> }> }
  >;
}
interface Document {
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, { type: string; scheme?: string; in?: string; name?: string }>;
  };
}

describe(`contract coverage (${testDialect})`, () => {
  let t: SyncTestApp;
  let doc: Document;
  const endpoints = listEndpoints();

  beforeAll(async () => {
    // Simulated payments (the default) register simulate-paid too: every endpoint is present.
    t = await startSyncApp({ env: { PAYMENT_GATEWAY: 'simulated' } });
    doc = (await t.server.inject({ method: 'GET', url: '/api/openapi.json' })).json() as Document;
  });
  afterAll(async () => t.close());

  it('declares every endpoint completely: auth, one tag, known error codes, unique method and path', () => {
    expect(endpoints.length).toBeGreaterThan(50);
    const seen = new Set<string>();
    for (const { id, endpoint } of endpoints) {
      expect(['none', 'optional', 'session', 'admin'], id).toContain(endpoint.auth);
      expect(endpoint.tags, id).toHaveLength(1);
      expect(endpointTags, id).toContain(endpoint.tags[0]);
      for (const codes of Object.values(endpoint.errors ?? {}))
        for (const code of codes) expect(errorCodes, id).toContain(code);
      const key = `${endpoint.method} ${endpoint.path}`;
      expect(seen.has(key), `${id}: ${key} declared twice`).toBe(false);
      seen.add(key);
      if (isStreamEndpoint(endpoint)) expect(endpoint.method, id).toBe('GET');
    }
  });

  it('registers every contract endpoint from its declaration, with its method and path', () => {
    for (const { id, endpoint } of endpoints) {
      const route = t.app.routes.find((r) => r.method === endpoint.method && r.url === endpoint.path);
      expect(route, `${id}: ${endpoint.method} ${endpoint.path} is not registered`).toBeDefined();
      expect(route?.contract, `${id} is registered by hand, not from the contract`).toBe(endpoint);
    }
  });

  it('registers no route outside the contract but the listed exceptions', () => {
    const declared = new Set<Endpoint>(endpoints.map((e) => e.endpoint));
    const gets = new Set(t.app.routes.filter((r) => r.method === 'GET').map((r) => r.url));
    const stray: string[] = [];
    for (const route of t.app.routes) {
      // Fastify's automatic HEAD routes follow their GET routes.
      if (route.method === 'HEAD' && (gets.has(route.url) || isException('GET', route.url))) continue;
      if (isException(route.method, route.url)) continue;
      if (!route.contract || !declared.has(route.contract)) stray.push(`${route.method} ${route.url}`);
    }
    expect(stray, 'routes not in the contract: declare them or list them as exceptions').toEqual([]);
  });

  it('lists only exceptions that exist (the list stays true)', () => {
    for (const e of exceptions.filter((x) => !x.conditional)) {
      expect(
        t.app.routes.some(
          (r) =>
            r.method === e.method && (r.url === e.url || (e.url.endsWith('/') && r.url.startsWith(e.url))),
        ),
        `${e.method} ${e.url}`,
      ).toBe(true);
    }
  });

  it('documents every contract endpoint with its tag, security and every error it can answer', () => {
    for (const { id, endpoint } of endpoints) {
      const operation = doc.paths[openApiPath(endpoint.path)]?.[endpoint.method.toLowerCase()];
      expect(operation, `${id}: not in /api/openapi.json`).toBeDefined();
      if (!operation) continue;
      expect(operation.tags, id).toEqual([...endpoint.tags]);
      if (endpoint.auth === 'none') expect(operation.security, id).toBeUndefined();
      else {
        expect(operation.security, id).toEqual(expect.arrayContaining([{ bearer: [] }, { authToken: [] }]));
        // Only `optional` lets a caller without a token in.
        expect(
          operation.security?.some((s) => Object.keys(s).length === 0),
          id,
        ).toBe(endpoint.auth === 'optional');
      }
      const expected = errorResponses(endpoint);
      const documented = Object.keys(operation.responses)
        .filter((status) => Number(status) >= 400)
        .map(Number);
      expect(documented, id).toEqual([...expected.keys()]);
      for (const [status, codes] of expected) {
        const response = operation.responses[status]!;
        const schema = response.content?.['application/json']?.schema as {
          allOf: [{ $ref: string }, { properties: { code: { enum: string[] } } }];
        };
        expect(schema.allOf[0].$ref, `${id} ${status}`).toBe(`#/components/schemas/${ERROR_COMPONENT}`);
        expect(schema.allOf[1].properties.code.enum, `${id} ${status}`).toEqual(codes);
        for (const code of codes) expect(response.description, `${id} ${status}`).toContain(code);
      }
      if (isStreamEndpoint(endpoint)) {
        const stream = operation.responses['200']?.content?.['text/event-stream']?.schema as {
          oneOf: { properties: { event: { enum: string[] } } }[];
        };
        expect(stream, `${id}: the event stream is not documented`).toBeDefined();
        expect(stream.oneOf.map((o) => o.properties.event.enum[0]).sort(), id).toEqual(
          Object.keys(endpoint.events).sort(),
        );
      } else {
        const success = String(endpoint.successStatus ?? 200);
        expect(operation.responses[success]?.content?.['application/json'], id).toBeDefined();
      }
    }
  });

  it('gives every documented operation an error response and a tag', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const),
    );
    expect(operations.length).toBeGreaterThanOrEqual(endpoints.length);
    for (const [name, op] of operations) {
      expect(op.tags?.length, name).toBe(1);
      expect(endpointTags, name).toContain(op.tags![0]);
      expect(
        Object.keys(op.responses).some((s) => Number(s) >= 400),
        `${name} documents no error`,
      ).toBe(true);
    }
  });

  it('has the shared components, the security schemes and a description for every tag', () => {
    const error = doc.components.schemas[ERROR_COMPONENT] as { properties: Record<string, unknown> };
    expect(Object.keys(error.properties)).toEqual(
      expect.arrayContaining(['errorType', 'code', 'message', 'issues']),
    );
    for (const id of ['User', 'Session', 'Bookmark', 'ProgressItem', 'MediaDetails', 'CustomerUser', 'Plan'])
      expect(doc.components.schemas[id], id).toBeDefined();
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.authToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-auth-token',
    });
    expect(doc.tags.map((tag) => tag.name).sort()).toEqual([...endpointTags].sort());
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
    // Every $ref points at a component that exists.
    const refs = [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    for (const ref of new Set(refs)) expect(doc.components.schemas[ref], ref).toBeDefined();
  });
});
