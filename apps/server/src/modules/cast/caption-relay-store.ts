import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

/** A caption relayed for a Chromecast (decision 113): its WebVTT and when it stops being answered. */
export interface RelayedCaption {
  vtt: string;
  /** ms since the epoch, the server's clock. */
  expiresAt: number;
}

/**
 * Where relayed captions live: in Redis when configured, so whichever process the receiver's request
 * reaches answers it; else in this process. Both drop a caption `ttlMs` after it was put; the service
 * also checks `expiresAt` against its own clock.
 */
export interface CaptionRelayStore {
  readonly kind: 'process' | 'redis';
  put(id: string, caption: RelayedCaption, ttlMs: number): Promise<void>;
  get(id: string): Promise<RelayedCaption | null>;
}

/**
 * What one process keeps at most (UTF-16 size of the texts); past it the least recently used go. The
 * upload bucket bounds each address; this bounds all of them together.
 */
export const PROCESS_RELAY_MAX_BYTES = 64 * 1024 * 1024;

export class ProcessCaptionRelayStore implements CaptionRelayStore {
  readonly kind = 'process';
  private readonly cache: LRUCache<string, RelayedCaption>;

  constructor(defaultTtlMs: number, maxBytes = PROCESS_RELAY_MAX_BYTES) {
    this.cache = new LRUCache<string, RelayedCaption>({
      maxSize: maxBytes,
      sizeCalculation: (caption) => Math.max(1, caption.vtt.length * 2),
      ttl: defaultTtlMs,
    });
  }

  async put(id: string, caption: RelayedCaption, ttlMs: number): Promise<void> {
    this.cache.set(id, caption, { ttl: ttlMs });
  }

  async get(id: string): Promise<RelayedCaption | null> {
    return this.cache.get(id) ?? null;
  }
}

/** One key per caption, `<expiresAt>\n<vtt>`, expiring with it (PX). */
export class RedisCaptionRelayStore implements CaptionRelayStore {
  readonly kind = 'redis';

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(id: string): string {
    return `${this.prefix}cast-caption:${id}`;
  }

  async put(id: string, caption: RelayedCaption, ttlMs: number): Promise<void> {
    await this.redis.set(this.key(id), `${caption.expiresAt}\n${caption.vtt}`, 'PX', ttlMs);
  }

  async get(id: string): Promise<RelayedCaption | null> {
    const raw = await this.redis.get(this.key(id));
    const cut = raw?.indexOf('\n') ?? -1;
    if (raw == null || cut < 0) return null;
    const expiresAt = Number(raw.slice(0, cut));
    return Number.isFinite(expiresAt) ? { expiresAt, vtt: raw.slice(cut + 1) } : null;
  }
}
