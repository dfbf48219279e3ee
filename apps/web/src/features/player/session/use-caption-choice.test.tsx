import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CaptionFetchError } from '../captions/caption-fetch.ts';
import { CaptionParseError } from '../captions/parse.ts';
import type { CaptionListItem } from '../core/types.ts';
import { captionErrorCode, useCaptionChoice, useCaptionUpload } from './use-caption-choice.ts';

const item: CaptionListItem = {
  id: 'c1',
  language: 'en',
  url: 'https://x/en.srt',
  type: 'srt',
  needsProxy: false,
  opensubtitles: false,
};

describe('captionErrorCode', () => {
  it('reads the code the captions module set where it threw, never the text', () => {
    expect(captionErrorCode(new CaptionFetchError('fetch'))).toBe('fetch');
    expect(captionErrorCode(new CaptionFetchError('extension'))).toBe('extension');
    expect(captionErrorCode(new CaptionParseError('empty'))).toBe('empty');
    expect(captionErrorCode(new CaptionParseError('invalid'))).toBe('invalid');
  });

  it('treats any other error as the fallback, whatever its text or code', () => {
    expect(captionErrorCode(Object.assign(new Error('whatever'), { code: 'empty' }))).toBe('fetch');
    expect(captionErrorCode(new Error('Given text is empty'))).toBe('fetch');
    expect(captionErrorCode(null, 'read')).toBe('read');
    expect(captionErrorCode('boom', 'read')).toBe('read');
  });
});

describe('useCaptionChoice', () => {
  it('loading, then idle when shown or the kind of failure', async () => {
    let finish: (error?: Error) => void = () => undefined;
    const select = vi.fn(
      () => new Promise<void>((resolve, reject) => (finish = (e) => (e ? reject(e) : resolve()))),
    );
    const { result } = renderHook(() => useCaptionChoice(select));
    expect(result.current.state).toEqual({ kind: 'idle' });
    act(() => result.current.choose(item));
    expect(select).toHaveBeenCalledWith(item);
    expect(result.current.state).toEqual({ kind: 'loading' });
    await act(async () => finish(new CaptionFetchError('extension')));
    expect(result.current.state).toEqual({ kind: 'failed', code: 'extension' });
    act(() => result.current.choose(item));
    await act(async () => finish());
    expect(result.current.state).toEqual({ kind: 'idle' });
  });
});

describe('useCaptionUpload', () => {
  it('parse failures by kind, an unreadable file as "read"; a new file clears the error', async () => {
    const upload = vi
      .fn<(file: File) => Promise<void>>()
      .mockRejectedValueOnce(new CaptionParseError('invalid'))
      .mockRejectedValueOnce(new DOMException('NotReadableError'))
      .mockResolvedValueOnce(undefined);
    const file = new File(['x'], 'a.srt');
    const { result } = renderHook(() => useCaptionUpload(upload));
    act(() => result.current.upload(undefined));
    expect(upload).not.toHaveBeenCalled();
    await act(async () => result.current.upload(file));
    expect(result.current.error).toBe('invalid');
    await act(async () => result.current.upload(file));
    expect(result.current.error).toBe('read');
    await act(async () => result.current.upload(file));
    expect(result.current.error).toBeNull();
  });
});
