import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, errorResponses, listEndpoints, type ErrorStatus } from '@marquee/contract';
import {
  casesFor,
  hostileHeaders,
  notFuzzed,
  send,
  specs,
  startFuzzTarget,
  validCase,
  type Callers,
} from './fuzz-cases.ts';
import type { SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

describe(`fuzzed bad input (${testDialect})`, () => {
  let t: SyncTestApp;
  let user: Callers;
  let snapshot: () => Promise<string>;

  beforeAll(async () => {
    ({ t, user, snapshot } = await startFuzzTarget());
  });
  afterAll(async () => t.close());

  it('has a fuzz spec, or a reason there is none, for every contract endpoint', () => {
    const listed = listEndpoints();
    const specIds = specs.map((spec) => spec.id);
    expect(new Set(specIds).size, 'one spec per endpoint').toBe(specIds.length);
    const missing = listed.filter(({ id }) => !specIds.includes(id) && !notFuzzed[id]).map(({ id }) => id);
    expect(missing, 'endpoints without a fuzz spec: add one (or a reason to notFuzzed)').toEqual([]);
    for (const id of [...specIds, ...Object.keys(notFuzzed)])
      expect(
        listed.some((e) => e.id === id),
        `${id} is not a contract endpoint`,
      ).toBe(true);
    for (const spec of specs) {
      const { endpoint } = listed.find((e) => e.id === spec.id)!;
      expect(spec.method, spec.id).toBe(endpoint.method);
    }
    // An endpoint without any input has nothing to fuzz; one with input needs a spec or a stated reason.
    for (const { id, endpoint } of listed)
      if (!endpoint.params && !endpoint.query && !endpoint.body && !specIds.includes(id))
        expect(notFuzzed[id], id).toBe('no input');
  });

  it.each(specs.map((s) => [s.name, s] as const))(
    '%s: hundreds of bad inputs → 4xx with a code, nothing written',
    async (_name, spec) => {
      const before = await snapshot();
      const cases = casesFor(spec, user);
      // What the contract says this route answers (its own errors, those its shape implies, the shared ones).
      const declared = errorResponses(listEndpoints().find((e) => e.id === spec.id)!.endpoint);
      expect(cases.length).toBeGreaterThanOrEqual(200);
      for (const c of cases) {
        const res = await send(t, user, spec, c);
        const label = `${spec.method} ${c.url.slice(0, 80)} ${c.contentType ?? ''} ${String(c.payload).slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode >= 400 && res.statusCode < 500, label).toBe(true);
        const parsed = JSON.parse(res.body) as { code?: string; errorType?: string };
        expect(errorCodes, label).toContain(parsed.code);
        expect(
          declared.get(res.statusCode as ErrorStatus) ?? [],
          `${label}: not declared by the contract`,
        ).toContain(parsed.code);
        expect(['validation', 'message'], label).toContain(parsed.errorType);
      }
      expect(await snapshot()).toBe(before);
    },
  );

  it.each(specs.map((s) => [s.name, s] as const))(
    '%s: its valid input with hostile header values (X-Client-Time, languages, validators, addresses) → never 5xx',
    async (_name, spec) => {
      const declared = errorResponses(listEndpoints().find((e) => e.id === spec.id)!.endpoint);
      for (const headers of hostileHeaders) {
        const res = await send(t, user, spec, validCase(spec, user), headers);
        const label = `${spec.method} ${spec.url(user).slice(0, 80)} ${JSON.stringify(headers).slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, label).toBeLessThan(500);
        if (res.statusCode >= 400) {
          const parsed = JSON.parse(res.body) as { code?: string };
          expect(declared.get(res.statusCode as ErrorStatus) ?? [], label).toContain(parsed.code);
        }
      }
    },
  );
});
