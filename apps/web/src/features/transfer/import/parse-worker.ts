/// <reference lib="webworker" />
import type { ParseOptions } from '../formats/index.ts';
import { parseAll } from './parse-all.ts';

/*
 * Reads the chosen files off the page's thread (a 100 MB export takes seconds to inflate and read):
 * the import page sends the files and the options, this answers the records or the refusal. An error
 * that is not a refusal reaches the page as the worker's error.
 */
self.onmessage = async (event: MessageEvent<{ files: File[]; options: ParseOptions }>) => {
  const { files, options } = event.data;
  (self as unknown as Worker).postMessage(await parseAll(files, options));
};
