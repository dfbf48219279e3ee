import { describe, expect, it, vi } from 'vitest';
import { captionFor } from './caption-actions.ts';
import { CAPTION_CACHE_MS, CaptionDownloader, sortCaptions } from './caption-fetch.ts';

describe('caption downloads', () => {
  it('direct when no proxy is needed; cached 24 h by URL', async () => {
    let now = 0;
    const downloader = new CaptionDownloader(() => now);
    const direct = vi.fn(async () => 'text');
    const proxy = vi.fn(async () => 'proxied');
    const item = { url: 'https://a.test/en.vtt', needsProxy: false };
    expect(await downloader.download(item, { direct, proxy })).toBe('text');
    now = CAPTION_CACHE_MS - 1;
    expect(await downloader.download(item, { direct, proxy })).toBe('text');
    expect(direct).toHaveBeenCalledTimes(1);
    now = CAPTION_CACHE_MS + 1;
    await downloader.download(item, { direct, proxy });
    expect(direct).toHaveBeenCalledTimes(2);
    expect(proxy).not.toHaveBeenCalled();
  });

  it('needsProxy goes through the extension first, then the proxy', async () => {
    const downloader = new CaptionDownloader();
    const direct = vi.fn(async () => 'direct');
    const proxy = vi.fn(async () => 'proxied');
    const extension = vi.fn(async () => 'from extension');
    expect(await downloader.download({ url: 'u1', needsProxy: true }, { direct, proxy, extension })).toBe(
      'from extension',
    );
    expect(await downloader.download({ url: 'u2', needsProxy: true }, { direct, proxy })).toBe('proxied');
    expect(await downloader.download({ url: 'u3', needsProxy: true }, { direct })).toBe('direct');
  });

  it('the older clients’ messages on failure', async () => {
    const downloader = new CaptionDownloader();
    const fail = async () => {
      throw new Error('boom');
    };
    await expect(downloader.download({ url: 'x', needsProxy: false }, { direct: fail })).rejects.toThrow(
      'failed to get caption data',
    );
    await expect(
      downloader.download({ url: 'y', needsProxy: true }, { direct: fail, extension: fail }),
    ).rejects.toThrow('failed to get caption data from extension');
  });

  it('sets the code of the failure where it throws: fetch, or extension when the extension fetched', async () => {
    const downloader = new CaptionDownloader();
    const fail = async () => {
      throw new Error('boom');
    };
    await expect(
      downloader.download({ url: 'x', needsProxy: false }, { direct: fail }),
    ).rejects.toMatchObject({
      code: 'fetch',
    });
    await expect(
      downloader.download({ url: 'y', needsProxy: true }, { direct: fail, proxy: fail }),
    ).rejects.toMatchObject({ code: 'fetch' });
    await expect(
      downloader.download({ url: 'z', needsProxy: true }, { direct: fail, extension: fail }),
    ).rejects.toMatchObject({ code: 'extension' });
  });

  it('sorts en, hi, fr, de, nl, pt first, then by name', () => {
    const names: Record<string, string> = {
      es: 'Spanish',
      ar: 'Arabic',
      fr: 'French',
      en: 'English',
      pt: 'Portuguese',
    };
    const sorted = sortCaptions(
      ['es', 'ar', 'pt', 'fr', 'en'].map((language) => ({ language })),
      (c) => names[c]!,
    );
    expect(sorted.map((c) => c.language)).toEqual(['en', 'fr', 'pt', 'ar', 'es']);
  });

  it('puts forced tracks (signs, foreign dialogue) first, in the same order among themselves', () => {
    const sorted = sortCaptions(
      [
        { id: 'fr', language: 'fr' },
        { id: 'en', language: 'en' },
        { id: 'fr-forced', language: 'fr', forced: true },
        { id: 'en-forced', language: 'en', forced: true },
      ],
      (c) => c,
    );
    expect(sorted.map((c) => c.id)).toEqual(['en-forced', 'fr-forced', 'en', 'fr']);
  });

  it("turning captions on picks the language's full track, not its forced one", () => {
    const item = (id: string, language: string, forced?: boolean) => ({
      id,
      language,
      url: id,
      type: 'vtt' as const,
      needsProxy: false,
      opensubtitles: false,
      ...(forced ? { forced } : {}),
    });
    const list = [item('en-forced', 'en', true), item('fr', 'fr'), item('en', 'en')];
    expect(captionFor(list, 'en')?.id).toBe('en');
    expect(captionFor([item('en-forced', 'en', true)], 'en')?.id).toBe('en-forced');
    expect(captionFor(list, 'de')).toBeNull();
  });
});
