import { sourcePaths } from '@marquee/contract';

/** A source or embed this instance runs (GET /metadata). */
export interface InstanceProvider {
  type: 'source' | 'embed';
  id: string;
  name: string;
  rank: number;
  mediaTypes?: ('movie' | 'show')[];
}

let cached: Promise<InstanceProvider[]> | null = null;

/** The instance's sources and embeds, sources first; an empty list when the server cannot say (retried next time). */
export function instanceProviders(): Promise<InstanceProvider[]> {
  cached ??= fetch(sourcePaths.providerMetadata, { headers: { accept: 'application/json' } })
    .then((r) =>
      r.ok
        ? (r.json() as Promise<[InstanceProvider[], InstanceProvider[]]>)
        : Promise.reject(new Error(`HTTP ${r.status}`)),
    )
    .then(([embeds, sources]) => [...sources, ...embeds])
    .catch(() => {
      cached = null;
      return [];
    });
  return cached;
}
