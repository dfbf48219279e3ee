import type { RuntimeConfig } from '@marquee/contract';
import { api } from './api/index.ts';

declare global {
  interface Window {
    __MARQUEE_CONFIG__?: RuntimeConfig;
  }
}

let current: RuntimeConfig | undefined;

/**
 * The instance's runtime configuration: inlined into index.html by the server, or fetched from
 * /api/config when the page was served without it (the Vite dev server).
 */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  if (window.__MARQUEE_CONFIG__) {
    current = window.__MARQUEE_CONFIG__;
    return current;
  }
  current = await api.config.runtimeConfig({ token: null });
  return current;
}

export function runtimeConfig(): RuntimeConfig {
  if (!current) throw new Error('Runtime configuration read before it was loaded');
  return current;
}

/** For tests. */
export function setRuntimeConfig(config: RuntimeConfig): void {
  current = config;
}
