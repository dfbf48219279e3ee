import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { blackFrameArgs, parseBlackFrames, type BlackFrame } from './black-frames.ts';

const run = promisify(execFile);

/*
 * The programs segment detection runs (decision 111): ffmpeg decodes (the library's own, FFMPEG_PATH:
 * it reads whatever the library plays, and seeks to the last minutes) and Chromaprint's fpcalc
 * (FPCALC_PATH, Debian's libchromaprint-tools) fingerprints the decoded audio it is piped. Both run
 * under `nice -n 19` when it is there, one at a time (the job's concurrency): detection never competes
 * with playback.
 */

export interface SegmentTools {
  ffmpeg: string;
  fpcalc: string;
  /** Runs them under `nice -n 19`. */
  nice: boolean;
}

/** Chromaprint's input: mono 16-bit PCM at 11025 Hz, what it resamples everything to anyway. */
const FINGERPRINT_RATE = 11_025;
const MAX_OUTPUT = 8 * 1024 * 1024;

const answers = (command: string, args: string[]) =>
  run(command, args, { timeout: 10_000 }).then(
    () => true,
    () => false,
  );

/** The tools when both run here (and whether `nice` does), else null: detection is then off. */
export async function detectSegmentTools(ffmpeg: string, fpcalc: string): Promise<SegmentTools | null> {
  const [hasFfmpeg, hasFpcalc, nice] = await Promise.all([
    answers(ffmpeg, ['-hide_banner', '-version']),
    answers(fpcalc, ['-version']),
    answers('nice', ['-n', '19', 'true']),
  ]);
  return hasFfmpeg && hasFpcalc ? { ffmpeg, fpcalc, nice } : null;
}

const niced = (tools: SegmentTools, command: string, args: string[]): [string, string[]] =>
  tools.nice ? ['nice', ['-n', '19', command, ...args]] : [command, args];

/** Chromaprint's raw points as text (`FINGERPRINT=1,2,3`) → numbers; null when there are none. */
export function parseRawFingerprint(output: string): Uint32Array | null {
  const match = /^FINGERPRINT=([\d,]*)\s*$/m.exec(output);
  if (!match?.[1]) return null;
  const points = match[1].split(',').map(Number);
  if (points.some((p) => !Number.isInteger(p) || p < 0 || p > 0xffffffff)) return null;
  return Uint32Array.from(points);
}

/** Points as text for the database: base64 of their little-endian bytes. */
export function encodePoints(points: Uint32Array): string {
  const bytes = Buffer.alloc(points.length * 4);
  points.forEach((p, i) => bytes.writeUInt32LE(p, i * 4));
  return bytes.toString('base64');
}

export function decodePoints(text: string): Uint32Array {
  const bytes = Buffer.from(text, 'base64');
  const points = new Uint32Array(Math.floor(bytes.length / 4));
  for (let i = 0; i < points.length; i++) points[i] = bytes.readUInt32LE(i * 4);
  return points;
}

/** Collects a stream's text up to `max` characters (the end of it when it is longer). */
function collect(child: ChildProcess, stream: 'stdout' | 'stderr', max: number): () => string {
  let text = '';
  child[stream]?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    if (text.length > max) text = text.slice(-max);
  });
  return () => text;
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null));
    child.once('close', (code) => resolve(code));
  });

export interface ToolRun {
  signal: AbortSignal;
  timeoutMs: number;
}

/**
 * The Chromaprint fingerprint of `length` seconds of a file's audio stream `audioIndex` from `from`:
 * ffmpeg decodes it to mono PCM, piped into `fpcalc -raw`. fpcalc reports the end of its input as an
 * error and still prints the fingerprint: the points decide, not its exit status.
 */
export async function fingerprintAudio(
  tools: SegmentTools,
  input: string,
  part: { from: number; length: number; audioIndex: number },
  o: ToolRun,
): Promise<Uint32Array> {
  const decode = niced(tools, tools.ffmpeg, [
    ...['-nostdin', '-hide_banner', '-loglevel', 'error', '-threads', '1', '-ss', part.from.toFixed(3)],
    ...['-i', `file:${input}`, '-t', part.length.toFixed(3), '-map', `0:${part.audioIndex}`, '-vn', '-sn'],
    ...['-dn', '-ac', '1', '-ar', String(FINGERPRINT_RATE), '-f', 's16le', 'pipe:1'],
  ]);
  const print = niced(tools, tools.fpcalc, [
    ...['-format', 's16le', '-rate', String(FINGERPRINT_RATE), '-channels', '1', '-raw'],
    ...['-length', String(Math.ceil(part.length) + 1), '-'],
  ]);
  const decoder = spawn(decode[0], decode[1], { stdio: ['ignore', 'pipe', 'pipe'] });
  const printer = spawn(print[0], print[1], { stdio: ['pipe', 'pipe', 'pipe'] });
  decoder.stdout.on('error', () => {});
  printer.stdin.on('error', () => {});
  decoder.stdout.pipe(printer.stdin);
  const output = collect(printer, 'stdout', MAX_OUTPUT);
  const errors = [collect(decoder, 'stderr', 2000), collect(printer, 'stderr', 2000)];
  const stop = () => {
    decoder.kill('SIGKILL');
    printer.kill('SIGKILL');
  };
  const timer = setTimeout(stop, o.timeoutMs);
  o.signal.addEventListener('abort', stop, { once: true });
  try {
    await Promise.all([exited(decoder), exited(printer)]);
  } finally {
    clearTimeout(timer);
    o.signal.removeEventListener('abort', stop);
  }
  o.signal.throwIfAborted();
  const points = parseRawFingerprint(output());
  if (!points) {
    const why = errors
      .map((e) => e().trim())
      .filter(Boolean)
      .join(' / ')
      .slice(-500);
    throw new Error(`no fingerprint of ${part.length.toFixed(0)} s from ${part.from.toFixed(0)} s: ${why}`);
  }
  return points;
}

/** What `blackframe` says of the picture of a file from `from` seconds to its end. */
export async function blackFramesOf(
  tools: SegmentTools,
  input: string,
  from: number,
  o: ToolRun,
): Promise<BlackFrame[]> {
  const [command, args] = niced(tools, tools.ffmpeg, blackFrameArgs(input, from, 1));
  const { stderr } = await run(command, args, {
    signal: o.signal,
    killSignal: 'SIGKILL',
    timeout: o.timeoutMs,
    maxBuffer: MAX_OUTPUT,
  }).catch((error: unknown) => {
    o.signal.throwIfAborted();
    throw error;
  });
  return parseBlackFrames(stderr);
}
