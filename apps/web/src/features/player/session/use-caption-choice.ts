import { useState } from 'react';
import { selectCaption, uploadCaption } from '../captions/caption-actions.ts';
import { CaptionFetchError } from '../captions/caption-fetch.ts';
import { CaptionParseError } from '../captions/parse.ts';
import type { CaptionListItem } from '../core/types.ts';

/** Why a caption could not be shown; each has its text under `player.captions.errors.<code>`. */
export type CaptionErrorCode = 'fetch' | 'extension' | 'empty' | 'invalid' | 'read';

const CODES: readonly CaptionErrorCode[] = ['fetch', 'extension', 'empty', 'invalid', 'read'];

// The captions module's errors carry the seed's texts; these are the only values their constructors take.
const EXTENSION_FETCH: ConstructorParameters<typeof CaptionFetchError>[0] =
  'failed to get caption data from extension';
const EMPTY_TEXT: ConstructorParameters<typeof CaptionParseError>[0] = 'Given text is empty';

/**
 * The kind of a caption failure, from the error's class (and its `code` when it has one). Anything
 * else is a failed download (choosing) or an unreadable file (uploading).
 */
export function captionErrorCode(error: unknown, fallback: CaptionErrorCode = 'fetch'): CaptionErrorCode {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (CODES as readonly string[]).includes(code))
    return code as CaptionErrorCode;
  if (error instanceof CaptionParseError) return error.message === EMPTY_TEXT ? 'empty' : 'invalid';
  if (error instanceof CaptionFetchError) return error.message === EXTENSION_FETCH ? 'extension' : 'fetch';
  return fallback;
}

export type CaptionChoiceState =
  { kind: 'idle' } | { kind: 'loading' } | { kind: 'failed'; code: CaptionErrorCode };

/** Choosing one caption of the list: loading, then shown or why not. */
export function useCaptionChoice(select: (item: CaptionListItem) => Promise<void> = selectCaption) {
  const [state, setState] = useState<CaptionChoiceState>({ kind: 'idle' });
  const choose = (item: CaptionListItem) => {
    setState({ kind: 'loading' });
    select(item).then(
      () => setState({ kind: 'idle' }),
      (error: unknown) => setState({ kind: 'failed', code: captionErrorCode(error) }),
    );
  };
  return { state, choose };
}

/** A caption file from the viewer's device: shown, or why not. */
export function useCaptionUpload(upload: (file: File) => Promise<void> = uploadCaption) {
  const [error, setError] = useState<CaptionErrorCode | null>(null);
  const choose = (file: File | undefined) => {
    if (!file) return;
    setError(null);
    upload(file).catch((e: unknown) => setError(captionErrorCode(e, 'read')));
  };
  return { error, upload: choose };
}
