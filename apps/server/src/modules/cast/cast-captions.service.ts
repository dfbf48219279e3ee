import { randomBytes } from 'node:crypto';
import { CAST_CAPTION_ID, CAST_CAPTION_MAX_BYTES, CAST_CAPTION_TTL_MS } from '@marquee/contract';
import { AppError, notFound } from '../../errors.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../plugins/errors.ts';
import type { CaptionRelayStore, RelayedCaption } from './caption-relay-store.ts';

export interface CastCaptionsOptions {
  store: CaptionRelayStore;
  now: () => number;
  ttlMs?: number;
}

/**
 * The caption relay for casting (decision 113): a viewer's caption, already WebVTT (the contract checks
 * its signature), kept under a random id for a few hours so a Chromecast can fetch it by URL.
 */
export class CastCaptionsService {
  private readonly ttlMs: number;

  constructor(private readonly o: CastCaptionsOptions) {
    this.ttlMs = o.ttlMs ?? CAST_CAPTION_TTL_MS;
  }

  /** Keeps `vtt` and answers its id (128 random bits: the URL is the only key) and expiry. */
  async host(vtt: string): Promise<{ id: string; expiresAt: number }> {
    if (Buffer.byteLength(vtt, 'utf8') > CAST_CAPTION_MAX_BYTES)
      throw new AppError(
        413,
        'payload_too_large',
        `A caption to cast is at most ${CAST_CAPTION_MAX_BYTES} bytes of WebVTT`,
      );
    const id = randomBytes(16).toString('base64url');
    const expiresAt = this.o.now() + this.ttlMs;
    await this.stored(() => this.o.store.put(id, { vtt, expiresAt }, this.ttlMs));
    return { id, expiresAt };
  }

  /** The caption of `id` while it lasts; 404 `not_found` for an unknown, malformed or expired id. */
  async read(id: string): Promise<RelayedCaption> {
    const found = CAST_CAPTION_ID.test(id) ? await this.stored(() => this.o.store.get(id)) : null;
    if (!found || found.expiresAt <= this.o.now()) throw notFound('No such caption, or it expired');
    return found;
  }

  /**
   * The store's answer; a store that does not answer (Redis down: another process could not read a
   * caption kept here instead) is 503 with Retry-After, as a database that does not answer is.
   */
  private async stored<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw new AppError(
        503,
        'database_unavailable',
        'Captions for casting are briefly unavailable, please try again in a moment',
        {
          cause: error,
          retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
        },
      );
    }
  }
}
