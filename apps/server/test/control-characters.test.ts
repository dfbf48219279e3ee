import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as contract from '@marquee/contract';
import { buildPath, errorCodes, type Endpoint } from '@marquee/contract';
import { controlCharacterPaths } from '../src/plugins/input-hygiene.ts';
import { signUp, TEST_PASSWORD_COST, type Customer } from './customer-harness.ts';
import { movieMeta, startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/*
 * Decision 073: on PostgreSQL a NUL byte in any string reached a query and answered 500 (15 routes,
 * progress import included). Every string field of every route's parameters, query and body, taken
 * from the contract and from Fastify's own route list, now gets a 4xx in the app's shape, on both
 * databases; nothing is written. Decision 073.
 */

const API_KEY = 'control-characters-key';
const NUL = 'a\u0000b';

type Path = (string | number)[];
type Part = 'params' | 'querystring' | 'body';

/** A value every field of `schema` is present in (the first choice of unions with strings in them). */
function sample(schema: z.ZodType): unknown {
  const def = (schema as unknown as { def: Record<string, any> }).def;
  switch (def.type) {
    case 'string':
    case 'transform':
    case 'any':
    case 'unknown':
      return 'x';
    case 'number':
    case 'int':
    case 'bigint':
      return 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'literal':
      return def.values[0];
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'array':
      return [sample(def.element)];
    case 'tuple':
      return (def.items as z.ZodType[]).map(sample);
    case 'object':
      return Object.fromEntries(
        Object.entries(def.shape as Record<string, z.ZodType>).map(([key, value]) => [key, sample(value)]),
      );
    case 'record':
      return { key: sample(def.valueType) };
    case 'union': {
      const options = (def.options as z.ZodType[]).map(sample);
      return options.find((o) => stringLeaves(o).length > 0) ?? options[0];
    }
    case 'intersection':
      return { ...(sample(def.left) as object), ...(sample(def.right) as object) };
    case 'pipe':
      return sample(def.in);
    case 'lazy':
      return sample(def.getter());
    default:
      // optional, nullable, default, prefault, readonly, catch, nonoptional…
      return def.innerType ? sample(def.innerType) : 'x';
  }
}

/** Paths of the strings in a sampled value. */
function stringLeaves(value: unknown, path: Path = []): Path[] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringLeaves(v, [...path, i]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, [...path, k]));
  return [];
}

function setAt(value: unknown, path: Path, leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = leaf;
  return copy;
}

const endpoints: [string, Endpoint][] = Object.entries(contract)
  .filter(([name, value]) => name.endsWith('Endpoints') && value && typeof value === 'object')
  .flatMap(([group, value]) =>
    Object.entries(value as Record<string, Endpoint>).map(
      ([name, e]) => [`${group}.${name}`, e] as [string, Endpoint],
    ),
  );

/** Fastify's route list (printRoutes' tree) as [method, path] pairs. */
function fastifyRoutes(tree: string): [string, string][] {
  const routes: [string, string][] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?) \(([A-Z, ]+)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + match[2]!;
    stack[depth] = path;
    for (const method of match[3]!.split(', ')) routes.push([method, path]);
  }
  return routes;
}

describe(`control characters in input (${testDialect})`, () => {
  let t: SyncTestApp;
  let admin: Customer;

  beforeAll(async () => {
    t = await startSyncApp({
      env: {
        VARIANT: 'subscription',
        AUTH_METHODS: 'email,passphrase',
        PAYMENT_GATEWAY: 'simulated',
        ALLOW_SIMULATED_PAYMENTS: 'true',
        SHKEEPER_API_KEY: API_KEY,
        ADMIN_EMAILS: 'nul-admin@example.org',
      },
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
    });
    admin = await signUp(t.server, { email: 'nul-admin@example.org' });
  });
  afterAll(async () => t.close());

  const send = (method: string, url: string, body?: unknown) =>
    t.server.inject({
      method: method as 'GET',
      url,
      headers: { ...admin.headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });

  const expectRefused = (res: { statusCode: number; body: string }, where: string, issue?: Path) => {
    expect(res.statusCode, `${where}: ${res.body}`).toBe(400);
    const body = JSON.parse(res.body) as contract.ApiErrorBody;
    expect(contract.ApiErrorBody.safeParse(body).success, where).toBe(true);
    expect(body).toMatchObject({ errorType: 'validation', code: 'validation_failed' });
    if (issue)
      expect(
        body.issues?.map((i) => i.path),
        where,
      ).toContainEqual(issue.map(String));
  };

  it('finds every contract route with input (sanity of the enumeration)', () => {
    expect(endpoints.length).toBeGreaterThan(50);
    const withStrings = endpoints.filter(
      ([, e]) => e.params || e.query || (e.body && stringLeaves(sample(e.body)).length > 0),
    );
    expect(withStrings.length).toBeGreaterThan(35);
  });

  it('refuses a NUL in every string field of every contract route’s parameters, query and body (400)', async () => {
    let sent = 0;
    for (const [name, e] of endpoints) {
      const params = (e.params ? sample(e.params) : {}) as Record<string, string>;
      const baseParams = { ...params, ...('uid' in params ? { uid: admin.user.id } : {}) };
      const query = (e.query ? sample(e.query) : {}) as Record<string, unknown>;
      const body = e.body ? sample(e.body) : undefined;
      const url = (p: Record<string, string>, q: Record<string, unknown>) => {
        const search = new URLSearchParams(
          Object.entries(q).flatMap(([k, v]) =>
            (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, String(x)]),
          ),
        ).toString();
        return `${buildPath(e.path, p)}${search ? `?${search}` : ''}`;
      };
      const cases: { part: Part; path: Path; url: string; body: unknown }[] = [
        ...Object.keys(baseParams).map((key) => ({
          part: 'params' as const,
          path: [key],
          url: url({ ...baseParams, [key]: NUL }, query),
          body,
        })),
        ...stringLeaves(query).map((path) => ({
          part: 'querystring' as const,
          path: path.slice(0, 1),
          url: url(baseParams, { ...query, [path[0]!]: NUL }),
          body,
        })),
        ...(body === undefined ? [] : stringLeaves(body)).map((path) => ({
          part: 'body' as const,
          path,
          url: url(baseParams, query),
          body: setAt(body, path, NUL),
        })),
      ];
      for (const c of cases) {
        const res = await send(e.method, c.url, c.body);
        expectRefused(res, `${name} ${e.method} ${c.url} ${c.part}.${c.path.join('.')}`, [c.part, ...c.path]);
        sent += 1;
      }
    }
    expect(sent).toBeGreaterThan(150);
  });

  it('answers a NUL in the path, query or body of every route Fastify has with a 4xx in the app’s shape', async () => {
    const routes = fastifyRoutes(t.server.printRoutes({ commonPrefix: false }));
    expect(routes.length).toBeGreaterThan(60);
    for (const [method, path] of routes) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const filled = (nul: string | undefined) =>
        path
          .replace(/:([A-Za-z0-9_]+)/g, (_, key: string) =>
            key === nul ? '%00x' : key === 'uid' ? admin.user.id : 'x1',
          )
          .replace(/\*$/, nul === '*' ? 'a%00b' : 'x');
      const names = [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
      if (path.endsWith('*')) names.push('*');
      const urls = [...names.map((n) => filled(n)), `${filled(undefined)}?q=${encodeURIComponent(NUL)}`];
      for (const url of urls) {
        const res = await send(method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(400);
        expect(JSON.parse(res.body).code, `${method} ${url}`).toBe('validation_failed');
      }
      if (method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE') {
        const res = await send(method, filled(undefined), { nested: [{ [`k${NUL}`]: 1 }], value: NUL });
        expect(res.statusCode, `${method} ${path} body: ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${method} ${path} body: ${res.body}`).toBeLessThan(500);
        expect(errorCodes, `${method} ${path}`).toContain(JSON.parse(res.body).code);
      }
    }
  });

  it('writes nothing: progress import, settings and account names with NUL or other C0 characters', async () => {
    const uid = admin.user.id;
    const item = (title: string) => ({
      tmdbId: '603',
      meta: movieMeta(title),
      duration: 100,
      watched: 10,
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    // \b and \f are written as short escapes in JSON text (the parser's quick scan must see them too).
    for (const bad of [
      'Matrix\u0000',
      'Ma\u0001trix',
      'Matrix\u001f',
      'Ma\u000btrix',
      'Ma\u001btrix',
      'Ma\btrix',
      'Ma\ftrix',
    ]) {
      const imported = await send('PUT', `/users/${uid}/progress/import`, [item('ok'), item(bad)]);
      expectRefused(imported, JSON.stringify(bad), ['body', 1, 'meta', 'title']);
      expectRefused(await send('POST', `/customers/${uid}/update`, { fullname: bad }), bad, [
        'body',
        'fullname',
      ]);
      expectRefused(await send('PUT', `/users/${uid}/settings`, { applicationLanguage: bad }), bad, [
        'body',
        'applicationLanguage',
      ]);
    }
    expect(
      await t.db.db.selectFrom('progress_items').select('id').where('user_id', '=', uid).execute(),
    ).toEqual([]);
    const me = await send('GET', '/customers');
    expect(JSON.parse(me.body).user.fullname).toBe('Ada Lovelace');
    // Keys are checked too (records keep them).
    expectRefused(
      await send('PUT', `/users/${uid}/progress/import`, [{ ...item('ok'), [`x${NUL}`]: 1 }]),
      'key',
      ['body', 0, `x${NUL}`],
    );
  });

  it('keeps tab, line feed and carriage return, and every other character', async () => {
    const uid = admin.user.id;
    const title = 'Line one\nLine two\r\n\tindented — 日本語 😀 \u007f';
    const res = await send('PUT', `/users/${uid}/progress/import`, [
      {
        tmdbId: '604',
        meta: movieMeta(title),
        duration: 100,
        watched: 10,
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const row = await t.db.db
      .selectFrom('progress_items')
      .select('meta')
      .where('user_id', '=', uid)
      .where('tmdb_id', '=', '604')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.meta).title).toBe(title);
  });

  it('a signed gateway callback naming a payment with a NUL is a 404, not a database error', async () => {
    const body = JSON.stringify({ external_id: NUL, paid: true, balance_fiat: '2.99', fiat: 'USD' });
    const timestamp = String(Math.floor(t.clock.ms / 1000));
    const res = await t.server.inject({
      method: 'POST',
      url: '/api/payments/shkeeper/callback',
      headers: {
        'content-type': 'application/json',
        'x-shkeeper-timestamp': timestamp,
        'x-shkeeper-signature': createHmac('sha256', API_KEY).update(`${timestamp}.${body}`).digest('hex'),
      },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(404);
    expect(JSON.parse(res.body).code).toBe('payment_not_found');
  });

  it('walks deep input without recursion and reports the first paths found', () => {
    let deep: unknown = NUL;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(controlCharacterPaths(deep)).toHaveLength(1);
    expect(controlCharacterPaths({ a: NUL, b: [NUL, 'ok', { c: NUL }] })).toEqual([
      ['a'],
      ['b', 0],
      ['b', 2, 'c'],
    ]);
    expect(controlCharacterPaths(Array(50).fill(NUL))).toHaveLength(10);
  });
});
