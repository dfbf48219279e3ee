import { sortCaptions } from '../../captions/caption-fetch.ts';
import type { CaptionListItem, ImageSubtitleItem } from '../../core/types.ts';

/** A row of the source's own subtitles: a text caption, or a picture subtitle burned in when chosen. */
export type OwnRow =
  | { kind: 'text'; item: CaptionListItem; language: string; forced: boolean }
  | { kind: 'image'; item: ImageSubtitleItem; language: string; forced: boolean };

/**
 * The captions menu's two lists, each sorted (forced first): the source's own (its text captions and a
 * library title's picture subtitles together) and OpenSubtitles'. A search keeps the captions whose
 * language name or label holds it, in any case.
 */
export function captionSections(
  list: readonly CaptionListItem[],
  images: readonly ImageSubtitleItem[],
  search: string,
  languageName: (code: string) => string,
): { own: OwnRow[]; openSubtitles: CaptionListItem[] } {
  const matches = (c: { language: string; label?: string | null | undefined }) =>
    !search ||
    [languageName(c.language), c.label ?? ''].some((text) =>
      text.toLowerCase().includes(search.toLowerCase()),
    );
  const filtered = list.filter(matches);
  const own = sortCaptions(
    [
      ...filtered
        .filter((c) => !c.opensubtitles)
        .map((item): OwnRow => ({ kind: 'text', item, language: item.language, forced: !!item.forced })),
      ...images
        .filter(matches)
        .map((item): OwnRow => ({ kind: 'image', item, language: item.language, forced: item.forced })),
    ],
    languageName,
  );
  const openSubtitles = sortCaptions(
    filtered.filter((c) => c.opensubtitles),
    languageName,
  );
  return { own, openSubtitles };
}
