import { deviceLinkRoutes } from '@marquee/contract/values';
import type { deviceLinkEndpoints } from '@marquee/contract';
import { group } from './client.ts';

/** Signing in on another device with a code (decision 105): only its two pages call it. */
export const deviceLinksApi = group<typeof deviceLinkEndpoints>(deviceLinkRoutes, 'account');
