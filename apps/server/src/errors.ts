import type { ErrorCode } from '@marquee/contract';

/** An error that reaches the client as `status` with `{errorType:'message', code, message}`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
  }
}

export const notFound = (message = 'Not found', code: ErrorCode = 'not_found') =>
  new AppError(404, code, message);
