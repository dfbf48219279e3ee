import { extensionClient } from '../../../lib/extension/messaging.ts';
import { customProxyUrls } from '../../../lib/proxy-transport.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { useAccountStore, usePreferencesStore } from '../../../stores/index.ts';
import { canAutoplay } from '../core/autoplay.ts';
import type { PlayerMeta } from '../core/types.ts';

/** Whether this viewer may autoplay the next episode now (their preference, the instance, their setup). */
export function autoplayAllowed(mediaType: PlayerMeta['type']): boolean {
  return canAutoplay({
    enableAutoplay: usePreferencesStore.getState().enableAutoplay,
    mediaType,
    instanceAllows: runtimeConfig().allowAutoplay,
    extensionActive: extensionClient().isActive(),
    hasCustomProxy: customProxyUrls(useAccountStore.getState().proxyUrls).length > 0,
  });
}
