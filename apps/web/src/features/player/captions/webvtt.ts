import type { Cue } from '../core/types.ts';
import { captionText } from './caption-text.ts';

/*
 * The shown caption as WebVTT, for a Chromecast (decision 113): its receiver draws side-loaded text
 * tracks itself and reads only WebVTT. Whatever the caption came as (SRT, WebVTT, an uploaded file of
 * another format), the player holds its cues; they are written back out here as the viewer sees them.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Seconds → `HH:MM:SS.mmm`. */
export function formatVttTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** Tags kept: the WebVTT ones a receiver draws without classes or voices. The rest go, their text kept. */
const KEPT_TAGS = new Set(['b', 'i', 'u']);
const TAG = /<\s*(\/?)\s*([A-Za-z][\w-]*)[^>]*>/g;
/** An ampersand that does not start a character reference WebVTT reads. */
const BARE_AMPERSAND = /&(?!(?:amp|lt|gt|lrm|rlm|nbsp|#\d{1,7}|#x[0-9a-f]{1,6});)/gi;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

const escapeText = (text: string) =>
  text.replace(BARE_AMPERSAND, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A cue's text as WebVTT cue text: `<br>` → a line break, tags other than b/i/u dropped, `&`, `<` and `>`
 * escaped (so no `-->` is left), and no blank line (one would end the cue).
 */
export function vttCueText(text: string): string {
  const source = text.replace(/\r\n?/g, '\n').replace(CONTROL, '');
  let out = '';
  let last = 0;
  for (const match of source.matchAll(TAG)) {
    out += escapeText(source.slice(last, match.index));
    const name = match[2]!.toLowerCase();
    if (name === 'br') out += '\n';
    else if (KEPT_TAGS.has(name)) out += `<${match[1]}${name}>`;
    last = match.index + match[0].length;
  }
  out += escapeText(source.slice(last));
  return out
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

export interface WebVttOptions {
  /** The viewer's caption delay in seconds: each cue shows at start + delay, as on the page (`visibleCues`). */
  delay?: number;
  /** "Fix capitalisation" (the subtitles store's `overrideCasing`). */
  fixCapitalisation?: boolean;
}

/** Cues as a WebVTT file, shifted by the delay; cues that end before 0 or carry no text are left out. */
export function toWebVtt(cues: readonly Cue[], options: WebVttOptions = {}): string {
  const delay = options.delay ?? 0;
  const fixCapitalisation = options.fixCapitalisation ?? false;
  const blocks: string[] = [];
  for (const cue of cues) {
    const start = Math.max(0, cue.start + delay);
    const end = cue.end + delay;
    if (!(end > start)) continue;
    const text = vttCueText(captionText(cue.text, { fixCapitalisation }));
    if (text) blocks.push(`${formatVttTime(start)} --> ${formatVttTime(end)}\n${text}`);
  }
  return `WEBVTT\n\n${blocks.join('\n\n')}\n`;
}
