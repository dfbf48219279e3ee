import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Metrics, ProviderMetrics } from './metrics.types.ts';

/** Process metrics (CPU, memory, event loop) exist once per process, whatever the number of apps. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * Client-supplied label values (provider ids, hostnames, title ids) would let anyone grow the series
 * count without bound (a memory DoS of the older server). Each metric keeps at most `max` distinct
 * values per label; later ones are counted as "other".
 */
class BoundedLabel {
  private readonly seen = new Set<string>();
  constructor(private readonly max: number) {}
  value(raw: string | undefined, fallback = '<UNKNOWN>'): string {
    const v = (raw ?? '').slice(0, 100) || fallback;
    if (this.seen.has(v)) return v;
    if (this.seen.size >= this.max) return 'other';
    this.seen.add(v);
    return v;
  }
}

/**
 * Prometheus metrics of one app instance: its own Registry (tests build many apps in one process),
 * the older server's `mw_*` series (without their unbounded or privacy-sensitive labels: no titles),
 * and HTTP request durations labelled by route pattern, never by raw URL.
 */
export class MetricsService implements Metrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  private readonly captchaSolves: Counter<'success'>;
  private readonly hostnames: Counter<'hostname'>;
  private readonly providerStatus: Counter<'provider_id' | 'status'>;
  private readonly watches: Counter<'tmdb_full_id' | 'provider_id' | 'success'>;
  private readonly tools: Counter<'tool'>;
  private readonly labels = {
    hostname: new BoundedLabel(200),
    provider: new BoundedLabel(300),
    tmdb: new BoundedLabel(2000),
    tool: new BoundedLabel(20),
  };

  constructor(countUsers: () => Promise<{ namespace: string; count: number }[]>) {
    const registers = [this.registry];
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route pattern',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    new Gauge({
      name: 'mw_user_count',
      help: 'mw_user_count',
      labelNames: ['namespace'],
      registers,
      // Read from the database at scrape time: right across processes and after deletions.
      async collect() {
        this.reset();
        for (const { namespace, count } of await countUsers())
          this.set({ namespace: namespace.slice(0, 100) }, count);
      },
    });
    this.captchaSolves = new Counter({
      name: 'mw_captcha_solves',
      help: 'mw_captcha_solves',
      labelNames: ['success'],
      registers,
    });
    this.hostnames = new Counter({
      name: 'mw_provider_hostname_count',
      help: 'mw_provider_hostname_count',
      labelNames: ['hostname'],
      registers,
    });
    this.providerStatus = new Counter({
      name: 'mw_provider_status_count',
      help: 'mw_provider_status_count',
      labelNames: ['provider_id', 'status'],
      registers,
    });
    this.watches = new Counter({
      name: 'mw_media_watch_count',
      help: 'mw_media_watch_count',
      labelNames: ['tmdb_full_id', 'provider_id', 'success'],
      registers,
    });
    this.tools = new Counter({
      name: 'mw_provider_tool_count',
      help: 'mw_provider_tool_count',
      labelNames: ['tool'],
      registers,
    });
  }

  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status_code: String(statusCode) }, seconds);
  }

  recordCaptchaSolve(success: boolean): void {
    this.captchaSolves.inc({ success: String(success) });
  }

  /** One scrape run as the older server counted it: hostname, each item's status, one watch, the tool. */
  recordProviders(body: ProviderMetrics, origin: string | undefined): void {
    let hostname: string | undefined;
    try {
      hostname = origin ? new URL(origin).hostname : undefined;
    } catch {
      hostname = undefined;
    }
    this.hostnames.inc({ hostname: this.labels.hostname.value(hostname) });
    for (const item of body.items) {
      this.providerStatus.inc({
        provider_id: this.labels.provider.value(item.embedId ?? item.providerId),
        status: item.status,
      });
    }
    const last = body.items[body.items.length - 1]!;
    const success = body.items.find((i) => i.status === 'success');
    this.watches.inc({
      tmdb_full_id: this.labels.tmdb.value(`${last.type}-${last.tmdbId}`),
      provider_id: this.labels.provider.value((success ?? last).providerId),
      success: String(Boolean(success)),
    });
    if (body.tool) this.tools.inc({ tool: this.labels.tool.value(body.tool) });
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    const merged = Registry.merge([processMetrics(), this.registry]);
    return { contentType: this.registry.contentType, body: await merged.metrics() };
  }
}
