import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/** Comment lines keep proxies from closing a quiet stream while a slow provider works. */
const KEEP_ALIVE_MS = 15_000;

export interface EventStreamOptions {
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** The comment line that opens the stream. */
  greeting?: string;
  /** How often a comment line is sent while nothing else is. */
  keepAliveMs?: number;
}

/**
 * A server-sent events response whose events are checked against the contract's schemas before they
 * leave. `signal` aborts when the client goes away, so the scrape stops too.
 */
export class EventStream<M extends Record<string, z.ZodType>> {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly keepAlive: ReturnType<typeof setInterval>;
  private nextId = 0;
  private isEnded = false;

  constructor(
    request: FastifyRequest,
    private readonly reply: FastifyReply,
    private readonly schemas: M,
    options: EventStreamOptions = {},
  ) {
    this.signal = this.controller.signal;
    reply.hijack();
    const raw = reply.raw;
    raw.on('close', () => {
      if (!raw.writableFinished) this.controller.abort();
      this.stop();
    });
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // No `connection` header of our own: Node answers keep-alive, or closes after the stream when the
      // client asked for `Connection: close` (a forced keep-alive would hold that socket open).
      'x-accel-buffering': 'no',
      'x-request-id': String(request.id),
      ...options.headers,
    });
    raw.write(`: ${options.greeting ?? 'marquee scrape'}\n\n`);
    this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), options.keepAliveMs ?? KEEP_ALIVE_MS);
    this.keepAlive.unref?.();
  }

  get ended(): boolean {
    return this.isEnded;
  }

  send<K extends keyof M & string>(event: K, data: z.infer<M[K]>): void {
    if (this.isEnded) return;
    const checked = this.schemas[event]!.parse(data);
    this.write(`id: ${this.nextId++}\nevent: ${event}\ndata: ${JSON.stringify(checked)}\n\n`);
  }

  /** Sends the terminal event and closes the stream. */
  end<K extends keyof M & string>(event: K, data: z.infer<M[K]>): void {
    if (this.isEnded) return;
    this.send(event, data);
    this.stop();
    this.reply.raw.end();
  }

  /**
   * Closes the stream without a terminal event (the client reconnects). `dropConnection` (the server is
   * shutting down) also closes the connection once the end is written, rather than leaving it idle.
   */
  close(options: { dropConnection?: boolean } = {}): void {
    if (this.isEnded) return;
    this.stop();
    const raw = this.reply.raw;
    raw.end(() => {
      if (options.dropConnection) raw.socket?.destroy();
    });
  }

  private write(chunk: string): void {
    const raw = this.reply.raw;
    if (!raw.destroyed && !raw.writableEnded) raw.write(chunk);
  }

  private stop(): void {
    this.isEnded = true;
    clearInterval(this.keepAlive);
  }
}
