import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { ApiErrorBody } from '@marquee/contract';

/*
 * The answers Fastify (and Node's HTTP parser) give before a request reaches a route, its hooks or the
 * app's error handler, in the app's `{errorType, code, message}` shape like every other error
 * (plugins/errors.ts). Unknown routes are the web module's not-found handler; bodies that are too large,
 * of an unknown type or not JSON reach the error handler already.
 */

const body = (message: string): ApiErrorBody => ({ errorType: 'message', code: 'bad_request', message });

/** The router's limit on one path parameter (Fastify's default `maxParamLength`). */
export const MAX_PARAM_LENGTH = 100;

/** URLs the router cannot take: bad percent-encoding, an over-long parameter. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
  const message =
    error.code === 'FST_ERR_BAD_URL'
      ? 'The URL is not valid (bad percent-encoding)'
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'A part of the URL is too long'
        : 'The request cannot be routed';
  request.log.info({ code: error.code }, message);
  void reply.status(status).send(body(message));
}

/** Requests Node cannot parse (bad request line or header, headers too large, too slow to arrive). */
function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive']
        : [400, 'The request is not valid HTTP'];
  const text = JSON.stringify(body(message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

/**
 * Fastify options for app.ts. Node's own bodiless 400 for an HTTP/1.1 request without `Host` is turned
 * off: plugins/input-hygiene.ts refuses those requests instead, in the app's shape.
 */
export const frameworkErrorOptions = {
  frameworkErrors,
  clientErrorHandler,
  http: { requireHostHeader: false },
} satisfies Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> & {
  http: { requireHostHeader: boolean };
};
