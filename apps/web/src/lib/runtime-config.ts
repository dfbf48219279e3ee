import type { RuntimeConfig } from '@marquee/contract';

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
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  if (window.__MARQUEE_CONFIG__) {
    current = window.__MARQUEE_CONFIG__;
    return current;
  }
  const response = await fetchImpl('/api/config', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`Runtime configuration unavailable (HTTP ${response.status})`);
  current = (await response.json()) as RuntimeConfig;
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
