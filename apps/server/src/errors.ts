import type { ErrorCode } from '@marquee/contract';

/**
 * An error that reaches the client as `status` with `{errorType:'message', code, message}`, and a
 * Retry-After header when `retryAfterSeconds` is given.
 */
export class AppError extends Error {
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

export const notFound = (message = 'Not found', code: ErrorCode = 'not_found') =>
  new AppError(404, code, message);
