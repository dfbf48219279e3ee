import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobsStatusResponse } from '@marquee/contract';
import { signUp, TEST_PASSWORD_COST } from './customer-harness.ts';
import { startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect, testRedisUrl } from './test-database.ts';

describe(`GET /api/admin/jobs (${testDialect}, ${testRedisUrl ? 'Redis' : 'in process'})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({
      env: { AUTH_METHODS: 'email', ADMIN_EMAILS: 'ops@example.org' },
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
    });
  });
  afterAll(async () => t.close());

  it('answers admins with the queue’s kinds and failures, and refuses everyone else', async () => {
    const url = '/api/admin/jobs';
    expect((await t.server.inject({ method: 'GET', url })).statusCode).toBe(401);
    const viewer = await signUp(t.server);
    const refused = await t.server.inject({ method: 'GET', url, headers: viewer.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'forbidden' });
    const admin = await signUp(t.server, { email: 'ops@example.org' });
    const res = await t.server.inject({ method: 'GET', url, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const status = res.json() as JobsStatusResponse;
    // REDIS_URL chooses BullMQ; without it the process runs its own queue.
    expect(status.backend).toBe(t.config.REDIS_URL ? 'redis' : 'process');
    expect(status.failures).toEqual([]);
    for (const kind of status.kinds)
      expect(kind).toMatchObject({ queued: expect.any(Number), running: expect.any(Number) });
  });
});
