import type { ErrorCode } from '@marquee/contract';
import type { StreamQuality } from './quality.ts';

export type PlayerStatus = 'idle' | 'scraping' | 'playing' | 'scrapeNotFound' | 'playbackError';

export interface PlayerEpisode {
  id: string;
  number: number;
  title: string;
  airDate: string | null;
  /** What the episode is about (the pause overlay shows it); absent when unknown. */
  overview?: string | null;
}

export interface PlayerSeason {
  id: string;
  number: number;
  title: string;
}

/** What is playing: shows also name their season and episode. */
export interface PlayerMeta {
  type: 'movie' | 'show';
  title: string;
  releaseYear: number | null;
  tmdbId: string;
  imdbId: string | null;
  poster: string | null;
  /** What the title is about (the pause overlay shows it for a movie); absent when unknown. */
  overview?: string | null;
  /** The media key of the URL (`tmdb-tv-1396-breaking-bad`). */
  mediaKey: string;
  season?: PlayerSeason;
  episode?: PlayerEpisode;
  /** Episodes of the current season (shows). */
  episodes?: PlayerEpisode[];
  /** Every season of the show. */
  seasons?: PlayerSeason[];
}

export interface SourceFile {
  type: 'mp4' | 'webm';
  url: string;
}

/** What the display loads: an HLS playlist, or files by quality; `thumbnails`: the server's seek thumbnails (WebVTT). */
export type PlayerSource =
  | {
      type: 'hls';
      url: string;
      thumbnails?: string;
      /**
       * A library file converted by the server (decision 085): "automatic" plays the top rendition (the
       * original, or its best transcode) rather than letting bandwidth estimates hop between renditions,
       * each of which would start a conversion.
       */
      conversion?: boolean;
    }
  | { type: 'file'; qualities: Partial<Record<StreamQuality, SourceFile>>; thumbnails?: string };

export interface CaptionListItem {
  id: string;
  /** ISO 639-1 code, `und`, or `custom` for an uploaded file. */
  language: string;
  url: string;
  type: 'srt' | 'vtt';
  needsProxy: boolean;
  /** Came from OpenSubtitles: listed apart from the source's own captions. */
  opensubtitles: boolean;
  /** A forced track (signs, foreign dialogue): listed first. */
  forced?: boolean;
  /** The track's own name in the file (`SDH`, `Commentary`). */
  label?: string;
  /** An ASS/SSA track's own script: drawn with its styling when chosen (`url` is its WebVTT). */
  assUrl?: string;
}

/**
 * An audio track of a library title, with what the display loads to hear it: the stream as found for the
 * track it plays, an HLS playlist of the same title for each other one.
 */
export interface AudioTrackItem {
  id: string;
  /** ISO 639-1 where the file's language has one, else the file's code, or `und`. */
  language: string;
  label: string | null;
  channels: number | null;
  isDefault: boolean;
  source: PlayerSource;
}

/**
 * A picture subtitle of a library title (Blu-ray PGS, DVD VobSub): the server burns it into the picture,
 * so choosing it loads the title again with it, from where the viewer is (decision 085).
 */
export interface ImageSubtitleItem {
  id: string;
  /** ISO 639-1 where the file's language has one, else the file's code, or `und`. */
  language: string;
  label: string | null;
  /** A forced track (signs, foreign dialogue): listed first. */
  forced: boolean;
  /** What plays the title with it, by audio track id (`default` when the source has no audio tracks). */
  sources: Record<string, PlayerSource>;
}

export interface Cue {
  start: number;
  end: number;
  text: string;
}

/** The selected caption with its parsed cues. */
export interface SelectedCaption {
  id: string;
  language: string;
  cues: Cue[];
  /** The original text, as SRT (for download). */
  srtData: string;
  /** Its own ASS script, drawn with its styling over the video (the cues stand in until then). */
  assUrl?: string;
}

/** Playback error codes (decision 050) and where the error came from. */
export type PlaybackErrorCode = 'aborted' | 'decode' | 'generic' | 'network' | 'notSupported';
/** Why this instance refused media while it played (the library's conversions), in the viewer's words. */
export type ServerPlaybackCode = 'server_busy' | 'conversion_failed' | 'media_unplayable';
export interface PlaybackError {
  source: 'video' | 'hls';
  code: PlaybackErrorCode;
  message: string;
  /** Set when the server said why (an error body's code, or a 503 without one). */
  serverCode?: ServerPlaybackCode;
}

export type SegmentStatus = 'waiting' | 'pending' | 'success' | 'notfound' | 'failure';
export interface ScrapeSegment {
  id: string;
  name: string;
  /** Set for embeds: the embed's scraper id. */
  embedId?: string;
  /** Embeds: the source that found them. */
  parentId?: string;
  status: SegmentStatus;
  percentage: number;
  reason?: string;
  error?: string;
  /** The contract's error code of a failure, when the server gave one (`media_unplayable`). */
  errorCode?: ErrorCode;
}

export interface Thumbnail {
  at: number;
  data: string;
}

/** The segments of the library file playing (decision 111), as the server answers them. */
export interface PlayerSegments {
  /** The file and its access token (`libraryMediaOf`): marks are sent for them. */
  access: string;
  fileId: string;
  duration: number | null;
  segments: { type: 'intro' | 'recap' | 'credits' | 'preview'; start: number; end: number; source: string }[];
  detection: 'pending' | 'done' | 'failed' | 'off';
  /** The viewer's own marks. */
  mine: { type: 'intro' | 'recap' | 'credits' | 'preview'; start: number; end: number }[];
}
