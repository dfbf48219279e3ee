import type { CaptionListItem } from '../core/types.ts';

const FETCH_MESSAGES = {
  fetch: 'failed to get caption data',
  extension: 'failed to get caption data from extension',
} as const;

/**
 * Why a caption download failed: `code` says through what (the UI switches on it); the message is the
 * older clients' text.
 */
export class CaptionFetchError extends Error {
  constructor(readonly code: keyof typeof FETCH_MESSAGES) {
    super(FETCH_MESSAGES[code]);
    this.name = 'CaptionFetchError';
  }
}

/** How text reaches us: directly, through the viewer's proxy, or through the extension. */
export interface CaptionTransport {
  direct(url: string): Promise<string>;
  /** Set when a custom proxy is configured. */
  proxy?: (url: string) => Promise<string>;
  /** Set when the extension is active. */
  extension?: (url: string) => Promise<string>;
}

export const CAPTION_CACHE_MS = 24 * 60 * 60 * 1000;

interface Entry {
  text: string;
  at: number;
}

/** Downloads caption files, cached by URL for 24 h (decision 050). */
export class CaptionDownloader {
  private readonly cache = new Map<string, Entry>();
  constructor(private readonly now: () => number = () => Date.now()) {}

  async download(
    caption: Pick<CaptionListItem, 'url' | 'needsProxy'>,
    transport: CaptionTransport,
  ): Promise<string> {
    const hit = this.cache.get(caption.url);
    if (hit && this.now() - hit.at < CAPTION_CACHE_MS) return hit.text;
    if (hit) this.cache.delete(caption.url);
    let text: string;
    if (caption.needsProxy && transport.extension) {
      text = await transport.extension(caption.url).catch(() => {
        throw new CaptionFetchError('extension');
      });
    } else {
      const via = caption.needsProxy && transport.proxy ? transport.proxy : transport.direct;
      text = await via(caption.url).catch(() => {
        throw new CaptionFetchError('fetch');
      });
    }
    this.cache.set(caption.url, { text, at: this.now() });
    return text;
  }
}

export const captionDownloader = new CaptionDownloader();

/**
 * Captions sorted for the menu: forced tracks (signs, foreign dialogue) first, then common languages (en,
 * hi, fr, de, nl, pt), then alphabetically.
 */
const FIRST = ['en', 'hi', 'fr', 'de', 'nl', 'pt'];
export function sortCaptions<T extends { language: string; forced?: boolean | undefined }>(
  list: readonly T[],
  name: (code: string) => string,
): T[] {
  return [...list].sort((a, b) => {
    if (Boolean(a.forced) !== Boolean(b.forced)) return a.forced ? -1 : 1;
    const ia = FIRST.indexOf(a.language);
    const ib = FIRST.indexOf(b.language);
    if (ia !== ib) return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
    return name(a.language).localeCompare(name(b.language));
  });
}
