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

/** A serialisable description of an error (for events that cross the wire): never a stack trace. */
export interface ErrorInfo {
  name: string;
  message: string;
}

export function describeError(error: unknown): ErrorInfo {
  if (error instanceof Error) return { name: error.name || 'Error', message: error.message };
  return { name: 'Error', message: typeof error === 'string' ? error : 'unknown error' };
}
