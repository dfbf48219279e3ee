import type { z } from 'zod';
import type { ProviderMetricsBody } from '@marquee/contract';

export type ProviderMetrics = z.infer<typeof ProviderMetricsBody>;

/** What the routes record; `exposition` answers GET /metrics. */
export interface Metrics {
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void;
  recordCaptchaSolve(success: boolean): void;
  recordProviders(body: ProviderMetrics, origin: string | undefined): void;
  exposition(): Promise<{ contentType: string; body: string }>;
}
