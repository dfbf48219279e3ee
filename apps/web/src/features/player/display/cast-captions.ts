import { CAST_CAPTION_MAX_BYTES } from '@marquee/contract/values';
import type { CastCaptionHosted } from '@marquee/contract';
import type { SubtitleStyling } from '../../../stores/index.ts';
import { toWebVtt } from '../captions/webvtt.ts';
import type { PlayerStore } from '../core/player-store.ts';
import type { SelectedCaption } from '../core/types.ts';
import {
  castEditTracks,
  castLoadRequest,
  castMediaInfo,
  type CastCaptionTrack,
  type CastEditTracksInfoRequest,
  type CastLoadRequest,
  type CastMediaApi,
} from './cast-media.ts';

/** The media playing on the receiver (`chrome.cast.media.Media`): the parts used. */
export interface CastMediaSession {
  playerState?: string;
  getEstimatedTime?(): number;
  editTracksInfo(
    request: CastEditTracksInfoRequest,
    onSuccess: () => void,
    onError: (error: unknown) => void,
  ): void;
}

/** A cast session (`cast.framework.CastSession`): the parts used. */
export interface CastSession {
  loadMedia(request: CastLoadRequest): Promise<unknown>;
  getMediaSession(): CastMediaSession | null;
}

/** The viewer's caption settings (the subtitles store, or a test's). */
export interface CaptionSettingsSource {
  getState(): { styling: SubtitleStyling; delay: number; overrideCasing: boolean };
  subscribe(
    listener: (state: { styling: SubtitleStyling }, previous: { styling: SubtitleStyling }) => void,
  ): () => void;
}

export interface CastCaptionDeps {
  store: PlayerStore;
  subtitles: CaptionSettingsSource;
  /** Relays a WebVTT text for the receiver (the server's caption relay, decision 113). */
  host(vtt: string): Promise<CastCaptionHosted>;
  now(): number;
  /** A language's name in the UI's language: the track's name on the receiver's controls. */
  languageName(code: string): string;
}

/** A caption relayed for this session, and what it was made from. */
interface Hosted {
  key: string;
  track: CastCaptionTrack;
  expiresAt: number;
}

/** A relayed caption this close to its expiry is relayed again rather than chosen (the receiver reads it then). */
export const CAST_CAPTION_REUSE_MARGIN_MS = 10 * 60_000;

const isForHardOfHearing = (label: string | undefined) => !!label && /\b(?:sdh|cc)\b|hearing/i.test(label);

/**
 * Keeps the receiver's captions those the viewer chose (decision 113). A session starts by loading the
 * media with the caption shown now as its text track (relayed as WebVTT). While it lasts, Off or another
 * caption already loaded is an `editTracksInfo`; a caption not loaded yet is relayed and the media loaded
 * again where the receiver is (Cast takes new tracks only with a load); a style change is an edit. Steps
 * run one after another, each reading the choice as it is then, so a later choice never loses to an
 * earlier upload. A change of delay or casing reaches the receiver with the next caption chosen.
 */
export class CastCaptionSync {
  private session: CastSession | null = null;
  private media: { url: string; isHls: boolean } | null = null;
  /** The tracks of the media loaded on the receiver. */
  private loaded: Hosted[] = [];
  /** The caption (key) and style the receiver shows, as far as it said so. */
  private applied: { key: string | null; style: string } | null = null;
  private nextTrackId = 1;
  private chain: Promise<void> = Promise.resolve();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly cast: CastMediaApi,
    private readonly d: CastCaptionDeps,
  ) {
    const fromPlayer = d.store.subscribe((state, previous) => {
      if (state.caption !== previous.caption) void this.schedule(() => this.apply());
    });
    const fromSettings = d.subtitles.subscribe((state, previous) => {
      if (state.styling !== previous.styling) void this.schedule(() => this.apply());
    });
    this.unsubscribe = () => {
      fromPlayer();
      fromSettings();
    };
  }

  /** A session started (or resumed): the media from `currentTime`, with the caption shown now. */
  start(session: CastSession, url: string, currentTime: number): Promise<void> {
    const isHls = this.d.store.getState().source?.type === 'hls';
    return this.schedule(async () => {
      this.session = session;
      this.media = { url, isHls };
      this.loaded = [];
      this.applied = null;
      const wanted = this.wanted();
      const hosted = wanted ? await this.relay(wanted) : null;
      if (this.session === session) await this.load(session, currentTime, hosted);
    });
  }

  /** The session ended: nothing is sent until another starts. */
  end(): void {
    this.session = null;
    this.media = null;
    this.loaded = [];
    this.applied = null;
  }

  stop(): void {
    this.unsubscribe();
    this.end();
  }

  /** Settles once every step asked for so far has run (tests wait on it). */
  settled(): Promise<void> {
    return this.chain;
  }

  private schedule(step: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(step).catch(() => undefined);
    return this.chain;
  }

  private wanted(): { key: string; caption: SelectedCaption } | null {
    const { caption } = this.d.store.getState();
    if (!caption) return null;
    const { delay, overrideCasing } = this.d.subtitles.getState();
    return { key: JSON.stringify([caption.id, caption.cues.length, delay, overrideCasing]), caption };
  }

  private styleKey(): string {
    return JSON.stringify(this.d.subtitles.getState().styling);
  }

  private fresh(hosted: Hosted): boolean {
    return hosted.expiresAt - CAST_CAPTION_REUSE_MARGIN_MS > this.d.now();
  }

  private async apply(): Promise<void> {
    const session = this.session;
    const playing = session?.getMediaSession();
    if (!session || !playing || !this.applied) return;
    const wanted = this.wanted();
    const style = this.styleKey();
    if (this.applied.key === (wanted?.key ?? null) && this.applied.style === style) return;
    if (!wanted) return this.edit(playing, null);
    const loaded = this.loaded.find((h) => h.key === wanted.key && this.fresh(h));
    if (loaded) return this.edit(playing, loaded);
    const hosted = await this.relay(wanted);
    // The session ended, or the viewer chose again meanwhile: the step after this one sends that.
    if (this.session !== session || this.wanted()?.key !== wanted.key) return;
    // A caption that cannot be relayed: none on the TV rather than the one before.
    if (!hosted) return this.edit(playing, null);
    const time = playing.getEstimatedTime?.() ?? this.d.store.getState().playback.time;
    await this.load(session, time, hosted, playing.playerState !== 'PAUSED');
  }

  /** The caption as WebVTT on the relay, as a track of this session; null when it cannot be. */
  private async relay(wanted: { key: string; caption: SelectedCaption }): Promise<Hosted | null> {
    const { caption } = wanted;
    const { delay, overrideCasing } = this.d.subtitles.getState();
    const vtt = toWebVtt(caption.cues, { delay, fixCapitalisation: overrideCasing });
    if (new TextEncoder().encode(vtt).length > CAST_CAPTION_MAX_BYTES) return null;
    const answer = await this.d.host(vtt).catch(() => null);
    if (!answer) return null;
    const item = this.d.store.getState().captionList.find((c) => c.id === caption.id);
    const custom = caption.language === 'custom';
    const language = custom ? 'und' : caption.language;
    const languageName = custom ? caption.id.replace(/^custom-/, '') : this.d.languageName(language);
    return {
      key: wanted.key,
      expiresAt: answer.expiresAt,
      track: {
        trackId: this.nextTrackId++,
        url: answer.url,
        language,
        name: item?.label ? `${languageName} (${item.label})` : languageName,
        kind: isForHardOfHearing(item?.label) ? 'captions' : 'subtitles',
      },
    };
  }

  /** Loads the media with the tracks still readable and `active` (added when new) on. */
  private async load(
    session: CastSession,
    currentTime: number,
    active: Hosted | null,
    autoplay?: boolean,
  ): Promise<void> {
    if (!this.media) return;
    const kept = this.loaded.filter((h) => h !== active && this.fresh(h));
    const tracks = active ? [...kept, active] : kept;
    const { meta } = this.d.store.getState();
    const { styling } = this.d.subtitles.getState();
    const style = this.styleKey();
    const info = castMediaInfo(this.cast, {
      ...this.media,
      title: meta?.title ?? '',
      tracks: tracks.map((h) => h.track),
      styling,
    });
    const activeTrackIds = active ? [active.track.trackId] : [];
    await session.loadMedia(
      castLoadRequest(this.cast, info, {
        currentTime,
        activeTrackIds,
        ...(autoplay === undefined ? {} : { autoplay }),
      }),
    );
    this.loaded = tracks;
    this.applied = { key: active?.key ?? null, style };
  }

  /** Turns `active` on (null: captions off) among the loaded tracks, with the style now. */
  private async edit(playing: CastMediaSession, active: Hosted | null): Promise<void> {
    const style = this.styleKey();
    const request = castEditTracks(
      this.cast,
      active ? [active.track.trackId] : [],
      this.d.subtitles.getState().styling,
    );
    await new Promise<void>((resolve, reject) => playing.editTracksInfo(request, resolve, reject));
    this.applied = { key: active?.key ?? null, style };
  }
}
