import { accountEndpoints } from './accounts.ts';
import { castEndpoints } from './cast.ts';
import { customerEndpoints } from './customers.ts';
import { deviceLinkEndpoints } from './device-links.ts';
import { historyEndpoints } from './history.ts';
import type { Endpoint } from './endpoint.ts';
import { jobEndpoints } from './jobs.ts';
import { membershipEndpoints } from './membership.ts';
import { metadataEndpoints } from './metadata.ts';
import { partyEndpoints } from './parties.ts';
import { passkeyEndpoints } from './passkeys.ts';
import { segmentEndpoints } from './segments.ts';
import { configEndpoints } from './runtime-config.ts';
import { ratingsEndpoints } from './ratings.ts';
import { sourcesEndpoints } from './sources.ts';
import { syncEndpoints } from './sync.ts';
import { traktEndpoints } from './trakt.ts';

/**
 * Every endpoint declaration object, by group. The server registers each of these, and its tests
 * (contract coverage, authorization matrix, fuzz) enumerate them from here: a declaration added to one
 * of these objects is covered or the suites fail. A new `*Endpoints` object is added here.
 */
export const contractEndpoints = {
  accounts: accountEndpoints,
  sync: syncEndpoints,
  history: historyEndpoints,
  ratings: ratingsEndpoints,
  trakt: traktEndpoints,
  customers: customerEndpoints,
  membership: membershipEndpoints,
  metadata: metadataEndpoints,
  config: configEndpoints,
  sources: sourcesEndpoints,
  jobs: jobEndpoints,
  deviceLinks: deviceLinkEndpoints,
  passkeys: passkeyEndpoints,
  segments: segmentEndpoints,
  parties: partyEndpoints,
  cast: castEndpoints,
} as const;

export interface ListedEndpoint {
  /** `group.name`, e.g. `sync.addBookmark`. */
  id: string;
  endpoint: Endpoint;
}

/** All endpoints of `contractEndpoints`, with their ids. */
export function listEndpoints(): ListedEndpoint[] {
  return Object.entries(contractEndpoints).flatMap(([group, endpoints]) =>
    Object.entries(endpoints as Record<string, Endpoint>).map(([name, endpoint]) => ({
      id: `${group}.${name}`,
      endpoint,
    })),
  );
}
