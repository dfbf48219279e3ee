import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../../test/test-database.ts';
import { createRateLimits, RateLimitedError } from './rate-limit.ts';
import { connectRedis } from './redis.ts';

// CI and developer machines run Redis at 127.0.0.1:6379; this test uses it even when
// the rest of the suite runs on SQLite, so the shared store is never silently left untested.
const redisUrl = testRedisUrl ?? 'redis://127.0.0.1:6379';

describe('rate limits', () => {
  const clients: Redis[] = [];
  afterAll(async () => {
    for (const c of clients) await c.quit();
  });

  it('memory store: counts per bucket and key, refuses with a retry time, counts points', async () => {
    const limits = createRateLimits({
      prefix: 't:',
      overrides: { login_complete: { points: 3, durationMs: 60_000 } },
    });
    expect(limits.store).toBe('memory');
    for (let i = 0; i < 3; i++) await limits.consume('login_complete', 'ip1');
    const refused = await limits.consume('login_complete', 'ip1').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).status).toBe(429);
    expect((refused as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    await limits.consume('login_complete', 'ip2');
    await expect(limits.consume('provider_metrics', 'ip1', 300)).resolves.toBeUndefined();
    await expect(limits.consume('provider_metrics', 'ip1', 1)).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('switched off, nothing is counted', async () => {
    const limits = createRateLimits({ prefix: 't:', overrides: false });
    for (let i = 0; i < 50; i++) await limits.consume('register_complete', 'ip');
  });

  it('redis store: two limiters (two processes) share one count', async () => {
    const prefix = `test:${randomBytes(4).toString('hex')}:`;
    const a = new Redis(redisUrl);
    const b = new Redis(redisUrl);
    clients.push(a, b);
    const overrides = { register_complete: { points: 4, durationMs: 60_000 } };
    const one = createRateLimits({ redis: a, prefix, overrides });
    const two = createRateLimits({ redis: b, prefix, overrides });
    expect(one.store).toBe('redis');
    await one.consume('register_complete', 'ip');
    await two.consume('register_complete', 'ip');
    await one.consume('register_complete', 'ip');
    await two.consume('register_complete', 'ip');
    await expect(one.consume('register_complete', 'ip')).rejects.toBeInstanceOf(RateLimitedError);
    await expect(two.consume('register_complete', 'ip')).rejects.toBeInstanceOf(RateLimitedError);
    expect(await a.keys(`${prefix}*`)).not.toHaveLength(0);
  });

  it("the server's Redis connection: a bucket's first use while other commands are in flight neither fails nor crashes", async () => {
    // With ioredis' auto-pipelining a command defined after a pipeline opened (the limiter's script) made
    // that request fail and threw `results[i] is not iterable` out of the process (ioredis#1931).
    const log = { info: () => undefined, warn: () => undefined };
    const { client } = await connectRedis(redisUrl, log);
    clients.push(client);
    const prefix = `test:${randomBytes(4).toString('hex')}:`;
    const limits = createRateLimits({ redis: client, prefix });
    const writes = [client.publish(`${prefix}library`, '{}'), client.get(`${prefix}missing`)];
    await expect(limits.consume('login_complete', 'ip')).resolves.toBeUndefined();
    await Promise.all(writes);
    expect(await client.keys(`${prefix}rl:*`)).not.toHaveLength(0);
  });
});
