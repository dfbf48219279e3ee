import type { TraktProblem, TraktStatus } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import { iso, type LibraryRef } from '../library/library.ts';
import { TraktError, type TraktApi } from './trakt-api.ts';
import type { TraktTokens } from './trakt-tokens.ts';
import type { TraktLinkRow, TraktRepository } from './trakt.repository.ts';

const isoOrNull = (ms: number | null) => (ms === null ? null : iso(Number(ms)));

function emptyLink(lib: LibraryRef, now: number): TraktLinkRow {
  return {
    user_id: lib.userId,
    profile_id: lib.profileId,
    state: 'unlinked',
    device_code: null,
    user_code: null,
    verification_url: null,
    device_expires_at: null,
    poll_interval_ms: null,
    next_poll_at: null,
    access_token: null,
    refresh_token: null,
    token_expires_at: null,
    username: null,
    linked_at: null,
    last_sync_at: null,
    next_sync_at: null,
    lease_until: 0,
    activities: null,
    history_version: -1,
    bookmarks_version: -1,
    ratings_version: -1,
    problem: null,
    updated_at: now,
  };
}

/**
 * Linking a library to a Trakt account with Trakt's device flow (decision 101): the server asks for a
 * code, the viewer enters it at Trakt, the server asks Trakt (at most once per its interval, across
 * processes) whether it was entered while the viewer's page reads the status. Unlinking revokes the
 * tokens at Trakt when it answers and forgets everything here in any case.
 */
export class TraktLinkService {
  constructor(
    private readonly repo: TraktRepository,
    /** Undefined: this instance has no Trakt app configured. */
    private readonly api: TraktApi | undefined,
    private readonly tokens: TraktTokens | undefined,
    private readonly now: () => number,
    /** Runs a pass of the library soon ("Sync now", a link just made). */
    private readonly kick: (lib: LibraryRef) => void = () => {},
  ) {}

  get available(): boolean {
    return this.api !== undefined;
  }

  async status(lib: LibraryRef): Promise<TraktStatus> {
    let link = await this.repo.link(lib);
    if (link?.state === 'pending') link = await this.poll(lib, link);
    return this.statusOf(link);
  }

  async link(lib: LibraryRef): Promise<TraktStatus> {
    if (!this.api || !this.tokens)
      throw new AppError(503, 'trakt_not_configured', 'This instance is not set up to link Trakt');
    const held = await this.repo.link(lib);
    if (held?.state === 'linked') return this.statusOf(held);
    const device = await this.api.deviceCode().catch(() => {
      throw new AppError(502, 'trakt_unavailable', 'Trakt did not answer; try again in a moment');
    });
    const now = this.now();
    const interval = Math.max(1, device.interval) * 1000;
    const row: TraktLinkRow = {
      ...(held ?? emptyLink(lib, now)),
      state: 'pending',
      device_code: await this.tokens.seal(lib, 'device', device.device_code),
      user_code: device.user_code,
      verification_url: device.verification_url,
      device_expires_at: now + device.expires_in * 1000,
      poll_interval_ms: interval,
      next_poll_at: now + interval,
      problem: null,
      updated_at: now,
    };
    await this.repo.putLink(row);
    return this.statusOf(row);
  }

  async unlink(lib: LibraryRef): Promise<TraktStatus> {
    const held = await this.repo.link(lib);
    const token = held && this.tokens ? await this.tokens.open(lib, 'access', held.access_token) : undefined;
    // Trakt forgets the tokens when it answers; here they go in any case.
    if (token) await this.api?.revoke(token).catch(() => undefined);
    await this.repo.removeAll(lib);
    return this.statusOf(undefined);
  }

  async requestSync(lib: LibraryRef): Promise<TraktStatus> {
    const held = await this.repo.link(lib);
    if (held?.state !== 'linked') throw new AppError(409, 'trakt_not_linked', 'Link a Trakt account first');
    const now = this.now();
    await this.repo.updateLink(lib, { next_sync_at: now, updated_at: now });
    this.kick(lib);
    return this.statusOf({ ...held, next_sync_at: now });
  }

  /** Asks Trakt whether the code was entered, when its interval has passed (one process asks). */
  private async poll(lib: LibraryRef, link: TraktLinkRow): Promise<TraktLinkRow | undefined> {
    const now = this.now();
    if (now >= Number(link.device_expires_at ?? 0)) return this.endPending(lib, link, 'link_expired');
    if (!this.api || !this.tokens) return link;
    const interval = Number(link.poll_interval_ms ?? 5000);
    if (!(await this.repo.claimPoll(lib, now, now + interval))) return link;
    const code = await this.tokens.open(lib, 'device', link.device_code);
    if (!code) return this.endPending(lib, link, 'link_expired');
    try {
      const token = await this.api.deviceToken(code);
      const columns = await this.tokens.columnsOf(lib, token);
      const username = await this.api.username(token.access_token).catch(() => null);
      return await this.linked(lib, link, { ...columns, username });
    } catch (error) {
      if (!(error instanceof TraktError)) throw error;
      if (error.failure === 'rate_limited') {
        await this.repo.updateLink(lib, { poll_interval_ms: interval + 1000 });
      } else if (error.failure === 'gone') {
        return this.endPending(lib, link, error.status === 418 ? 'link_denied' : 'link_expired');
      } else if (error.failure === 'conflict') {
        // Another process exchanged the code first.
        return this.repo.link(lib);
      }
      return link;
    }
  }

  private async linked(
    lib: LibraryRef,
    link: TraktLinkRow,
    columns: Pick<TraktLinkRow, 'access_token' | 'refresh_token' | 'token_expires_at' | 'username'>,
  ): Promise<TraktLinkRow> {
    const now = this.now();
    const sameAccount = link.username !== null && link.username === columns.username;
    if (!sameAccount) await this.repo.removeAll(lib);
    const row: TraktLinkRow = {
      ...(sameAccount ? link : emptyLink(lib, now)),
      ...columns,
      state: 'linked',
      device_code: null,
      user_code: null,
      verification_url: null,
      device_expires_at: null,
      next_poll_at: null,
      linked_at: now,
      next_sync_at: now,
      problem: null,
      updated_at: now,
    };
    await this.repo.putLink(row);
    this.kick(lib);
    return row;
  }

  private async endPending(
    lib: LibraryRef,
    link: TraktLinkRow,
    problem: TraktProblem,
  ): Promise<TraktLinkRow> {
    const row: TraktLinkRow = {
      ...link,
      // A library that was linked before (relink) stays so; a new one is unlinked.
      state: link.username ? 'relink' : 'unlinked',
      device_code: null,
      user_code: null,
      verification_url: null,
      device_expires_at: null,
      next_poll_at: null,
      problem,
      updated_at: this.now(),
    };
    await this.repo.putLink(row);
    return row;
  }

  statusOf(link: TraktLinkRow | undefined): TraktStatus {
    if (!this.available) return { ...UNLINKED, state: 'unavailable' };
    if (!link) return UNLINKED;
    const pending = link.state === 'pending';
    return {
      state: link.state,
      device: pending
        ? {
            userCode: link.user_code ?? '',
            verificationUrl: link.verification_url ?? '',
            expiresAt: iso(Number(link.device_expires_at)),
            interval: Math.ceil(Number(link.poll_interval_ms ?? 5000) / 1000),
          }
        : null,
      username: link.username,
      linkedAt: isoOrNull(link.linked_at),
      lastSyncAt: isoOrNull(link.last_sync_at),
      syncPending: link.state === 'linked' && Number(link.next_sync_at ?? Infinity) <= this.now(),
      problem: (link.problem as TraktProblem | null) ?? null,
    };
  }
}

const UNLINKED: TraktStatus = {
  state: 'unlinked',
  device: null,
  username: null,
  linkedAt: null,
  lastSyncAt: null,
  syncPending: false,
  problem: null,
};
