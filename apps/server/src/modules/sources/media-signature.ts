import { open } from 'node:fs/promises';

// What a file really holds, from its first bytes: the library serves a file only when its content is
// media (a text file named `x S01E03.mp4` is not). Decision 071.

export type ContainerFormat = 'iso-bmff' | 'matroska' | 'mpeg-ts';

/** Bytes read from the start of a file to recognise it. */
export const HEAD_BYTES = 4096;

/** Top-level boxes an MP4/MOV file can start with (QuickTime files made before `ftyp` start with others). */
const ISO_FIRST_BOXES = new Set(['ftyp', 'styp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot']);

/** Sync bytes at the start of three packets in a row (a real stream is far longer than that). */
const isTsSync = (head: Uint8Array, first: number, packet: number) =>
  head.length > first + 2 * packet && [0, 1, 2].every((n) => head[first + n * packet] === 0x47);

/**
 * The container of a file from its first bytes: ISO BMFF (MP4, MOV, M4V: a box whose type is `ftyp`,
 * or `moov`/`mdat`/… in older QuickTime files, with a plausible size), Matroska/WebM (EBML magic
 * 1A 45 DF A3), MPEG-TS (0x47 sync bytes every 188 bytes, or every 192 in M2TS). Null for anything else.
 */
export function containerOf(head: Uint8Array, fileSize: number): ContainerFormat | null {
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3)
    return 'matroska';
  if (head.length >= 8) {
    const size = ((head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!) >>> 0;
    const type = String.fromCharCode(head[4]!, head[5]!, head[6]!, head[7]!);
    // 0 = "to the end of the file", 1 = a 64-bit size follows.
    const plausible = size === 0 || size === 1 || (size >= 8 && size <= fileSize);
    if (plausible && ISO_FIRST_BOXES.has(type)) return 'iso-bmff';
  }
  if (isTsSync(head, 0, 188) || isTsSync(head, 4, 192)) return 'mpeg-ts';
  return null;
}

/** The first bytes of a text file as text (UTF-8/Latin-1 without NUL, or UTF-16 with its byte-order mark), else null. */
function headText(head: Uint8Array): string | null {
  if (head[0] === 0xff && head[1] === 0xfe) return new TextDecoder('utf-16le').decode(head.subarray(2));
  if (head[0] === 0xfe && head[1] === 0xff) return new TextDecoder('utf-16be').decode(head.subarray(2));
  if (head.includes(0)) return null;
  return new TextDecoder('latin1').decode(head);
}

/**
 * Whether the start of a subtitle file is subtitles: text (UTF-8/Latin-1, or UTF-16 with its byte-order
 * mark) holding a WebVTT header or a cue timing arrow (`-->`).
 */
export function isSubtitleText(head: Uint8Array): boolean {
  const text = headText(head);
  if (text === null) return false;
  return /^(?:\u00ef\u00bb\u00bf|\ufeff)?WEBVTT/.test(text) || text.includes('-->');
}

/** Whether the start of an .ass/.ssa file is Advanced SubStation text: its `[Script Info]` section. */
export function isStyledSubtitleText(head: Uint8Array): boolean {
  return headText(head)?.includes('[Script Info]') ?? false;
}

/** Whether a .sup file is a PGS (Blu-ray) subtitle stream: each segment starts with the magic `PG`. */
export function isPgsSubtitle(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x50 && head[1] === 0x47;
}

/** The first bytes of a file (fewer when it is shorter). */
export async function readHead(file: string, bytes = HEAD_BYTES): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = new Uint8Array(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
