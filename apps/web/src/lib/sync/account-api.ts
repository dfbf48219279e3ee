import type { HttpMethod } from '@marquee/contract';
import { send, type RequestInput } from '../api/client.ts';

/*
 * Legacy entry kept only for features/settings/settings-page.tsx and account-section.tsx's delete calls,
 * which this change may not touch; everything else calls `api.*` from lib/api/. Do not add callers: the
 * lint rule forbids type arguments here, and the answer is `unknown`.
 */

export { accountBaseUrl } from '../api/client.ts';

/** @deprecated Use `api.account.*` / `api.sync.*` (typed from the contract). */
export async function accountRequest(
  method: HttpMethod,
  path: string,
  request: Omit<RequestInput, 'baseUrl'> & { baseUrl?: string | null } = {},
): Promise<unknown> {
  const { baseUrl, ...rest } = request;
  const response = await send({ method, path }, 'account', {
    ...rest,
    ...(baseUrl !== undefined && baseUrl !== null ? { baseUrl } : {}),
  });
  return response.json().catch(() => null);
}
