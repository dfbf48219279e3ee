import type { CSSProperties } from 'react';

export interface CaptionStyling {
  color: string;
  backgroundOpacity: number;
  backgroundBlur: number;
  size: number;
  bold: boolean;
}

/** Decision 050: font 1.5 em × size; background blur up to 64 px. */
export function captionStyle(s: CaptionStyling): CSSProperties {
  const blur = Math.round(Math.max(0, Math.min(1, s.backgroundBlur)) * 64);
  return {
    color: s.color,
    fontSize: `${(1.5 * s.size).toFixed(3)}em`,
    backgroundColor: `rgba(0, 0, 0, ${Math.max(0, Math.min(1, s.backgroundOpacity))})`,
    backdropFilter: blur > 0 ? `blur(${blur}px)` : 'none',
    fontWeight: s.bold ? 700 : 400,
    textShadow: '0 2px 4px rgba(0, 0, 0, 0.7)',
  };
}

/** The caption delay setting: −10…10 s in steps of 0.1 s (the other limits: SUBTITLE_LIMITS in the subtitles store). */
export const CAPTION_DELAY_RANGE = { min: -10, max: 10, step: 0.1 } as const;

export const clampDelaySetting = (value: number) =>
  Math.round(Math.max(CAPTION_DELAY_RANGE.min, Math.min(CAPTION_DELAY_RANGE.max, value)) * 10) / 10;
