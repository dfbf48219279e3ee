import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import { IMPORT_LIMITS, ImportRefused } from './model.ts';

export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
}

/** Compressed bytes handed to the inflater at a time: one push inflates to at most ~1032× this (DEFLATE's cap). */
const PUSH_BYTES = 8 * 1024;

/** A zip's local-file or empty-archive signature ("PK\3\4", "PK\5\6"). */
export function isZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6))
  );
}

/** Junk a zip made on a Mac or by an explorer carries: never read. */
function isNoise(name: string): boolean {
  return name.endsWith('/') || name.startsWith('__MACOSX/') || /(^|\/)\.[^/]*$/.test(name);
}

export type ZipLimits = Pick<
  typeof IMPORT_LIMITS,
  'zipTotalBytes' | 'zipEntryBytes' | 'zipEntries' | 'zipRatio' | 'zipRatioFromBytes'
>;

interface Counter {
  limits: ZipLimits;
  total: number;
  entries: number;
  /** Compressed bytes handed to the unzipper so far (through the current push). */
  pushed: number;
}

function inflateEntry(file: UnzipFile, name: string, counter: Counter, out: ZipEntry[]): void {
  const { limits } = counter;
  // Its data may begin anywhere in the chunk being pushed: counting from before it errs on the safe side.
  const startedAt = counter.pushed - PUSH_BYTES;
  const chunks: Uint8Array[] = [];
  let size = 0;
  file.ondata = (error, data, final) => {
    // fflate hands a throw from this handler back to it as the error: a refusal stays a refusal.
    if (error) throw error instanceof ImportRefused ? error : new ImportRefused('bad_zip', { file: name });
    size += data.length;
    counter.total += data.length;
    // Counted as the bytes come out, never from the sizes the headers claim.
    if (size > limits.zipEntryBytes || counter.total > limits.zipTotalBytes) {
      throw new ImportRefused('too_large', { file: name });
    }
    // At most this many compressed bytes went in for this entry so far: the ratio is at least this.
    const compressed = Math.max(1, counter.pushed - startedAt);
    if (size > limits.zipRatioFromBytes && size / compressed > limits.zipRatio) {
      throw new ImportRefused('too_large', { file: name });
    }
    if (data.length) chunks.push(data);
    if (final) out.push({ name, bytes: concat(chunks, size) });
  };
  file.start();
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/**
 * The entries `wanted` picks, inflated as a stream with a running count: the first limit passed
 * (IMPORT_LIMITS) stops it with `too_large`, before the rest is inflated. Other entries are counted,
 * never inflated.
 */
export function unzipSafely(
  bytes: Uint8Array,
  archive: string,
  wanted: (name: string) => boolean,
  limits: ZipLimits = IMPORT_LIMITS,
): ZipEntry[] {
  const out: ZipEntry[] = [];
  const counter: Counter = { limits, total: 0, entries: 0, pushed: 0 };
  const unzip = new Unzip((file) => {
    counter.entries += 1;
    if (counter.entries > limits.zipEntries) throw new ImportRefused('too_large', { file: archive });
    const name = file.name.replace(/\\/g, '/');
    if (isNoise(name) || !wanted(name)) return;
    if (file.compression !== 0 && file.compression !== 8) throw new ImportRefused('bad_zip', { file: name });
    inflateEntry(file, name, counter, out);
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < bytes.length; at += PUSH_BYTES) {
      const chunk = bytes.subarray(at, at + PUSH_BYTES);
      counter.pushed = at + chunk.length;
      unzip.push(chunk, at + PUSH_BYTES >= bytes.length);
    }
  } catch (error) {
    if (error instanceof ImportRefused) throw error;
    throw new ImportRefused('bad_zip', { file: archive });
  }
  return out;
}
