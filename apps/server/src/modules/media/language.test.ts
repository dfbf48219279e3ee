import { describe, expect, it } from 'vitest';
import { fromIso6392, isoLanguage, sameLanguage } from './language.ts';

describe('track languages', () => {
  it('maps the files’ ISO 639-2 codes (both forms) to ISO 639-1, and keeps what it does not know', () => {
    expect(['eng', 'fre', 'fra', 'ger', 'deu', 'jpn', 'chi', 'zho'].map(isoLanguage)).toEqual([
      'en',
      'fr',
      'fr',
      'de',
      'de',
      'ja',
      'zh',
      'zh',
    ]);
    expect(isoLanguage('EN')).toBe('en');
    expect(isoLanguage('tlh')).toBe('tlh');
    for (const none of ['', 'und', 'unk', 'zxx', null, undefined]) expect(isoLanguage(none)).toBe('und');
    expect(fromIso6392('fre')).toBe('fr');
    expect(fromIso6392('xyz')).toBeNull();
  });

  it('matches a preferred language to a track, never on "und"', () => {
    expect(sameLanguage('fre', 'fr')).toBe(true);
    expect(sameLanguage('por', 'pt-BR')).toBe(true);
    expect(sameLanguage('eng', 'fr')).toBe(false);
    expect(sameLanguage('und', 'und')).toBe(false);
  });
});
