import type { SettingsSecrets } from '../settings/settings-secrets.ts';
import type { LibraryRef } from '../library/library.ts';
import { TraktError, type TraktApi, type TraktToken } from './trakt-api.ts';
import type { TraktLinkRow, TraktRepository } from './trakt.repository.ts';

/** Refresh a token this long before Trakt says it expires. */
const REFRESH_AHEAD_MS = 60 * 60_000;

/** Trakt no longer takes this library's tokens: the viewer must link again. */
export class TraktRelinkNeeded extends Error {
  constructor() {
    super('Trakt refused the tokens: link again');
    this.name = 'TraktRelinkNeeded';
  }
}

const context = (lib: LibraryRef, kind: string) => `trakt:${lib.userId}:${lib.profileId}:${kind}`;

/**
 * A library's Trakt tokens: sealed at rest with the settings-secrets key (decision 094), refreshed ahead
 * of their expiry and after a 401, and given up (state `relink`) when Trakt refuses the refresh too.
 */
export class TraktTokens {
  constructor(
    private readonly repo: TraktRepository,
    private readonly api: TraktApi,
    private readonly secrets: SettingsSecrets,
    private readonly now: () => number,
  ) {}

  async seal(lib: LibraryRef, kind: string, value: string): Promise<string> {
    return (await this.secrets.get()).seal(value, context(lib, kind));
  }

  async open(lib: LibraryRef, kind: string, envelope: string | null): Promise<string | undefined> {
    if (!envelope) return undefined;
    return (await this.secrets.get()).open(envelope, context(lib, kind));
  }

  /** The columns a new token fills. */
  async columnsOf(lib: LibraryRef, token: TraktToken) {
    return {
      access_token: await this.seal(lib, 'access', token.access_token),
      refresh_token: await this.seal(lib, 'refresh', token.refresh_token),
      token_expires_at: (token.created_at || Math.floor(this.now() / 1000)) * 1000 + token.expires_in * 1000,
    };
  }

  /** Runs `work` with a valid access token: refreshed first when due, and once more after a 401. */
  async with<T>(lib: LibraryRef, link: TraktLinkRow, work: (token: string) => Promise<T>): Promise<T> {
    let token = await this.open(lib, 'access', link.access_token);
    if (!token || Number(link.token_expires_at ?? 0) - REFRESH_AHEAD_MS <= this.now())
      token = await this.refresh(lib, link);
    try {
      return await work(token);
    } catch (error) {
      if (!(error instanceof TraktError) || error.failure !== 'unauthorized') throw error;
      return work(await this.refresh(lib, link));
    }
  }

  private async refresh(lib: LibraryRef, link: TraktLinkRow): Promise<string> {
    const refreshToken = await this.open(lib, 'refresh', link.refresh_token);
    if (!refreshToken) return this.giveUp(lib);
    let token: TraktToken;
    try {
      token = await this.api.refresh(refreshToken);
    } catch (error) {
      if (error instanceof TraktError && (error.failure === 'unauthorized' || error.failure === 'pending'))
        return this.giveUp(lib);
      throw error;
    }
    const columns = await this.columnsOf(lib, token);
    await this.repo.updateLink(lib, { ...columns, updated_at: this.now() });
    Object.assign(link, columns);
    return token.access_token;
  }

  private async giveUp(lib: LibraryRef): Promise<never> {
    await this.repo.updateLink(lib, {
      state: 'relink',
      access_token: null,
      refresh_token: null,
      updated_at: this.now(),
    });
    throw new TraktRelinkNeeded();
  }
}
