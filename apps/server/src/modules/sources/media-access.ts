import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors.ts';

/** Name of the signing key in `instance_secrets` (every process of the instance signs with the same key). */
export const MEDIA_URL_SECRET_NAME = 'media-url-key';

/** The viewer of a URL anyone may use: an open instance, or a title that needs no membership. */
export const ANYONE = '';

/** What a media URL lets its holder play, until when. Decision 071. */
export interface MediaGrant {
  /** The account the URL was handed to (ids are base64url), or ANYONE. */
  viewer: string;
  /** The title it was handed out for: takedowns and the membership are checked against it on every request. */
  type: 'movie' | 'show';
  tmdbId: string;
  /** Epoch ms, whole seconds. */
  expiresAt: number;
}

/** What one token covers: the whole sample folder, or one file of the library. */
export type MediaScope = 'sample' | `library:${string}`;

/** `<expiry, base-36 seconds>.<m|s><tmdb id>.<viewer, ~ for anyone>.<signature>`: short enough for a path segment. */
const TOKEN = /^([0-9a-z]{1,11})\.([ms])(\d{1,10})\.(~|[A-Za-z0-9_-]{1,36})\.([A-Za-z0-9_-]{22})$/;
const VIEWER = /^[A-Za-z0-9_-]{1,36}$/;
/** HMAC-SHA256 cut to 128 bits (as RFC 2104 allows): forging one still takes 2^128 tries. */
const SIGNATURE_BYTES = 16;

export const invalidMediaUrl = () => new AppError(403, 'media_url_invalid', 'This media link is not valid');
export const expiredMediaUrl = () =>
  new AppError(403, 'media_url_expired', 'This media link has expired; ask the scrape API for a new one');

/**
 * Signs and checks the access token of media URLs (decision 071): `<payload>.<signature>`, the payload
 * `<expiry>.<title>.<viewer>` in plain sight (the player reads the expiry to renew in time), the
 * signature HMAC-SHA256 over the scope (which files) and the payload.
 */
export class MediaUrlSigner {
  constructor(
    private readonly key: string,
    private readonly o: { ttlMs: number; now: () => number },
  ) {}

  /** A grant for `viewer` to play `media`, from now for the signer's lifetime. */
  grant(viewer: string, media: { type: 'movie' | 'show'; tmdbId: string }): MediaGrant {
    const expiresAt = Math.ceil((this.o.now() + this.o.ttlMs) / 1000) * 1000;
    return { viewer, type: media.type, tmdbId: media.tmdbId, expiresAt };
  }

  sign(scope: MediaScope, grant: MediaGrant): string {
    if (grant.viewer !== ANYONE && !VIEWER.test(grant.viewer)) throw new Error('account ids are base64url');
    const expiry = (grant.expiresAt / 1000).toString(36);
    const payload = `${expiry}.${grant.type === 'movie' ? 'm' : 's'}${grant.tmdbId}.${grant.viewer || '~'}`;
    return `${payload}.${this.signature(scope, payload).toString('base64url')}`;
  }

  /** The grant a token carries for `scope`; 403 `media_url_invalid` or `media_url_expired` otherwise. */
  verify(scope: MediaScope, token: string): MediaGrant {
    const match = TOKEN.exec(token);
    if (!match) throw invalidMediaUrl();
    const [, expiry, type, tmdbId, viewer, signature] = match as unknown as string[];
    // Compared as text: base64url has several spellings of the last character, only ours is valid.
    const given = Buffer.from(signature!);
    const expected = Buffer.from(
      this.signature(scope, token.slice(0, token.length - signature!.length - 1)).toString('base64url'),
    );
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidMediaUrl();
    const expiresAt = parseInt(expiry!, 36) * 1000;
    if (expiresAt <= this.o.now()) throw expiredMediaUrl();
    return {
      viewer: viewer === '~' ? ANYONE : viewer!,
      type: type === 'm' ? 'movie' : 'show',
      tmdbId: tmdbId!,
      expiresAt,
    };
  }

  /** Whole seconds until the grant expires (0 once it has). */
  secondsLeft(grant: MediaGrant): number {
    return Math.max(0, Math.floor((grant.expiresAt - this.o.now()) / 1000));
  }

  private signature(scope: MediaScope, payload: string): Buffer {
    return createHmac('sha256', this.key)
      .update(`marquee-media\n${scope}\n${payload}`)
      .digest()
      .subarray(0, SIGNATURE_BYTES);
  }
}
