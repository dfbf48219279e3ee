import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { databaseUnavailableReason } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

/** A dependency's readiness: null when it works, else why not (shown to the operator). */
export type ReadinessCheck = () => Promise<string | null>;

/** How long one readiness check may take before it counts as down. */
export const READINESS_TIMEOUT_MS = 3_000;

const checksOf = new WeakMap<FastifyInstance, Map<string, ReadinessCheck>>();

/** Adds a dependency (Redis, …) to the app's readiness check. */
export function addReadinessCheck(app: FastifyInstance, name: string, check: ReadinessCheck): void {
  let checks = checksOf.get(app);
  if (!checks) checksOf.set(app, (checks = new Map()));
  checks.set(name, check);
}

async function settle(check: ReadinessCheck): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${READINESS_TIMEOUT_MS} ms`), READINESS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check(), timeout]);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealthRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  addReadinessCheck(app, 'database', async () => {
    try {
      await sql`select 1`.execute(db);
      return null;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return databaseUnavailableReason(error) ?? (typeof code === 'string' ? code : 'the query failed');
    }
  });

  /** Liveness: the process is up and serving (restarting it would not help a database outage). */
  app.get('/healthz', { schema: { hide: true }, logLevel: 'warn' }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );

  /**
   * Readiness: every dependency answers (the database; Redis when configured). 503 names each one that
   * does not, and why: `{status: 'unavailable', checks: {database: {status: 'down', reason}}}`.
   */
  app.get('/readyz', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
    const entries = [...(checksOf.get(app) ?? new Map<string, ReadinessCheck>())];
    const results = await Promise.all(
      entries.map(async ([name, check]) => [name, await settle(check)] as const),
    );
    const checks = Object.fromEntries(
      results.map(([name, reason]) => [
        name,
        reason === null ? { status: 'ok' } : { status: 'down', reason },
      ]),
    );
    const down = results.filter(([, reason]) => reason !== null);
    reply.header('cache-control', 'no-store');
    if (down.length === 0) return reply.send({ status: 'ready', checks });
    request.log.warn({ checks }, 'not ready');
    return reply.status(503).header('retry-after', '5').send({ status: 'unavailable', checks });
  });

  /** The web app's online check (`lib/online-status.ts` in the web app): a tiny, never-cached text. */
  app.get('/ping.txt', { schema: { hide: true }, logLevel: 'warn' }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').type('text/plain').send('pong'),
  );
}
