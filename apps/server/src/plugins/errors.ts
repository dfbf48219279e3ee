import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiErrorBody, ErrorCode } from '@marquee/contract';
import { databaseUnavailableReason } from '../db/database.ts';
import { AppError } from '../errors.ts';

/** Seconds a client waits before retrying while the database is unavailable (a restart or failover). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const fastifyCodes: Record<string, { status: number; code: ErrorCode }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'bad_request' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'bad_request' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'bad_request' },
};

/**
 * One error handler for the whole API: validation → 400 with the issues, typed AppErrors with their
 * status, Fastify's own client errors kept as 4xx (the older servers turned them into 500), a database
 * that does not answer → 503 `database_unavailable` with Retry-After (clients retry; nothing is lost),
 * and only truly unexpected errors → 500, logged.
 */
/** Validation issues listed in an answer at most. */
const MAX_VALIDATION_ISSUES = 20;

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const body: ApiErrorBody = {
        errorType: 'validation',
        code: 'validation_failed',
        message: 'The request is not valid',
        // The first issues only: a large invalid body must not make an answer larger than itself.
        issues: error.validation.slice(0, MAX_VALIDATION_ISSUES).map((v) => ({
          path: [
            error.validationContext ?? 'body',
            ...v.instancePath.split('/').filter(Boolean).slice(0, 16),
          ],
          message: (v.message ?? 'invalid').slice(0, 300),
        })),
      };
      return reply.status(400).send(body);
    }
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      const body: ApiErrorBody = { errorType: 'message', code: error.code, message: error.message };
      return reply.status(error.status).send(body);
    }
    const known = error.code ? fastifyCodes[error.code] : undefined;
    if (known || (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)) {
      const status = known?.status ?? error.statusCode ?? 400;
      const code: ErrorCode =
        known?.code ?? (status === 429 ? 'rate_limited' : status === 404 ? 'not_found' : 'bad_request');
      const body: ApiErrorBody = { errorType: 'message', code, message: error.message };
      return reply.status(status).send(body);
    }
    const unavailable = databaseUnavailableReason(error);
    if (unavailable) {
      request.log.warn({ err: error, reason: unavailable }, 'database unavailable');
      const body: ApiErrorBody = {
        errorType: 'message',
        code: 'database_unavailable',
        message: 'The service is briefly unavailable, please try again in a moment',
      };
      return reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send(body);
    }
    request.log.error({ err: error }, 'unhandled error');
    const body: ApiErrorBody = {
      errorType: 'message',
      code: 'internal_error',
      message: 'Internal server error',
    };
    return reply.status(500).send(body);
  });
}
