import { ImportRefused } from './model.ts';

/** Control characters no text export holds (tab, line feed, carriage return and form feed are text). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const BINARY_CONTROL = /[\u0000-\u0008\u000B\u000E-\u001F]/g;
/** A stray one (an old editor's end-of-file mark) is tolerated; more than this share is a binary file. */
const MAX_CONTROL_SHARE = 0.001;

function decoderFor(bytes: Uint8Array): { encoding: string; skip: number } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', skip: 3 };
  // Excel's "Unicode text" and some exports: UTF-16 with its byte-order mark.
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', skip: 2 };
  return { encoding: 'utf-8', skip: 0 };
}

/** The file's text: UTF-8 (a BOM is dropped), or UTF-16 with a BOM; anything else is `not_text`. */
export function decodeText(bytes: Uint8Array, file: string): string {
  const { encoding, skip } = decoderFor(bytes);
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(skip));
  } catch {
    throw new ImportRefused('not_text', { file });
  }
  // NUL is valid UTF-8 (a file of zeros decodes): refuse it and runs of other control characters.
  if (text.includes('\u0000')) throw new ImportRefused('not_text', { file });
  const controls = text.match(BINARY_CONTROL)?.length ?? 0;
  if (controls > 1 && controls > text.length * MAX_CONTROL_SHARE)
    throw new ImportRefused('not_text', { file });
  return text;
}
