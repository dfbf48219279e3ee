import { castRoutes } from '@marquee/contract/values';
import type { castEndpoints } from '@marquee/contract';
import { group } from './client.ts';

/** The caption relay for casting (decision 113): only the player's Cast sender calls it. */
export const castApi = group<typeof castEndpoints>(castRoutes, 'instance');
