/**
 * Thrown by a provider that simply does not have the media: the runner reports `notfound` (with the
 * message as reason) instead of `failure`, and moves on. Clients recognise it by `name`.
 */
export class NotFoundError extends Error {
  constructor(reason = 'not found') {
    super(reason);
    this.name = 'NotFoundError';
  }
}

/** Thrown when a run is cancelled through its AbortSignal (the viewer left the page). */
export class ScrapeAbortedError extends Error {
  constructor() {
    super('scrape aborted');
    this.name = 'ScrapeAbortedError';
  }
}

/**
 * Thrown by a provider that has the media but cannot play it for this viewer (a library file this device
 * cannot decode and the server cannot convert): the runner reports `failure` with the code, which the
 * player translates, and moves on to the next source.
 */
export type RefusalCode = 'media_unplayable' | 'server_busy';

export class ProviderRefusal extends Error {
  constructor(
    message: string,
    readonly code: RefusalCode,
  ) {
    super(message);
    this.name = 'ProviderRefusal';
  }
}

/** A serialisable description of an error (for events that cross the wire): never a stack trace. */
export interface ErrorInfo {
  name: string;
  message: string;
  /** The contract's error code, for refusals the player explains. */
  code?: RefusalCode;
}

export function describeError(error: unknown): ErrorInfo {
  if (error instanceof ProviderRefusal) return { name: error.name, message: error.message, code: error.code };
  if (error instanceof Error) return { name: error.name || 'Error', message: error.message };
  return { name: 'Error', message: typeof error === 'string' ? error : 'unknown error' };
}
