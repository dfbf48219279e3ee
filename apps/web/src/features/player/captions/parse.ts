import type { Cue } from '../core/types.ts';

const PARSE_MESSAGES = {
  empty: 'Given text is empty',
  invalid: 'Invalid subtitle format',
} as const;

/**
 * Why a caption file was refused: `code` says which way (the UI switches on it); the message is the older
 * clients' text.
 */
export class CaptionParseError extends Error {
  constructor(readonly code: keyof typeof PARSE_MESSAGES) {
    super(PARSE_MESSAGES[code]);
    this.name = 'CaptionParseError';
  }
}

const TIME = /^(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?$/;

/** `01:02:03,456`, `02:03.456`, `1:02:03.4` → seconds; NaN when it is not a timestamp. */
export function parseCueTime(text: string): number {
  const m = TIME.exec(text.trim());
  if (!m) return Number.NaN;
  const [, h = '0', min = '0', s = '0', frac = '0'] = m;
  if (Number(min) > 59 && m[1] !== undefined) return Number.NaN;
  if (Number(s) > 59) return Number.NaN;
  return Number(h) * 3600 + Number(min) * 60 + Number(s) + Number(frac.padEnd(3, '0')) / 1000;
}

const TIMING = /^\s*(\S+)\s+-->\s+(\S+)(?:\s+.*)?$/;

function blocks(text: string): string[][] {
  return text
    .split(/\n{2,}/)
    .map((b) => b.split('\n'))
    .filter((lines) => lines.some((l) => l.trim() !== ''));
}

function cueFrom(lines: string[]): Cue | null {
  const timingIndex = lines.findIndex((l) => l.includes('-->'));
  if (timingIndex < 0 || timingIndex > 1) return null;
  const m = TIMING.exec(lines[timingIndex]!);
  if (!m) return null;
  const start = parseCueTime(m[1]!);
  const end = parseCueTime(m[2]!);
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return null;
  const text = lines
    .slice(timingIndex + 1)
    .join('\n')
    .trim();
  return { start, end, text };
}

const normalize = (text: string) => text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');

/** WebVTT: header, then cues (NOTE, STYLE and REGION blocks skipped). */
function parseVtt(text: string): Cue[] {
  const [, ...rest] = blocks(text);
  const cues: Cue[] = [];
  for (const lines of rest) {
    const first = lines[0]!.trim();
    if (/^(NOTE|STYLE|REGION)\b/.test(first)) continue;
    const cue = cueFrom(lines);
    if (cue) cues.push(cue);
  }
  return cues;
}

/** SubRip: index, timing with a comma (a dot is tolerated), text. */
function parseSrt(text: string): Cue[] {
  const cues: Cue[] = [];
  for (const lines of blocks(text)) {
    const cue = cueFrom(lines);
    if (cue) cues.push(cue);
  }
  return cues;
}

/**
 * Parses SRT or WebVTT (detected from the text). "Given text is empty" for an empty file, "Invalid
 * subtitle format" when nothing in it is a cue.
 */
export function parseCaptions(input: string): Cue[] {
  const text = normalize(input);
  if (text.trim() === '') throw new CaptionParseError('empty');
  const cues = /^WEBVTT(?:[ \t].*)?(?:\n|$)/.test(text) ? parseVtt(text) : parseSrt(text);
  if (cues.length === 0) throw new CaptionParseError('invalid');
  return cues.sort((a, b) => a.start - b.start);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
export function formatSrtTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)},${pad(ms % 1000, 3)}`;
}

/** Cues back to SRT (the format the player keeps and offers for download). */
export function toSrt(cues: readonly Cue[]): string {
  return cues
    .map((c, i) => `${i + 1}\n${formatSrtTime(c.start)} --> ${formatSrtTime(c.end)}\n${c.text}\n`)
    .join('\n');
}

/** Cues visible at `time` with a delay: shown when start + delay ≤ time ≤ end + delay. */
export function visibleCues(cues: readonly Cue[], time: number, delay: number): Cue[] {
  return cues.filter((c) => c.start + delay <= time && time <= c.end + delay);
}

/** Upload formats: SRT and WebVTT here, the others through subsrt-ts (loaded only then). */
export const uploadExtensions = ['srt', 'vtt', 'ass', 'ssa', 'sub', 'sbv', 'lrc', 'smi', 'json'] as const;

export async function parseCaptionFile(name: string, text: string): Promise<Cue[]> {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  if (ext === 'srt' || ext === 'vtt' || !(uploadExtensions as readonly string[]).includes(ext))
    return parseCaptions(text);
  if (normalize(text).trim() === '') throw new CaptionParseError('empty');
  const subsrt = (await import('subsrt-ts')).default;
  let parsed: ReturnType<typeof subsrt.parse>;
  try {
    parsed = subsrt.parse(normalize(text), { format: ext });
  } catch {
    throw new CaptionParseError('invalid');
  }
  const cues = parsed.flatMap((c) =>
    c.type === 'caption' ? [{ start: c.start / 1000, end: c.end / 1000, text: c.text.trim() }] : [],
  );
  if (cues.length === 0) throw new CaptionParseError('invalid');
  return cues;
}
