import type { CSSProperties } from 'react';

export interface CaptionStyling {
  color: string;
  backgroundOpacity: number;
  backgroundBlur: number;
  size: number;
  bold: boolean;
}

/** Seed 001 §9: font 1.5 em × size; background blur up to 64 px. */
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

/** The settings' limits (seed 001 §5): delay −10…10 s by 0.1, size 1–200 %, opacity and blur 0–100 %. */
export const CAPTION_DELAY_RANGE = { min: -10, max: 10, step: 0.1 } as const;
export const CAPTION_SIZE_PERCENT = { min: 1, max: 200 } as const;

export const clampDelaySetting = (value: number) =>
  Math.round(Math.max(CAPTION_DELAY_RANGE.min, Math.min(CAPTION_DELAY_RANGE.max, value)) * 10) / 10;
