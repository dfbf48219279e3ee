import { z } from 'zod';
import { AppError } from '../../../errors.ts';

/**
 * The legacy streaming-availability lookup (JustWatch's content API) that old media keys (`JW-…`) need:
 * a JustWatch title id → its TMDB or IMDb id. Only old links use it; a 400 or 404 means not found.
 */
const JustWatchTitle = z.object({
  object_type: z.string().optional(),
  title: z.string().optional(),
  external_ids: z.array(z.object({ provider: z.string(), external_id: z.string() })).default([]),
});

export interface LegacyIds {
  kind: 'movie' | 'show';
  tmdbId: string | null;
  imdbId: string | null;
}

export interface LegacyLookup {
  lookup(jwType: string, jwId: string): Promise<LegacyIds>;
}

export class JustWatchClient implements LegacyLookup {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 10_000,
    private readonly fetchImpl: typeof fetch = globalThis.fetch,
  ) {}

  async lookup(jwType: string, jwId: string): Promise<LegacyIds> {
    const kind = jwType === 'show' || jwType === 'series' ? 'show' : 'movie';
    const url = `${this.baseUrl.replace(/\/+$/, '')}/content/titles/${kind}/${encodeURIComponent(jwId)}/locale/en_US`;
    let response: Response;
    let body: unknown;
    try {
      response = await this.fetchImpl(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      body = response.ok ? await response.json() : null;
    } catch (error) {
      throw new AppError(503, 'legacy_metadata_unavailable', 'Failed to load API metadata', { cause: error });
    }
    if (response.status === 400 || response.status === 404) {
      throw new AppError(404, 'media_not_found', "Couldn't find that media");
    }
    if (!response.ok) throw new AppError(503, 'legacy_metadata_unavailable', 'Failed to load API metadata');
    const parsed = JustWatchTitle.safeParse(body);
    if (!parsed.success)
      throw new AppError(503, 'legacy_metadata_unavailable', 'Failed to load API metadata');
    const id = (provider: string) =>
      parsed.data.external_ids.find((e) => e.provider === provider)?.external_id ?? null;
    return { kind, tmdbId: id('tmdb'), imdbId: id('imdb') };
  }
}
