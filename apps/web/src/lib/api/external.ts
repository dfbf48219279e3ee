import { apiPaths } from '@marquee/contract/values';
import { ApiError, errorFromAnswer, networkError } from './errors.ts';

/*
 * The few requests that are not contract endpoints, kept here so no other module calls fetch itself.
 */

/** GET /ping.txt (the online check): true when this instance answered 2xx. */
export async function ping(signal: AbortSignal): Promise<boolean> {
  const response = await fetch(apiPaths.ping, { cache: 'no-store', signal });
  return response.ok;
}

/**
 * A text file of another site (a caption file a source named): not our API, so no token, no headers of
 * ours. Fails with an ApiError (status 0 when nothing answered).
 */
export async function fetchExternalText(url: string, signal?: AbortSignal): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, signal ? { signal } : {});
  } catch (error) {
    if (signal?.aborted) throw error;
    throw networkError();
  }
  if (!response.ok) throw new ApiError(response.status, 'unknown', `HTTP ${response.status}`);
  return response.text();
}

/**
 * Asks one of this instance's media URLs (a signed library or sample file, decision 071) for its first
 * byte and answers the error it is refused with, or null when it is served (or nothing answered).
 */
export async function mediaUrlRefusal(
  url: string,
  signal: AbortSignal,
  fetchLike: typeof fetch = fetch,
): Promise<ApiError | null> {
  let response: Response;
  try {
    response = await fetchLike(url, { headers: { range: 'bytes=0-0' }, signal });
  } catch {
    return null;
  }
  if (response.ok || response.status === 304) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  return errorFromAnswer(response.status, await response.json().catch(() => null));
}
