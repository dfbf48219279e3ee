import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export function registerHealthRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  /** Liveness and readiness in one: answers 200 only when the database answers. */
  app.get('/healthz', { schema: { hide: true }, logLevel: 'warn' }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(db);
      return { status: 'ok' };
    } catch (error) {
      _request.log.error({ err: error }, 'health check failed');
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
  /** The web app's online check (seed 000 §4): a tiny, never-cached text. */
  app.get('/ping.txt', { schema: { hide: true }, logLevel: 'warn' }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').type('text/plain').send('pong'),
  );
}
