import type { Embed, Sourcerer } from './base.ts';
import type { ScrapeMediaType } from './media.ts';

/** A provider as `GET /metadata` lists it. */
export interface ProviderMeta {
  type: 'source' | 'embed';
  id: string;
  name: string;
  rank: number;
  /** For sources: what they can scrape. */
  mediaTypes?: ScrapeMediaType[];
}

export function sourceMeta(source: Sourcerer): ProviderMeta {
  const mediaTypes: ScrapeMediaType[] = [];
  if (source.scrapeMovie) mediaTypes.push('movie');
  if (source.scrapeShow) mediaTypes.push('show');
  return { type: 'source', id: source.id, name: source.name, rank: source.rank, mediaTypes };
}

export function embedMeta(embed: Embed): ProviderMeta {
  return { type: 'embed', id: embed.id, name: embed.name, rank: embed.rank };
}
