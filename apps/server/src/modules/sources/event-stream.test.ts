import { request } from 'node:http';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EventStream } from './event-stream.ts';

const schemas = { tick: z.number(), done: z.literal('') };
const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

describe('EventStream', () => {
  it('writes named events with ids as JSON, and aborts its signal when the client goes away', async () => {
    const app = Fastify();
    apps.push(app);
    let aborted: () => void = () => undefined;
    const wasAborted = new Promise<void>((resolve) => (aborted = resolve));
    app.get('/events', async (request, reply) => {
      const stream = new EventStream(request, reply, schemas, { headers: { 'x-extra': 'yes' } });
      stream.signal.addEventListener('abort', () => aborted());
      stream.send('tick', 1);
      stream.send('tick', 2);
    });
    const address = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
    // A raw connection, closed the way a browser closes an EventSource: the socket goes away.
    const { headers, text, close } = await new Promise<{
      headers: Record<string, unknown>;
      text: string;
      close: () => void;
    }>((resolve, reject) => {
      const req = request({ host: address.hostname, port: address.port, path: '/events' }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
          if (body.includes('data: 2'))
            resolve({ headers: res.headers, text: body, close: () => req.destroy() });
        });
      });
      req.on('error', () => undefined);
      req.on('timeout', reject);
      req.end();
    });
    expect(headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(headers['x-extra']).toBe('yes');
    expect(text).toContain('id: 0\nevent: tick\ndata: 1\n\n');
    expect(text).toContain('id: 1\nevent: tick\ndata: 2\n\n');
    close();
    await wasAborted;
  });

  it('refuses an event whose data breaks the contract', async () => {
    const app = Fastify();
    apps.push(app);
    let failure: unknown;
    app.get('/events', async (request, reply) => {
      const stream = new EventStream(request, reply, schemas);
      try {
        stream.send('tick', 'not a number' as unknown as number);
      } catch (error) {
        failure = error;
      }
      stream.end('done', '');
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const text = await (await fetch(`${address}/events`)).text();
    expect(failure).toBeInstanceOf(z.ZodError);
    expect(text).toContain('event: done\ndata: ""\n\n');
    expect(text).not.toContain('not a number');
  });
});
