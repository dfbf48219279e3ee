import { describe, expect, it } from 'vitest';
import {
  isExtraFile,
  parseBareEpisode,
  parseEpisodeNumber,
  parseSeasonFolder,
  parseSubtitleTags,
  parseTitleName,
  qualityFromName,
  showNameBeforeEpisode,
  splitExtension,
  SUBTITLE_EXTENSIONS,
  subtitleLanguage,
  titleKey,
  VIDEO_EXTENSIONS,
} from './library-naming.ts';

describe('parseTitleName', () => {
  it.each([
    ['The Matrix (1999) [tmdbid-603]', { title: 'The Matrix', year: 1999, tmdbId: '603', imdbId: null }],
    ['The Matrix (1999) {tmdb-603}', { title: 'The Matrix', year: 1999, tmdbId: '603', imdbId: null }],
    [
      'The Matrix (1999) [imdbid-tt0133093]',
      { title: 'The Matrix', year: 1999, tmdbId: null, imdbId: 'tt0133093' },
    ],
    [
      'Breaking Bad (2008) [tmdbid=1396]',
      { title: 'Breaking Bad', year: 2008, tmdbId: '1396', imdbId: null },
    ],
    ['Inception (2010) - 1080p', { title: 'Inception', year: 2010, tmdbId: null, imdbId: null }],
    [
      '2001 A Space Odyssey (1968)',
      { title: '2001 A Space Odyssey', year: 1968, tmdbId: null, imdbId: null },
    ],
    ['Blade Runner 2049 (2017)', { title: 'Blade Runner 2049', year: 2017, tmdbId: null, imdbId: null }],
    ['The.Matrix.1999.1080p.BluRay', { title: 'The Matrix', year: 1999, tmdbId: null, imdbId: null }],
    ['Spider-Man No Way Home', { title: 'Spider-Man No Way Home', year: null, tmdbId: null, imdbId: null }],
    ['1917', { title: '1917', year: null, tmdbId: null, imdbId: null }],
    [
      'Amélie (2001) [tmdbid-194] [Director’s Cut]',
      { title: 'Amélie', year: 2001, tmdbId: '194', imdbId: null },
    ],
  ])('%s', (name, expected) => {
    expect(parseTitleName(name)).toEqual(expected);
  });
});

describe('episodes and seasons', () => {
  it.each([
    ['Breaking Bad S01E02', { season: 1, episode: 2, lastEpisode: 2 }],
    ['breaking.bad.s01e02.720p', { season: 1, episode: 2, lastEpisode: 2 }],
    ['Show - S10E100 - Title', { season: 10, episode: 100, lastEpisode: 100 }],
    ['Show S01E01-E03', { season: 1, episode: 1, lastEpisode: 3 }],
    ['Show S01E01E02', { season: 1, episode: 1, lastEpisode: 2 }],
    ['Show 2x05', { season: 2, episode: 5, lastEpisode: 5 }],
  ])('%s', (name, expected) => {
    expect(parseEpisodeNumber(name)).toEqual(expected);
  });

  it('finds no episode in a movie name (years and resolutions are not episodes)', () => {
    expect(parseEpisodeNumber('The Matrix (1999) - 1080p')).toBeNull();
    expect(parseEpisodeNumber('Blade Runner 2049 (2017)')).toBeNull();
  });

  it('reads bare episode names inside a season folder', () => {
    expect(parseBareEpisode('Episode 4')).toBe(4);
    expect(parseBareEpisode('E07 - Pilot')).toBe(7);
    expect(parseBareEpisode('Pilot')).toBeNull();
  });

  it('takes the show name from before the episode number', () => {
    expect(showNameBeforeEpisode("Breaking Bad - S01E02 - Cat's in the Bag")).toBe('Breaking Bad');
    expect(showNameBeforeEpisode('S01E02')).toBe('');
  });

  it.each([
    ['Season 01', 1],
    ['Season 1', 1],
    ['S02', 2],
    ['Staffel 3', 3],
    ['Specials', 0],
    ['Extras', null],
    ['Breaking Bad (2008)', null],
  ])('season folder %s', (name, expected) => {
    expect(parseSeasonFolder(name)).toBe(expected);
  });
});

describe('files', () => {
  it('splits extensions, lower-cased', () => {
    expect(splitExtension('The Matrix (1999).MKV')).toEqual(['The Matrix (1999)', '.mkv']);
    expect(splitExtension('.hidden')).toEqual(['.hidden', '']);
  });

  it('reads the quality a name announces', () => {
    expect(qualityFromName('Inception (2010) - 1080p')).toBe('1080');
    expect(qualityFromName('movie.720p.x264')).toBe('720');
    expect(qualityFromName('Movie 2160p HDR')).toBe('4k');
    expect(qualityFromName('Movie [4K]')).toBe('4k');
    expect(qualityFromName('Movie (1999)')).toBe('unknown');
  });

  it('recognises extras', () => {
    expect(isExtraFile('Inception (2010)-trailer')).toBe(true);
    expect(isExtraFile('Inception (2010) - sample')).toBe(true);
    expect(isExtraFile('Inception (2010)')).toBe(false);
  });

  it('reads subtitle languages from the tags after the video name', () => {
    expect(subtitleLanguage(['en'])).toBe('en');
    expect(subtitleLanguage(['fr', 'forced'])).toBe('fr');
    expect(subtitleLanguage(['forced', 'eng'])).toBe('en');
    expect(subtitleLanguage(['pt-br'])).toBe('pt-BR');
    expect(subtitleLanguage(['Français'])).toBe('fr');
    expect(subtitleLanguage(['sdh'])).toBe('und');
    expect(subtitleLanguage([])).toBe('und');
  });

  it('reads Jellyfin/Plex subtitle flags and labels: forced, SDH/HI/CC, default, in any order', () => {
    const none = { forced: false, hearingImpaired: false, isDefault: false, label: null };
    expect(parseSubtitleTags(['en'])).toEqual({ ...none, language: 'en' });
    expect(parseSubtitleTags(['fr', 'forced'])).toEqual({ ...none, language: 'fr', forced: true });
    expect(parseSubtitleTags(['foreign', 'de'])).toEqual({ ...none, language: 'de', forced: true });
    for (const flag of ['sdh', 'hi', 'cc', 'SDH'])
      expect(parseSubtitleTags(['en', flag])).toEqual({ ...none, language: 'en', hearingImpaired: true });
    expect(parseSubtitleTags(['es', 'default', 'forced'])).toEqual({
      ...none,
      language: 'es',
      isDefault: true,
      forced: true,
    });
    expect(parseSubtitleTags(["Director's Commentary", 'en'])).toEqual({
      ...none,
      language: 'en',
      label: "Director's Commentary",
    });
    // The first language wins; a second one is part of the label.
    expect(parseSubtitleTags(['en', 'fr'])).toEqual({ ...none, language: 'en', label: 'fr' });
    expect(parseSubtitleTags([])).toEqual({ ...none, language: 'und' });
    expect(parseSubtitleTags(['Signs & Songs'])).toEqual({
      ...none,
      language: 'und',
      label: 'Signs & Songs',
    });
  });

  it('knows the containers ffmpeg reads and the subtitle formats beside videos', () => {
    for (const extension of ['.mkv', '.mp4', '.m4v', '.mov', '.webm', '.avi', '.ts', '.m2ts', '.mts', '.wmv'])
      expect(VIDEO_EXTENSIONS.has(extension), extension).toBe(true);
    for (const extension of ['.asf', '.flv', '.mpg', '.mpeg', '.vob', '.ogv', '.3gp', '.divx'])
      expect(VIDEO_EXTENSIONS.has(extension), extension).toBe(true);
    expect(VIDEO_EXTENSIONS.has('.mp3')).toBe(false);
    expect(VIDEO_EXTENSIONS.has('.srt')).toBe(false);
    expect(SUBTITLE_EXTENSIONS).toEqual({
      '.srt': 'srt',
      '.vtt': 'vtt',
      '.ass': 'ass',
      '.ssa': 'ssa',
      '.sup': 'sup',
    });
  });

  it('folds titles so punctuation, case and accents do not matter', () => {
    expect(titleKey('Spider-Man: No Way Home')).toBe(titleKey('Spider-Man - No Way Home'));
    expect(titleKey('Amélie')).toBe(titleKey('AMELIE'));
    expect(titleKey('Fast & Furious')).toBe(titleKey('Fast and Furious'));
  });
});
