import { segmentRoutes } from '@marquee/contract/values';
import type { segmentEndpoints } from '@marquee/contract';
import { group } from './client.ts';

/** The segments of a library video (decision 111): only the player calls them. */
export const segmentsApi = group<typeof segmentEndpoints>(segmentRoutes, 'instance');
