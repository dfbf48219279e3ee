import { useState } from 'react';
import { uploadCaption } from '../captions/caption-actions.ts';
import { CaptionFetchError } from '../captions/caption-fetch.ts';
import { CaptionParseError } from '../captions/parse.ts';
import type { CaptionListItem } from '../core/types.ts';
import { usePlayerDeps } from './player-deps.tsx';

/** Why a caption could not be shown; each has its text under `player.captions.errors.<code>`. */
export type CaptionErrorCode = 'fetch' | 'extension' | 'empty' | 'invalid' | 'read';

/**
 * The kind of a caption failure: the captions module's errors carry it as their `code`. Anything else
 * is a failed download (choosing) or an unreadable file (uploading).
 */
export function captionErrorCode(error: unknown, fallback: CaptionErrorCode = 'fetch'): CaptionErrorCode {
  if (error instanceof CaptionFetchError || error instanceof CaptionParseError) return error.code;
  return fallback;
}

export type CaptionChoiceState =
  { kind: 'idle' } | { kind: 'loading' } | { kind: 'failed'; code: CaptionErrorCode };

/** Choosing one caption of the list: loading, then shown (and `onShown`) or why not. */
export function useCaptionChoice(given?: (item: CaptionListItem) => Promise<void>) {
  const deps = usePlayerDeps();
  const select = given ?? deps.selectCaption;
  const [state, setState] = useState<CaptionChoiceState>({ kind: 'idle' });
  const choose = (item: CaptionListItem, onShown?: () => void) => {
    setState({ kind: 'loading' });
    select(item).then(
      () => {
        setState({ kind: 'idle' });
        onShown?.();
      },
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
