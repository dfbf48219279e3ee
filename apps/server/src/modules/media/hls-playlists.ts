import { planId, type HlsVariant } from './playback-plan.ts';
import type { MediaInfo } from './media-info.ts';
import type { Segment } from './hls-segments.ts';

// Playlist texts (RFC 8216). Every URI is relative, so the access token at the front of the master's URL
// covers each playlist, init segment and media segment (decision 071's path-prefix rule).

const AVC_PROFILES: Readonly<Record<string, string>> = {
  Baseline: '42',
  'Constrained Baseline': '42',
  Main: '4D',
  High: '64',
  'High 10': '6E',
};

/** The `CODECS` attribute of a variant, when it can be named from the probe; null leaves it out. */
export function codecsOf(variant: HlsVariant, info: MediaInfo): string | null {
  const video = info.video;
  if (!video) return null;
  let videoCodec: string | null;
  if (variant.plan.video !== 'copy') videoCodec = 'avc1.640028';
  else if (video.codec === 'h264' && video.profile && AVC_PROFILES[video.profile] && video.level) {
    videoCodec = `avc1.${AVC_PROFILES[video.profile]}00${video.level.toString(16).padStart(2, '0').toUpperCase()}`;
  } else videoCodec = null;
  if (!videoCodec) return null;
  const audio = variant.plan.audio;
  if (!audio) return videoCodec;
  if (audio.mode === 'aac') return `${videoCodec},mp4a.40.2`;
  const track = info.audio.find((a) => a.index === audio.index);
  const audioCodec =
    track?.codec === 'aac'
      ? 'mp4a.40.2'
      : track?.codec === 'ac3'
        ? 'ac-3'
        : track?.codec === 'eac3'
          ? 'ec-3'
          : null;
  return audioCodec ? `${videoCodec},${audioCodec}` : null;
}

export function masterPlaylist(variants: readonly HlsVariant[], info: MediaInfo): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const variant of variants) {
    const attributes = [
      `BANDWIDTH=${Math.round(variant.bandwidth)}`,
      `RESOLUTION=${variant.width}x${variant.height}`,
    ];
    const codecs = codecsOf(variant, info);
    if (codecs) attributes.push(`CODECS="${codecs}"`);
    if (info.video?.frameRate) attributes.push(`FRAME-RATE=${info.video.frameRate.toFixed(3)}`);
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, `../${planId(variant.plan)}/index.m3u8`);
  }
  return `${lines.join('\n')}\n`;
}

export function mediaPlaylist(segments: readonly Segment[]): string {
  const target = Math.max(1, Math.ceil(Math.max(...segments.map((s) => s.duration))));
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${target}`,
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    '#EXT-X-MAP:URI="init.mp4"',
  ];
  segments.forEach((segment, i) => lines.push(`#EXTINF:${segment.duration.toFixed(6)},`, `${i}.m4s`));
  lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}
