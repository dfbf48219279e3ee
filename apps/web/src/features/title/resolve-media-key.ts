import { decodeMediaKey, parseLegacyMediaKey, type MediaKeyParts } from '../../lib/media-keys.ts';

export type ResolvedKey =
  | { kind: 'current'; parts: MediaKeyParts }
  | { kind: 'redirect'; key: string }
  | { kind: 'justwatch'; jwType: string; id: string }
  | { kind: 'invalid' };

/**
 * What the media route does with the key in its URL: use it, redirect an old-form key to the current
 * form (`tmdb-show-…` → `tmdb-tv-…`, keeping the slug; `JW-…` through the server's legacy lookup), or give up.
 */
export function resolveMediaKey(key: string): ResolvedKey {
  const parts = decodeMediaKey(key);
  if (parts) return { kind: 'current', parts };
  const legacy = parseLegacyMediaKey(key);
  if (legacy?.kind === 'tmdb-show') return { kind: 'redirect', key: key.replace(/^tmdb-show-/, 'tmdb-tv-') };
  if (legacy?.kind === 'justwatch') return { kind: 'justwatch', jwType: legacy.jwType, id: legacy.id };
  return { kind: 'invalid' };
}
