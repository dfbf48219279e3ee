import { api } from '../../../lib/api/index.ts';
import type { ScrapeState } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';

export type ScrapeTool = 'extension' | 'custom-proxy' | 'default';

export interface ProviderMetricItem {
  tmdbId: string;
  type: string;
  title: string;
  seasonId?: string;
  episodeId?: string;
  status: 'failed' | 'notfound' | 'success';
  providerId: string;
  embedId?: string;
  errorMessage?: string;
  fullError?: string;
}

/** Report items (decision 050) for every provider that finished; waiting and pending ones are left out. */
export function metricItems(meta: PlayerMeta, scrape: ScrapeState): ProviderMetricItem[] {
  const items: ProviderMetricItem[] = [];
  for (const id of scrape.order) {
    const s = scrape.segments[id];
    if (!s || (s.status !== 'success' && s.status !== 'notfound' && s.status !== 'failure')) continue;
    const parent = s.parentId ? scrape.segments[s.parentId] : undefined;
    const item: ProviderMetricItem = {
      tmdbId: meta.tmdbId,
      type: meta.type,
      title: meta.title,
      status: s.status === 'failure' ? 'failed' : s.status,
      providerId: parent?.id ?? s.id,
    };
    if (meta.season) item.seasonId = meta.season.id;
    if (meta.episode) item.episodeId = meta.episode.id;
    if (s.embedId) item.embedId = s.embedId;
    if (s.reason || s.error) item.errorMessage = (s.error ?? s.reason)!.slice(0, 4000);
    if (s.error) item.fullError = s.error.slice(0, 20000);
    items.push(item);
  }
  return items;
}

export function newBatchId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** POST /metrics/providers, ten items a request; failures are ignored (metrics never bother the viewer). */
export async function reportScrape(items: ProviderMetricItem[], tool: ScrapeTool): Promise<void> {
  const batchId = newBatchId();
  for (let i = 0; i < items.length; i += 10) {
    // `batchId` is not in our schema (ignored); the family's metrics servers group reports by it.
    const body = { items: items.slice(i, i + 10), tool, batchId };
    // This instance counts them (not the account server), without the account's token.
    await api.account.providerMetrics({ baseUrl: '', body, keepalive: true }).catch(() => undefined);
  }
}

export async function reportCaptcha(success: boolean): Promise<void> {
  await api.account.captchaMetrics({ baseUrl: '', body: { success } }).catch(() => undefined);
}
