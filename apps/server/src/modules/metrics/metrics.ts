import type { Metrics } from './metrics.types.ts';

/**
 * When nobody can read /metrics (no METRICS_TOKEN, not METRICS_PUBLIC) counting is wasted work, and
 * prom-client alone is ~2 MB of heap in an 80 MiB budget: it is loaded only when metrics are readable.
 */
export async function metricsFor(
  readable: boolean,
  countUsers: () => Promise<{ namespace: string; count: number }[]>,
): Promise<Metrics | undefined> {
  if (!readable) return undefined;
  const { MetricsService } = await import('./metrics.service.ts');
  return new MetricsService(countUsers);
}
