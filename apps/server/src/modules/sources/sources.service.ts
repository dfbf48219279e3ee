import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ContentLimit, ProviderMetaWire } from '@marquee/contract';
import { sourcePaths } from '@marquee/contract';
import {
  makeLinksSource,
  makeProviders,
  makeSampleEmbeds,
  makeSampleSource,
  makeStandardFetcher,
  NotFoundError,
  SAMPLE_FILE_EMBED_ID,
  SAMPLE_HLS_EMBED_ID,
  targets,
  type Embed,
  type EmbedOutput,
  type FetchLike,
  type FullScraperEvents,
  type IndividualScraperEvents,
  type ProviderControls,
  type RunOutput,
  type ScrapeMedia,
  type Sourcerer,
  type SourcererOutput,
} from '@marquee/providers';
import { AppError } from '../../errors.ts';
import { ContentLimits, overContentLimit } from '../metadata/content-limits.ts';
import type { LibraryIndexer, LibrarySubtitle, LibraryVideo } from './library-index.ts';
import { makeLibrarySource, type LibraryUrls } from './library-source.ts';
import type { MediaPipeline } from '../media/media-pipeline.ts';
import { thumbnailSourceOf, thumbnailsPath, type Thumbnails } from '../media/thumbnails.ts';
import { masterPlaylist, mediaPlaylist } from '../media/hls-playlists.ts';
import { deviceCodecs, hlsVariants, parsePlanId, planId } from '../media/playback-plan.ts';
import { assertReleased, lookUpRelease, type ReleaseMetadata } from './release-check.ts';
import type { LinksFile } from './links-file.ts';
import { ANYONE, type MediaGrant, type MediaScope, type MediaUrlSigner } from './media-access.ts';
import type { ScrapeTokens } from './scrape-token.ts';
import type { TakedownList } from './takedown.ts';

const HLS_PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';

/** A file of an HLS rendition: a playlist's text, a segment's bytes, or an init segment on disk. */
export type HlsAnswer =
  | { kind: 'text'; type: string; body: string }
  | { kind: 'bytes'; type: string; body: Buffer }
  | { kind: 'file'; type: string; path: string };

/** Longest a single provider may take in one run (a stuck host must not hold the viewer forever). */
export const PROVIDER_TIMEOUT_MS = 15_000;

/**
 * Checks a human-verification token; the captcha module's verifier fits. Throws an AppError with a
 * captcha_* code when the token is missing or wrong.
 */
export interface HumanCheck {
  readonly provider: string;
  verify(token: string | undefined, remoteIp: string): Promise<void>;
}

/** Who may resolve sources for a title: the membership module's gate in the subscription variant. */
export interface PlaybackAccess {
  /** Throws an AppError (401 login_required, 402 membership_required) when the caller may not play it. */
  assertCanPlay(token: string | undefined, media: Pick<ScrapeMedia, 'type' | 'tmdbId'>): Promise<void>;
  /** An account's membership (`active`: it covers now). Media requests check it again (decision 071). */
  membershipOf(userId: string): Promise<{ active: boolean }>;
}

/** The accounts behind playback tokens: whose a token is, and who is an admin (admins play without a membership). */
export interface Viewers {
  authenticate(
    token: string,
    userAgent: string,
  ): Promise<{ userId: string; sessionId: string; kidsProfileId?: string | null } | null>;
  isAdmin(userId: string): Promise<boolean>;
  /**
   * 403 `profile_locked` when the profile the viewer plays for (X-Profile-Id; none = the account's own)
   * has a PIN this device has not entered (X-Profile-Token), 404 for a profile not theirs (decision 104).
   */
  assertProfileOpen(
    auth: { userId: string; sessionId: string },
    profile: { id: string | string[] | undefined; token: string | string[] | undefined },
  ): Promise<void>;
  /** The limit of the kids' profile the viewer's session is in, or null (decision 106). */
  limitOf(
    auth: { userId: string; kidsProfileId?: string | null },
    profileHeader: string | string[] | undefined,
  ): Promise<ContentLimit | null>;
}

/** The profile a playback request is for, as its headers name it. */
export interface PlaybackProfile {
  id: string | string[] | undefined;
  token: string | string[] | undefined;
}

export interface SourcesServiceOptions {
  /** Folder of the sample media (apps/server/assets/samples). */
  samplesDir: string;
  library?: LibraryIndexer;
  /** ffmpeg's conversions for the library; absent when ffmpeg is not found. */
  pipeline?: MediaPipeline;
  /** Seek thumbnails of library videos (decision 086). */
  thumbnails?: Thumbnails;
  links?: LinksFile;
  takedown: TakedownList;
  sourceOrder: readonly string[];
  disabledSources: readonly string[];
  fetch: FetchLike;
  /** When set, scraping needs a solved captcha or a scrape token. */
  scrapeGate?: { humanCheck: HumanCheck; tokens: ScrapeTokens };
  /** When set, resolving a title's sources needs the caller's permission (membership). */
  playbackAccess?: PlaybackAccess;
  /** Who the playback tokens belong to: media URLs are signed for them (decision 071). */
  viewers?: Viewers;
  /** Signs the sample and library URLs handed out, and checks them on every media request. */
  mediaUrls: MediaUrlSigner;
  /** Where release dates come from (the metadata module) and the time: unreleased media are refused. */
  releases?: { metadata: ReleaseMetadata; now: () => Date };
}

export interface RunOptions {
  /** Origin of the request (`https://host`): stream URLs are absolute so any player can use them. */
  origin: string;
  signal?: AbortSignal;
  /** The account the media URLs are signed for (`assertPlayable`'s answer); ANYONE when absent. */
  viewer?: string;
  /** What the viewer's device plays (the scrape's `codecs`, `audioLanguage`). */
  device?: { codecs?: string | undefined; audioLanguage?: string | undefined };
}

const libraryFilePath = (access: string, id: string, name: string) =>
  sourcePaths.libraryFile
    .replace(':access', access)
    .replace(':fileId', encodeURIComponent(id))
    .replace(':name', encodeURIComponent(name));
/** Under the file's own URL prefix, so the file's access token covers them (decision 071). */
const libraryHlsPath = (access: string, id: string, plan: string, name: string) =>
  sourcePaths.libraryHls
    .replace(':access', access)
    .replace(':fileId', encodeURIComponent(id))
    .replace(':plan', plan)
    .replace(':name', name);
const librarySubtitlePath = (access: string, id: string, name: string) =>
  sourcePaths.librarySubtitle
    .replace(':access', access)
    .replace(':fileId', encodeURIComponent(id))
    .replace(':name', name);

const SAMPLE_EMBEDS: readonly string[] = [SAMPLE_HLS_EMBED_ID, SAMPLE_FILE_EMBED_ID];

const loginRequired = () =>
  new AppError(401, 'login_required', 'Sign in and start a membership to watch this title');
const membershipRequired = () =>
  new AppError(402, 'membership_required', 'A membership is needed to watch this title');

/** How the media URLs of one run are signed: a grant (signed per file), or the sample token of an embed URL. */
interface UrlAccess {
  grant?: MediaGrant;
  sampleToken?: string;
  device?: RunOptions['device'];
}

/** Owns the scrape rules: which providers run and in what order, takedowns, and the captcha gate. */
export class SourcesService {
  constructor(private readonly o: SourcesServiceOptions) {}

  get samplesDir(): string {
    return this.o.samplesDir;
  }

  /**
   * The providers for one request; cheap to build. Their URLs carry the request's origin and, for the
   * sample and the library, an access token signed for the grant (decision 071).
   */
  controls(origin: string, access: UrlAccess = {}): ProviderControls {
    const sources: Sourcerer[] = [];
    const embeds: Embed[] = [];
    const { grant } = access;
    const urls = this.o.mediaUrls;
    if (this.o.library) {
      const tokenOf = (id: string) => (grant ? urls.sign(`library:${id}`, grant) : '-');
      const libraryUrls: LibraryUrls = {
        file: (file) => `${origin}${libraryFilePath(tokenOf(file.id), file.id, file.name)}`,
        hls: (file, plan) =>
          `${origin}${libraryHlsPath(tokenOf(file.id), file.id, planId(plan), 'master.m3u8')}`,
        thumbnails: async (file) => {
          const source = this.o.thumbnails && thumbnailSourceOf(file);
          return source && (await this.o.thumbnails!.ensure(source))
            ? `${origin}${thumbnailsPath(tokenOf(file.id), file.id)}`
            : undefined;
        },
        subtitle: (file, index) =>
          `${origin}${librarySubtitlePath(tokenOf(file.id), file.id, index === null ? 'file.vtt' : `${index}.vtt`)}`,
        ass: (file, index) =>
          `${origin}${librarySubtitlePath(tokenOf(file.id), file.id, index === null ? 'file.ass' : `${index}.ass`)}`,
      };
      sources.push(
        makeLibrarySource(this.o.library, libraryUrls, {
          codecs: deviceCodecs(access.device?.codecs),
          audioLanguage: access.device?.audioLanguage,
          canConvert: this.o.pipeline !== undefined,
          canTranscode: this.o.pipeline?.canTranscode ?? false,
        }),
      );
    }
    if (this.o.links) sources.push(makeLinksSource(this.o.links));
    const sampleToken = access.sampleToken ?? (grant ? urls.sign('sample', grant) : '-');
    const sample = { assetsUrl: `${origin}${sourcePaths.sampleAssets}/${sampleToken}` };
    sources.push(makeSampleSource(sample));
    embeds.push(...makeSampleEmbeds(sample));
    const disabled = new Set(this.o.disabledSources);
    const off = <T extends { id: string }>(p: T) => (disabled.has(p.id) ? { ...p, disabled: true } : p);
    return makeProviders({
      sources: sources.map(off),
      embeds: embeds.map(off),
      fetcher: makeStandardFetcher(this.o.fetch),
      // Streams found here are played by a browser without the extension.
      target: targets.BROWSER,
      sourceOrder: this.o.sourceOrder,
      timeoutMs: PROVIDER_TIMEOUT_MS,
    });
  }

  /** `[embeds, sources]`, as the app family's `/metadata`. */
  metadata(): [ProviderMetaWire[], ProviderMetaWire[]] {
    const controls = this.controls('http://localhost');
    return [controls.listEmbeds(), controls.listSources()];
  }

  hasSource(id: string): boolean {
    return this.controls('http://localhost').getMetadata(id)?.type === 'source';
  }

  hasEmbed(id: string): boolean {
    return this.controls('http://localhost').getMetadata(id)?.type === 'embed';
  }

  /** Taken-down titles answer "Media has been removed" (HTTP 451) before anything is scraped. */
  async assertAvailable(media: Pick<ScrapeMedia, 'type' | 'tmdbId'>): Promise<void> {
    if (await this.o.takedown.isRemoved(media.type, media.tmdbId)) {
      throw new AppError(451, 'media_removed', 'Media has been removed');
    }
  }

  /**
   * Titles and episodes that are not out yet (a future date or none, in the metadata) answer 403
   * media_unreleased before anything is scraped, whichever source would answer (the library included).
   * It fails closed (release-check.ts): media the metadata does not list answer 404 media_not_found, and
   * while the metadata cannot answer (and has nothing cached) 503 metadata_unavailable.
   */
  async assertReleased(media: ScrapeMedia): Promise<void> {
    const releases = this.o.releases;
    if (!releases) return;
    assertReleased(await lookUpRelease(releases.metadata, media), releases.now());
  }

  /**
   * The membership gate (`token`: the caller's bearer token, if any). Answers whom the media URLs are
   * for: ANYONE when the title is open to anyone (an open instance, the free movie), else the account.
   */
  async assertPlayable(
    token: string | undefined,
    media: Pick<ScrapeMedia, 'type' | 'tmdbId'>,
    profile: PlaybackProfile = { id: undefined, token: undefined },
  ): Promise<string> {
    // A signed-in viewer plays for one of their profiles, which must be open on this device (decision 104).
    const auth = token && this.o.viewers ? await this.o.viewers.authenticate(token, '') : null;
    if (auth) {
      await this.o.viewers!.assertProfileOpen(auth, profile);
      await this.assertWithinLimit(await this.o.viewers!.limitOf(auth, profile.id), media);
    }
    const access = this.o.playbackAccess;
    if (!access || (await this.openToAnyone(media))) return ANYONE;
    await access.assertCanPlay(token, media);
    return auth?.userId ?? ANYONE;
  }

  /**
   * A kids' profile plays only titles within its limit (decision 106): 403 `over_content_limit`, also
   * when this server has no metadata to check the title's rating against.
   */
  private async assertWithinLimit(
    limit: ContentLimit | null,
    media: Pick<ScrapeMedia, 'type' | 'tmdbId'>,
  ): Promise<void> {
    if (!limit) return;
    if (!this.o.releases) throw overContentLimit();
    const type = media.type === 'show' ? 'tv' : 'movie';
    await new ContentLimits(this.o.releases.metadata).assertAllowed(limit, type, media.tmdbId);
  }

  /** Whether the gate lets anyone play the title, signed in or not (no database work: no token). */
  private async openToAnyone(media: Pick<ScrapeMedia, 'type' | 'tmdbId'>): Promise<boolean> {
    try {
      await this.o.playbackAccess?.assertCanPlay(undefined, media);
      return true;
    } catch (error) {
      if (error instanceof AppError && (error.status === 401 || error.status === 402)) return false;
      throw error;
    }
  }

  /**
   * Every request for a sample or library file: the token must be signed for these files and not
   * expired (403 media_url_invalid / media_url_expired), the title not taken down since (451), and its
   * viewer still allowed to play it — a membership that ended stops its URLs at once (401/402).
   */
  async authorizeMedia(scope: MediaScope, token: string): Promise<MediaGrant> {
    const grant = this.o.mediaUrls.verify(scope, token);
    await this.assertAvailable(grant);
    const access = this.o.playbackAccess;
    if (!access || (await this.openToAnyone(grant))) return grant;
    if (grant.viewer === ANYONE || !this.o.viewers) throw loginRequired();
    if ((await access.membershipOf(grant.viewer)).active) return grant;
    if (await this.o.viewers.isAdmin(grant.viewer)) return grant;
    throw membershipRequired();
  }

  /**
   * The captcha gate of server-side scraping. Accepts `jwt|<token>` while it is valid, or a solved
   * captcha as `<provider>|<token>` (then answers a fresh JWT for the client to reuse).
   */
  async authorize(rawToken: string | undefined, remoteIp: string): Promise<{ freshToken?: string }> {
    const gate = this.o.scrapeGate;
    if (!gate) return {};
    if (!rawToken)
      throw new AppError(401, 'captcha_required', 'Human verification is required before scraping');
    const bar = rawToken.indexOf('|');
    const kind = bar === -1 ? '' : rawToken.slice(0, bar);
    const value = bar === -1 ? rawToken : rawToken.slice(bar + 1);
    if (kind === 'jwt') {
      if (await gate.tokens.isValid(value)) return {};
      throw new AppError(401, 'captcha_invalid', 'The scrape token has expired or is not valid');
    }
    if (kind !== gate.humanCheck.provider && kind !== 'captcha') {
      throw new AppError(
        401,
        'captcha_invalid',
        `Expected a ${gate.humanCheck.provider} token or a scrape token`,
      );
    }
    try {
      await gate.humanCheck.verify(value, remoteIp);
    } catch (error) {
      // The verifier speaks for sign-up (400); for a stream the family's clients expect 401.
      if (error instanceof AppError && error.status === 400)
        throw new AppError(401, error.code, error.message);
      throw error;
    }
    return { freshToken: await gate.tokens.issue() };
  }

  async scrapeAll(
    media: ScrapeMedia,
    o: RunOptions & { events: FullScraperEvents; sourceOrder?: readonly string[] },
  ): Promise<RunOutput | null> {
    return this.controls(o.origin, { grant: this.grantOf(media, o), device: o.device }).runAll({
      media,
      events: o.events,
      ...(o.sourceOrder ? { sourceOrder: o.sourceOrder } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    });
  }

  async scrapeSource(
    id: string,
    media: ScrapeMedia,
    o: RunOptions & { events: IndividualScraperEvents },
  ): Promise<SourcererOutput> {
    return this.controls(o.origin, { grant: this.grantOf(media, o), device: o.device }).runSourceScraper({
      id,
      media,
      events: o.events,
      ...(o.signal ? { signal: o.signal } : {}),
    });
  }

  /**
   * One embed on a URL. The sample embeds take only URLs of a sample folder signed by this instance and
   * not expired, and answer URLs under the same token (the embed step has no title, so it adds no grant).
   */
  async scrapeEmbed(
    id: string,
    url: string,
    o: RunOptions & { events: IndividualScraperEvents },
  ): Promise<EmbedOutput> {
    const sampleToken = this.sampleTokenOf(url, o.origin);
    if (SAMPLE_EMBEDS.includes(id) && !sampleToken) {
      throw new NotFoundError('not a sample link of this instance, or it has expired');
    }
    return this.controls(o.origin, sampleToken ? { sampleToken } : {}).runEmbedScraper({
      id,
      url,
      events: o.events,
      ...(o.signal ? { signal: o.signal } : {}),
    });
  }

  private grantOf(media: ScrapeMedia, o: RunOptions): MediaGrant {
    return this.o.mediaUrls.grant(o.viewer ?? ANYONE, media);
  }

  /** The valid, unexpired access token of a sample URL of this origin, or null. */
  private sampleTokenOf(url: string, origin: string): string | null {
    const prefix = `${origin}${sourcePaths.sampleAssets}/`;
    if (!url.startsWith(prefix)) return null;
    const token = url.slice(prefix.length).split('/')[0]!;
    try {
      this.o.mediaUrls.verify('sample', token);
      return token;
    } catch {
      return null;
    }
  }

  /** Media stay in the viewer's browser only (never a shared cache): at most an hour, never past the URL's expiry. */
  mediaCacheControl(grant: MediaGrant): string {
    return `private, max-age=${Math.min(3600, this.o.mediaUrls.secondsLeft(grant))}`;
  }

  /** A library file by its id, or a 404 (also when the instance has no library). */
  async libraryFile(id: string): Promise<LibraryVideo | LibrarySubtitle> {
    const file = /^[A-Za-z0-9_-]{22}$/.test(id) && this.o.library ? await this.o.library.file(id) : null;
    if (!file) throw new AppError(404, 'file_not_found', 'No such media file');
    return file;
  }

  /**
   * A library video and one of its plans, as the conversions take them (the HLS routes, and what a peer
   * server asks this one to convert: decision 087); null when the file or the plan is not one.
   */
  async libraryConversion(fileId: string, plan: string) {
    const file = await this.libraryFile(fileId).catch((error: unknown) => {
      if (error instanceof AppError && error.status === 404) return null;
      throw error;
    });
    const info = file?.kind === 'video' ? file.info : null;
    const parsed = info ? parsePlanId(plan, info) : null;
    if (!file || file.kind !== 'video' || !info?.video || !parsed) return null;
    return {
      file: { id: file.id, path: file.path, info, size: file.size, mtimeMs: file.mtimeMs },
      plan: parsed,
      video: info.video,
    };
  }

  /**
   * One file of an HLS rendition of a library video (docs/decisions/085-library-pipeline.md): the master
   * playlist, the rendition's playlist, its init segment or a media segment (converted now if need be).
   * The plan comes from the URL but is accepted only when it fits the file's probe (`parsePlanId`).
   */
  async libraryHls(fileId: string, plan: string, name: string, viewer: string): Promise<HlsAnswer> {
    const pipeline = this.o.pipeline;
    const found = await this.libraryConversion(fileId, plan);
    if (!pipeline || !found) throw new AppError(404, 'file_not_found', 'No such media file');
    const { file: convertible, plan: parsed } = found;
    const info = convertible.info;
    if (name === 'master.m3u8') {
      const variants = hlsVariants(info, found.video, {
        copy: parsed.video === 'copy',
        audio: parsed.audio,
        burn: parsed.burn,
      });
      return { kind: 'text', type: HLS_PLAYLIST_TYPE, body: masterPlaylist(variants, info) };
    }
    if (name === 'index.m3u8') {
      const segments = await pipeline.conversions.segments(convertible, parsed);
      return { kind: 'text', type: HLS_PLAYLIST_TYPE, body: mediaPlaylist(segments) };
    }
    if (name === 'init.mp4')
      return {
        kind: 'file',
        type: 'video/mp4',
        path: await pipeline.conversions.initSegment(convertible, parsed, viewer),
      };
    const segment = /^(\d{1,6})\.m4s$/.exec(name);
    if (!segment) throw new AppError(404, 'file_not_found', 'No such media file');
    const body = await pipeline.conversions.segment(convertible, parsed, Number(segment[1]), viewer);
    return { kind: 'bytes', type: 'video/iso.segment', body };
  }

  /**
   * A subtitle as WebVTT: an embedded text stream of a video (`<stream>.vtt`), or a styled subtitle file
   * beside it (`file.vtt`, ASS/SSA). Converted by ffmpeg once, then kept.
   */
  async librarySubtitle(fileId: string, name: string): Promise<string> {
    const pipeline = this.o.pipeline;
    const file = await this.libraryFile(fileId);
    const notFound = () => new AppError(404, 'file_not_found', 'No such subtitle');
    if (!pipeline) throw notFound();
    if (file.kind === 'video') {
      const match = /^(\d{1,3})\.vtt$/.exec(name);
      const index = match ? Number(match[1]) : -1;
      const stream = file.info?.subtitles.find((s) => s.index === index);
      if (!stream || stream.kind !== 'text') throw notFound();
      return pipeline.subtitles.vtt(
        `${file.id}-${index}-${file.size}-${Math.round(file.mtimeMs)}`,
        file.path,
        index,
      );
    }
    if (name !== 'file.vtt') throw notFound();
    const info = await stat(file.path);
    return pipeline.subtitles.vtt(
      `${file.id}-file-${info.size}-${Math.round(info.mtimeMs)}`,
      file.path,
      null,
    );
  }

  /**
   * An ASS/SSA subtitle as an ASS script with its own styles, for the player's styled renderer
   * (docs/decisions/085-library-pipeline.md): an embedded ASS/SSA stream of a video (`<stream>.ass`), or
   * an ASS/SSA file beside it (`file.ass`). Written by ffmpeg once (UTF-8), then kept.
   */
  async libraryAss(fileId: string, name: string): Promise<string> {
    const pipeline = this.o.pipeline;
    const file = await this.libraryFile(fileId);
    const notFound = () => new AppError(404, 'file_not_found', 'No such subtitle');
    if (!pipeline) throw notFound();
    const styled = (codec: string) => codec === 'ass' || codec === 'ssa';
    if (file.kind === 'video') {
      const match = /^(\d{1,3})\.ass$/.exec(name);
      const index = match ? Number(match[1]) : -1;
      const stream = file.info?.subtitles.find((s) => s.index === index);
      if (!stream || !styled(stream.codec)) throw notFound();
      return pipeline.subtitles.ass(
        `${file.id}-${index}-${file.size}-${Math.round(file.mtimeMs)}`,
        file.path,
        index,
      );
    }
    if (name !== 'file.ass' || !styled(file.format)) throw notFound();
    const info = await stat(file.path);
    return pipeline.subtitles.ass(
      `${file.id}-file-${info.size}-${Math.round(info.mtimeMs)}`,
      file.path,
      null,
    );
  }

  /** Splits a sample asset path (`hls/360p/seg-0.ts`) into folder and name, refusing anything odd. */
  sampleFile(relative: string): { dir: string; fileName: string } {
    if (!/^(?:[a-z0-9][a-z0-9_-]*\/){0,3}[a-z0-9][a-z0-9_.-]*$/i.test(relative) || relative.includes('..')) {
      throw new AppError(404, 'file_not_found', 'No such sample file');
    }
    const segments = relative.split('/');
    return { dir: path.join(this.o.samplesDir, ...segments.slice(0, -1)), fileName: segments.at(-1)! };
  }
}
