import { buildPath, type ApiErrorBody, type ErrorCode } from '@marquee/contract';

/** An API answer that was not 2xx, with the server's error code when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'network_error' | 'unknown',
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiRequest {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
}

/** GETs one of our endpoints by its contract path; the response type comes from the contract. */
export async function apiGet<T>(path: string, request: ApiRequest = {}): Promise<T> {
  let url = buildPath(path, request.params);
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {}))
    if (value !== undefined) search.set(key, String(value));
  if ([...search.keys()].length) url += `?${search.toString()}`;

  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      ...(request.signal ? { signal: request.signal } : {}),
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', 'The server cannot be reached');
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const err = body as Partial<ApiErrorBody> | null;
    throw new ApiError(response.status, err?.code ?? 'unknown', err?.message ?? `HTTP ${response.status}`);
  }
  return body as T;
}

export const isNotFound = (error: unknown) =>
  error instanceof ApiError && (error.code === 'media_not_found' || error.status === 404);
