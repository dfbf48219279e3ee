import type { SubtitleStyling } from '../../../stores/index.ts';

/*
 * What the player sends a Chromecast's Default Media Receiver (decision 113): the media, its text tracks
 * and their style, built with the Cast sender's own classes (`chrome.cast.media`). Only the parts used
 * are typed here; tests hand in a small fake namespace that records what it is given.
 */

export interface CastTrack {
  trackId: number;
  type: string;
  trackContentId?: string;
  trackContentType?: string;
  subtype?: string;
  name?: string;
  language?: string;
}

export interface CastTextTrackStyle {
  foregroundColor?: string;
  backgroundColor?: string;
  edgeType?: string;
  edgeColor?: string;
  fontScale?: number;
  fontStyle?: string;
  windowType?: string;
}

export interface CastMediaInfo {
  contentId: string;
  contentType: string;
  streamType?: string;
  metadata?: { title?: string };
  tracks?: CastTrack[];
  textTrackStyle?: CastTextTrackStyle;
}

export interface CastLoadRequest {
  media: CastMediaInfo;
  currentTime?: number;
  autoplay?: boolean;
  activeTrackIds?: number[];
}

export interface CastEditTracksInfoRequest {
  activeTrackIds?: number[];
  textTrackStyle?: CastTextTrackStyle;
}

/** `chrome.cast.media`: the classes and enums used. */
export interface CastMediaApi {
  DEFAULT_MEDIA_RECEIVER_APP_ID: string;
  MediaInfo: new (contentId: string, contentType: string) => CastMediaInfo;
  GenericMediaMetadata: new () => { title?: string };
  LoadRequest: new (media: CastMediaInfo) => CastLoadRequest;
  Track: new (trackId: number, type: string) => CastTrack;
  TextTrackStyle: new () => CastTextTrackStyle;
  EditTracksInfoRequest: new (
    activeTrackIds?: number[],
    textTrackStyle?: CastTextTrackStyle,
  ) => CastEditTracksInfoRequest;
  StreamType: { BUFFERED: string };
  TrackType: { TEXT: string };
  TextTrackType: { SUBTITLES: string; CAPTIONS: string };
  TextTrackFontStyle: { NORMAL: string; BOLD: string };
  TextTrackEdgeType: { DROP_SHADOW: string };
  TextTrackWindowType: { NONE: string };
}

/** A caption the receiver loads by URL (the relay's, decision 113). */
export interface CastCaptionTrack {
  trackId: number;
  url: string;
  /** BCP 47 (`und` when unknown). */
  language: string;
  name: string;
  /** `captions` for the hard of hearing (SDH, CC), else `subtitles`. */
  kind: 'subtitles' | 'captions';
}

export function castTextTrack(media: CastMediaApi, caption: CastCaptionTrack): CastTrack {
  const track = new media.Track(caption.trackId, media.TrackType.TEXT);
  track.trackContentId = caption.url;
  track.trackContentType = 'text/vtt';
  track.subtype = caption.kind === 'captions' ? media.TextTrackType.CAPTIONS : media.TextTrackType.SUBTITLES;
  track.name = caption.name;
  track.language = caption.language;
  return track;
}

const hex = (byte: number) =>
  Math.round(Math.min(255, Math.max(0, byte)))
    .toString(16)
    .padStart(2, '0')
    .toUpperCase();

/** A CSS `#rgb`/`#rrggbb` colour as Cast's `#RRGGBBAA`; anything else is white. */
export function castColor(color: string, alpha = 1): string {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color);
  const long = /^#([0-9a-f]{6})$/i.exec(color);
  const rgb = long
    ? long[1]!
    : short
      ? short
          .slice(1)
          .map((c) => c + c)
          .join('')
      : 'ffffff';
  return `#${rgb.toUpperCase()}${hex(alpha * 255)}`;
}

/** The receiver's font scale stays readable on a TV (its 1.0 is the receiver's own caption size). */
const FONT_SCALE = [0.25, 2] as const;

/**
 * The viewer's caption styling (settings → captions) as the receiver's: colour, a black background at
 * the viewer's opacity, size as the font scale, bold; the page's text shadow (caption-style.ts) as a
 * drop shadow. The background blur has no Cast counterpart.
 */
export function castTextTrackStyle(media: CastMediaApi, styling: SubtitleStyling): CastTextTrackStyle {
  const style = new media.TextTrackStyle();
  style.foregroundColor = castColor(styling.color);
  style.backgroundColor = castColor('#000000', styling.backgroundOpacity);
  style.edgeType = media.TextTrackEdgeType.DROP_SHADOW;
  style.edgeColor = castColor('#000000', 0.7);
  style.fontScale = Math.min(FONT_SCALE[1], Math.max(FONT_SCALE[0], styling.size));
  style.fontStyle = styling.bold ? media.TextTrackFontStyle.BOLD : media.TextTrackFontStyle.NORMAL;
  style.windowType = media.TextTrackWindowType.NONE;
  return style;
}

export interface CastMediaOptions {
  url: string;
  isHls: boolean;
  title: string;
  tracks: readonly CastCaptionTrack[];
  styling: SubtitleStyling;
}

/** The media for a load: the stream, its title, every caption track and the viewer's caption style. */
export function castMediaInfo(media: CastMediaApi, o: CastMediaOptions): CastMediaInfo {
  const info = new media.MediaInfo(o.url, o.isHls ? 'application/x-mpegurl' : 'video/mp4');
  info.streamType = media.StreamType.BUFFERED;
  const metadata = new media.GenericMediaMetadata();
  metadata.title = o.title;
  info.metadata = metadata;
  info.tracks = o.tracks.map((track) => castTextTrack(media, track));
  info.textTrackStyle = castTextTrackStyle(media, o.styling);
  return info;
}

/** A load from `currentTime` with the chosen caption on (`activeTrackIds`, [] for none). */
export function castLoadRequest(
  media: CastMediaApi,
  info: CastMediaInfo,
  o: { currentTime: number; activeTrackIds: number[]; autoplay?: boolean },
): CastLoadRequest {
  const request = new media.LoadRequest(info);
  request.currentTime = o.currentTime;
  request.activeTrackIds = o.activeTrackIds;
  if (o.autoplay !== undefined) request.autoplay = o.autoplay;
  return request;
}

/** Another caption of those loaded, or none ([]), with the viewer's style now. */
export function castEditTracks(
  media: CastMediaApi,
  activeTrackIds: number[],
  styling: SubtitleStyling,
): CastEditTracksInfoRequest {
  return new media.EditTracksInfoRequest(activeTrackIds, castTextTrackStyle(media, styling));
}
