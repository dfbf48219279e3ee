import type { ProviderMetaWire } from '@marquee/contract';
import { api } from './api/index.ts';

/** A source or embed this instance runs (GET /metadata). */
export type InstanceProvider = ProviderMetaWire;

let cached: Promise<InstanceProvider[]> | null = null;

/** The instance's sources and embeds, sources first; an empty list when the server cannot say (retried next time). */
export function instanceProviders(): Promise<InstanceProvider[]> {
  cached ??= api.sources
    .providerMetadata()
    .then(([embeds, sources]) => [...sources, ...embeds])
    .catch(() => {
      cached = null;
      return [];
    });
  return cached;
}
