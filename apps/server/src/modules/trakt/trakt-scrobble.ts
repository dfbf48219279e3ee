import { SAME_PLAY_WINDOW_MS, type TraktScrobbleBody } from '@marquee/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { LibraryRef } from '../library/library.ts';
import { TraktError, type TraktApi } from './trakt-api.ts';
import { itemOf, partsOf } from './trakt-items.ts';
import type { TraktTokens } from './trakt-tokens.ts';
import type { TraktRepository } from './trakt.repository.ts';

/** Trakt records a play when a scrobble stops at this many percent or more. */
const SCROBBLE_PLAY_PERCENT = 80;

/**
 * Forwards what the player does to Trakt (decision 101), in the background: the viewer's request is
 * answered before Trakt is asked, so Trakt being slow or down never delays playback. A stop that would
 * record a play is sent as a pause when this library's ledger already has a play of that title within
 * the same-play window (another device scrobbled it, or it was sent): each play reaches Trakt once.
 */
export class TraktScrobbler {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly repo: TraktRepository,
    private readonly api: TraktApi,
    private readonly tokens: TraktTokens,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Whether the library is linked (then the scrobble is on its way). */
  async forward(lib: LibraryRef, body: TraktScrobbleBody): Promise<boolean> {
    const link = await this.repo.link(lib);
    const item = itemOf(body);
    if (link?.state !== 'linked' || !item) return false;
    const job = this.send(lib, item, body)
      .catch((error: unknown) => {
        if (!(error instanceof TraktError)) this.log.warn({ err: error }, 'a Trakt scrobble failed');
      })
      .finally(() => this.inFlight.delete(job));
    this.inFlight.add(job);
    return true;
  }

  /** Waits for the scrobbles on their way (the server is closing). */
  async settle(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  private async send(lib: LibraryRef, item: string, body: TraktScrobbleBody): Promise<void> {
    const link = await this.repo.link(lib);
    if (link?.state !== 'linked') return;
    let action = body.action;
    if (action === 'stop' && body.progress >= SCROBBLE_PLAY_PERCENT) {
      const held = await this.repo.playsOfItemSince(lib, item, this.now() - SAME_PLAY_WINDOW_MS);
      if (held.length > 0) action = 'pause';
    }
    const parts = partsOf(item);
    const payload =
      parts.type === 'movie'
        ? { movie: { ids: { tmdb: parts.tmdb } }, progress: body.progress }
        : {
            show: { ids: { tmdb: parts.tmdb } },
            episode: { season: parts.season, number: parts.episode },
            progress: body.progress,
          };
    const answer = await this.tokens.with(lib, link, (token) => this.api.scrobble(token, action, payload));
    if (answer.action !== 'scrobble') return;
    const now = this.now();
    await this.repo.addPlays([
      {
        user_id: lib.userId,
        profile_id: lib.profileId,
        item,
        tmdb_id: String(parts.tmdb),
        media_type: parts.type,
        season_id: '',
        episode_id: '',
        marquee_at: null,
        trakt_id: null,
        trakt_at: now,
        origin: 'scrobbled',
        created_at: now,
      },
    ]);
  }
}
