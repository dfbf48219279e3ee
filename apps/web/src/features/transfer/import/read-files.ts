import type { ParseOptions } from '../formats/index.ts';
import { parseAll, type ParseReply } from './parse-all.ts';

/**
 * Reads `files` in a worker where the browser has one (the page stays responsive while a large export
 * is read), else on the page (tests, a browser that refuses the worker).
 */
export async function readFiles(files: readonly File[], options: ParseOptions = {}): Promise<ParseReply> {
  if (typeof Worker === 'undefined') return parseAll(files, options);
  const worker = new Worker(new URL('./parse-worker.ts', import.meta.url), { type: 'module' });
  try {
    return await new Promise<ParseReply>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<ParseReply>) => resolve(event.data);
      worker.onerror = (event) => {
        event.preventDefault();
        reject(new Error(event.message));
      };
      worker.postMessage({ files, options });
    });
  } catch {
    return parseAll(files, options);
  } finally {
    worker.terminate();
  }
}
