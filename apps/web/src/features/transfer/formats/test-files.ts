import { Deflate, zipSync } from 'fflate';
import type { ImportFile } from './parse.ts';

/** Test inputs: a text file, or a zip of texts and bytes built with fflate (no fixture files committed). */
export function textFile(name: string, text: string): ImportFile {
  return { name, bytes: new TextEncoder().encode(text) };
}

export function zipFile(name: string, entries: Record<string, string | Uint8Array>): ImportFile {
  const input = Object.fromEntries(
    Object.entries(entries).map(([path, body]) => [
      path,
      typeof body === 'string' ? new TextEncoder().encode(body) : body,
    ]),
  );
  return { name, bytes: zipSync(input) };
}

/** CSV lines joined as a file would hold them. */
export const lines = (...rows: string[]) => `${rows.join('\n')}\n`;

/**
 * A zip bomb: one DEFLATE entry inflating to `megabytes` of zeros, made without holding them — one
 * megabyte deflated with a sync flush, repeated (flushed DEFLATE streams concatenate), then an empty final
 * block. It is stored with zipSync and relabelled DEFLATE, so its headers claim it is as small as it looks.
 */
export function zipBomb(entry: string, megabytes: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const deflate = new Deflate({ level: 9 }, (chunk) => parts.push(chunk));
  deflate.push(new Uint8Array(1024 * 1024), false);
  deflate.flush(true);
  const chunk = concat(parts);
  const stream = new Uint8Array(chunk.length * megabytes + 5);
  for (let i = 0; i < megabytes; i++) stream.set(chunk, i * chunk.length);
  stream.set([1, 0, 0, 0xff, 0xff], chunk.length * megabytes);
  const zip = zipSync({ [entry]: stream }, { level: 0 });
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  view.setUint16(8, 8, true); // the local header's compression method: DEFLATE
  const central = zip.length - 22 - 46 - entry.length;
  view.setUint16(central + 10, 8, true); // the central directory's
  return zip;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
