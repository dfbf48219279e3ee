import type { Config } from './config.ts';

/**
 * What an operator reads when the server cannot start: the cause and what to change, in a sentence
 * (the stack trace helps nobody who did not write the code; LOG_LEVEL=debug prints it anyway).
 */
export function startupFailure(error: unknown, config: Config | undefined): string {
  // The cause with a code is the one that says what happened (a failed migration wraps a refused connection).
  let err = (error ?? {}) as NodeJS.ErrnoException & { address?: string; port?: number };
  while (!err.code && err.cause instanceof Error) err = err.cause as typeof err;
  switch (err.code) {
    case 'EADDRINUSE':
      return `port ${config?.PORT ?? err.port} is already in use: stop the other server or set PORT`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${config?.HOST}: the address is not this machine's (HOST)`;
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'ETIMEDOUT':
    case 'EAI_AGAIN': {
      const where = err.address ? ` at ${err.address}${err.port ? `:${err.port}` : ''}` : '';
      return `cannot reach the database${where} (${err.code}): check DATABASE_URL and that PostgreSQL is running`;
    }
    case '28P01':
    case '28000':
      return `PostgreSQL refused the credentials in DATABASE_URL (${err.message})`;
    case '3D000':
      return `the database named in DATABASE_URL does not exist (${err.message}): create it first`;
    case 'SQLITE_CANTOPEN':
    case 'EACCES':
    case 'EROFS':
      return `cannot write the data folder ${config?.dataDir ?? ''}: check DATA_DIR and its permissions (${err.message})`;
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
