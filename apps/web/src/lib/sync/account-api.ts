import { buildPath, type ApiErrorBody } from '@marquee/contract';
import { useAccountStore } from '../../stores/account-store.ts';
import { ApiError } from '../api.ts';

export interface AccountRequest {
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** Defaults to the signed-in account's token; null sends none. */
  token?: string | null;
  /** Defaults to the account server chosen in settings, else this instance. */
  baseUrl?: string | null;
  timeoutMs?: number;
  /** Extra request headers (X-Profile-Id on sync calls). */
  headers?: Record<string, string>;
}

/** The account server: the one chosen in settings, else this instance (same origin). */
export const accountBaseUrl = (override?: string | null) =>
  (override ?? useAccountStore.getState().backendUrl ?? '').replace(/\/+$/, '');

/**
 * One call to the account and sync API (paths from the contract's accountPaths). Non-2xx answers throw
 * an ApiError with the status and the server's error code; no answer at all throws status 0.
 */
export async function accountRequest<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  request: AccountRequest = {},
): Promise<T> {
  let url = accountBaseUrl(request.baseUrl) + buildPath(path, request.params);
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(request.query ?? {})) if (v !== undefined) search.set(k, v);
  if ([...search.keys()].length) url += `?${search.toString()}`;

  const token = request.token === undefined ? useAccountStore.getState().account?.token : request.token;
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  if (request.body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      signal: AbortSignal.timeout(request.timeoutMs ?? 20_000),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The server cannot be reached');
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const err = body as Partial<ApiErrorBody> | null;
    // A validation failure says what is wrong in its issues ("Password must have at least 8 characters").
    const issues = [...new Set((err?.issues ?? []).map((i) => i.message).filter(Boolean))];
    throw new ApiError(
      response.status,
      err?.code ?? 'unknown',
      issues.length ? issues.join(' ') : (err?.message ?? `HTTP ${response.status}`),
    );
  }
  return body as T;
}
