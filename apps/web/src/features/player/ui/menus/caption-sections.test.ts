import { describe, expect, it } from 'vitest';
import type { CaptionListItem, ImageSubtitleItem, PlayerSource } from '../../core/types.ts';
import { captionSections } from './caption-sections.ts';

const names: Record<string, string> = { en: 'English', fr: 'French', de: 'German', sv: 'Swedish' };
const languageName = (code: string) => names[code] ?? code;

const text = (id: string, language: string, extra: Partial<CaptionListItem> = {}): CaptionListItem => ({
  id,
  language,
  url: `/subs/${id}.vtt`,
  type: 'vtt',
  needsProxy: false,
  opensubtitles: false,
  ...extra,
});
const burned: PlayerSource = { type: 'hls', url: '/lib/hls/master.m3u8' };
const image = (id: string, language: string, forced = false): ImageSubtitleItem => ({
  id,
  language,
  label: 'PGS',
  forced,
  sources: { default: burned },
});

const list = [
  text('os-fr', 'fr', { opensubtitles: true }),
  text('sv', 'sv'),
  text('fr', 'fr', { label: 'SDH' }),
  text('os-en', 'en', { opensubtitles: true }),
  text('de-forced', 'de', { forced: true }),
];
const images = [image('pgs-en', 'en'), image('pgs-sv', 'sv', true)];

describe('the captions menu lists', () => {
  it("puts the source's text captions and picture subtitles together, forced first, OpenSubtitles' apart", () => {
    const { own, openSubtitles } = captionSections(list, images, '', languageName);
    expect(own.map((r) => `${r.kind}:${r.item.id}`)).toEqual([
      'text:de-forced',
      'image:pgs-sv',
      'image:pgs-en',
      'text:fr',
      'text:sv',
    ]);
    expect(openSubtitles.map((c) => c.id)).toEqual(['os-en', 'os-fr']);
  });

  it("keeps what the search finds in the language's name or the track's label, in any case", () => {
    const byName = captionSections(list, images, 'fRE', languageName);
    expect(byName.own.map((r) => r.item.id)).toEqual(['fr']);
    expect(byName.openSubtitles.map((c) => c.id)).toEqual(['os-fr']);
    expect(captionSections(list, images, 'sdh', languageName).own.map((r) => r.item.id)).toEqual(['fr']);
    expect(captionSections(list, images, 'pgs', languageName).own.map((r) => r.item.id)).toEqual([
      'pgs-sv',
      'pgs-en',
    ]);
  });
});
