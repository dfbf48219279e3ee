import type { ErrorInfo } from './errors.ts';

export type ScrapeStatus = 'pending' | 'success' | 'notfound' | 'failure';

export interface UpdateEvent {
  /** A source id, or an embed's run id (`<sourceId>-<index>`) as announced by discoverEmbeds. */
  id: string;
  percentage: number;
  status: ScrapeStatus;
  /** Set when status is failure. */
  error?: ErrorInfo;
  /** Set when status is notfound. */
  reason?: string;
}

export interface InitEvent {
  /** Every source the run will try, in order. */
  sourceIds: string[];
}

export interface DiscoverEmbedsEvent {
  sourceId: string;
  /** The embeds that will be tried, in order: `id` is the run id, `embedScraperId` the embed's id. */
  embeds: { id: string; embedScraperId: string }[];
}

/** Events of a whole run (same names and shapes as the app family's providers library). */
export interface FullScraperEvents {
  init?(event: InitEvent): void;
  /** A source or embed starts; the argument is its id (embed run id for embeds). */
  start?(id: string): void;
  update?(event: UpdateEvent): void;
  discoverEmbeds?(event: DiscoverEmbedsEvent): void;
}

/** Events of a single source or embed run. */
export interface IndividualScraperEvents {
  update?(event: UpdateEvent): void;
}
