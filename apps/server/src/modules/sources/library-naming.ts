import { foldForSearch } from '../metadata/search-rules.ts';
import { fromIso6392 } from '../media/language.ts';
import type { Quality } from '@marquee/providers';

// How Jellyfin and Plex users name their media folders, read back into titles, years, ids, episodes.
// Pure functions: the scanner (library-index.ts) feeds them names, the tests feed them examples.

/**
 * Video files the library looks at: every container ffmpeg reads. With ffprobe a file is indexed when it
 * holds a video stream; without it only MP4 and Matroska content is (library-index.ts).
 */
export const VIDEO_EXTENSIONS: ReadonlySet<string> = new Set([
  '.mkv',
  '.mk3d',
  '.mp4',
  '.m4v',
  '.mov',
  '.qt',
  '.webm',
  '.avi',
  '.divx',
  '.xvid',
  '.ts',
  '.m2ts',
  '.mts',
  '.m2t',
  '.tp',
  '.trp',
  '.wmv',
  '.asf',
  '.flv',
  '.f4v',
  '.mpg',
  '.mpeg',
  '.mpe',
  '.m1v',
  '.m2v',
  '.vob',
  '.evo',
  '.ogv',
  '.ogm',
  '.3gp',
  '.3g2',
  '.rm',
  '.rmvb',
  '.dv',
  '.nut',
  '.mxf',
  '.wtv',
  '.dvr-ms',
  '.y4m',
  '.ivf',
]);

/** Subtitle files beside a video, by extension: text (SubRip, WebVTT), styled text (ASS/SSA) and PGS images. */
export type SubtitleFormat = 'srt' | 'vtt' | 'ass' | 'ssa' | 'sup';
export const SUBTITLE_EXTENSIONS: Readonly<Record<string, SubtitleFormat>> = {
  '.srt': 'srt',
  '.vtt': 'vtt',
  '.ass': 'ass',
  '.ssa': 'ssa',
  '.sup': 'sup',
};

export interface ParsedTitle {
  title: string;
  year: number | null;
  tmdbId: string | null;
  imdbId: string | null;
}

export interface EpisodeNumber {
  season: number;
  episode: number;
  /** Last episode of a multi-episode file (`S01E01-E02`), else equal to `episode`. */
  lastEpisode: number;
}

/** Splits `name.ext` → `[name, .ext]` (extension lower-cased; none → ''). */
export function splitExtension(fileName: string): [string, string] {
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0) return [fileName, ''];
  return [fileName.slice(0, dot), fileName.slice(dot).toLowerCase()];
}

const ID_TAG = /[[{(]\s*(tmdb|tmdbid|imdb|imdbid)\s*[-=:]\s*([a-z0-9]+)\s*[\]})]/gi;
const BRACKETS = /\[[^\]]*\]|\{[^}]*\}/g;

/**
 * "The Matrix (1999) [tmdbid-603]" → The Matrix, 1999, 603. Understands Jellyfin's `[tmdbid-603]`,
 * Plex's `{tmdb-603}`, `[imdbid-tt0133093]`, a year in parentheses, scene-style dotted names
 * ("The.Matrix.1999.1080p") and drops what follows the year (" - 1080p", edition tags).
 */
export function parseTitleName(name: string): ParsedTitle {
  let tmdbId: string | null = null;
  let imdbId: string | null = null;
  for (const match of name.matchAll(ID_TAG)) {
    const kind = match[1]!.toLowerCase();
    const value = match[2]!;
    if (kind.startsWith('tmdb') && /^\d{1,10}$/.test(value)) tmdbId ??= value;
    if (kind.startsWith('imdb') && /^tt\d{1,10}$/i.test(value)) imdbId ??= value.toLowerCase();
  }
  let rest = name.replace(ID_TAG, ' ').replace(BRACKETS, ' ');
  if (!rest.includes(' ') && /[._]/.test(rest)) rest = rest.replace(/[._]/g, ' ');

  let year: number | null = null;
  const inParentheses = [...rest.matchAll(/\((\d{4})\)/g)].pop();
  if (inParentheses && isYear(Number(inParentheses[1]))) {
    year = Number(inParentheses[1]);
    rest = rest.slice(0, inParentheses.index);
  } else {
    const bare = /^(.+)[\s._-]+\(?((?:18|19|20)\d{2})\)?(?:[\s._-]|$)/.exec(rest);
    if (bare && isYear(Number(bare[2]))) {
      year = Number(bare[2]);
      rest = bare[1]!;
    }
  }
  const title = rest
    .replace(/\s+-\s+.*$/, (m) => (year === null ? m : ''))
    .replace(/\(\s*\)/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s-]+|[\s-]+$/g, '');
  return { title, year, tmdbId, imdbId };
}

function isYear(n: number): boolean {
  return n >= 1870 && n <= 2999;
}

const EPISODE = /(?:^|[^a-z0-9])s(\d{1,3})[\s._-]?e(\d{1,4})((?:[\s._-]?-?[\s._-]?e\d{1,4})*)/i;
const CROSS_EPISODE = /(?:^|[^a-z0-9])(\d{1,2})x(\d{2,3})(?:[^a-z0-9]|$)/i;

/** `S01E02`, `s1e2`, `S01E01-E02`, `1x02` in a file name, or null. */
export function parseEpisodeNumber(fileName: string): EpisodeNumber | null {
  const match = EPISODE.exec(fileName);
  if (match) {
    const season = Number(match[1]);
    const episode = Number(match[2]);
    const more = [...(match[3] ?? '').matchAll(/e(\d{1,4})/gi)].map((m) => Number(m[1]));
    return { season, episode, lastEpisode: Math.max(episode, ...more) };
  }
  const cross = CROSS_EPISODE.exec(fileName);
  if (cross) return { season: Number(cross[1]), episode: Number(cross[2]), lastEpisode: Number(cross[2]) };
  return null;
}

/** Inside a season folder, Jellyfin also accepts "Episode 2", "Ep 02", "E02". */
export function parseBareEpisode(fileName: string): number | null {
  const match = /(?:^|[\s._-])(?:episode|ep|e)[\s._-]?(\d{1,4})(?:[\s._-]|$)/i.exec(fileName);
  return match ? Number(match[1]) : null;
}

/** The part of an episode file name before `S01E02` ("Breaking Bad - S01E02 - Cat's in the Bag" → "Breaking Bad"). */
export function showNameBeforeEpisode(fileName: string): string {
  const match = EPISODE.exec(fileName) ?? CROSS_EPISODE.exec(fileName);
  const before = match ? fileName.slice(0, match.index) : fileName;
  return before.replace(/[\s._-]+$/, '');
}

/** "Season 01", "Season 1", "S01", "Series 2", "Staffel 3", "Saison 1", "Temporada 1"; "Specials" is season 0. */
export function parseSeasonFolder(folderName: string): number | null {
  if (/^specials?$/i.test(folderName.trim())) return 0;
  const match = /^(?:season|series|staffel|saison|temporada|stagione|s)[\s._-]*(\d{1,3})$/i.exec(
    folderName.trim(),
  );
  return match ? Number(match[1]) : null;
}

/** Folders and file suffixes Jellyfin/Plex treat as extras, not the title itself. */
const EXTRA_FOLDERS = new Set([
  'extras',
  'featurettes',
  'behind the scenes',
  'deleted scenes',
  'interviews',
  'scenes',
  'shorts',
  'trailers',
  'samples',
  'sample',
  'other',
]);
export function isExtrasFolder(folderName: string): boolean {
  return EXTRA_FOLDERS.has(folderName.trim().toLowerCase());
}
export function isExtraFile(baseName: string): boolean {
  return /[-._ ](trailer|sample|featurette|behindthescenes|deleted|interview|scene|short|extra)$/i.test(
    baseName,
  );
}

/** The resolution a file name announces ("… - 1080p", "2160p", "4K"), else unknown. */
export function qualityFromName(name: string): Quality {
  if (/(?:^|[^a-z0-9])(2160p|4k|uhd)(?:[^a-z0-9]|$)/i.test(name)) return '4k';
  const match = /(?:^|[^a-z0-9])(1080|720|480|360)[pi](?:[^a-z0-9]|$)/i.exec(name);
  return match ? (match[1] as Quality) : 'unknown';
}

/** Equal for names a viewer would call the same title ("Spider-Man: No Way Home" = "Spider-Man - No Way Home"). */
export function titleKey(title: string): string {
  return foldForSearch(title);
}

const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  english: 'en',
  french: 'fr',
  francais: 'fr',
  spanish: 'es',
  espanol: 'es',
  german: 'de',
  deutsch: 'de',
  italian: 'it',
  portuguese: 'pt',
  dutch: 'nl',
  swedish: 'sv',
  norwegian: 'no',
  danish: 'da',
  finnish: 'fi',
  polish: 'pl',
  czech: 'cs',
  hungarian: 'hu',
  romanian: 'ro',
  greek: 'el',
  turkish: 'tr',
  russian: 'ru',
  ukrainian: 'uk',
  arabic: 'ar',
  hebrew: 'he',
  persian: 'fa',
  hindi: 'hi',
  japanese: 'ja',
  korean: 'ko',
  chinese: 'zh',
  vietnamese: 'vi',
  thai: 'th',
  indonesian: 'id',
};

/** Words in a subtitle file's name that are flags, not a language or a label (Jellyfin's and Plex's). */
const FORCED_FLAGS = new Set(['forced', 'foreign']);
const HEARING_IMPAIRED_FLAGS = new Set(['sdh', 'hi', 'cc']);
const DEFAULT_FLAGS = new Set(['default']);

function languageOf(raw: string): string | null {
  const tag = raw.toLowerCase();
  if (/^[a-z]{2}$/.test(tag)) return tag;
  if (/^[a-z]{2}[-_][a-z]{2,4}$/.test(tag)) return `${tag.slice(0, 2)}-${tag.slice(3).toUpperCase()}`;
  const fromThreeLetters = fromIso6392(tag);
  if (fromThreeLetters) return fromThreeLetters;
  return LANGUAGE_NAMES[foldForSearch(tag)] ?? null;
}

/** What the words after a video's name say about a subtitle file beside it. */
export interface SubtitleTags {
  /** ISO 639-1 (`en`, `pt-BR`), or `und`. */
  language: string;
  forced: boolean;
  hearingImpaired: boolean;
  isDefault: boolean;
  /** What is left once the language and the flags are taken (`Commentary`), or null. */
  label: string | null;
}

/**
 * Reads the words between a video's name and a subtitle's extension, Jellyfin/Plex style:
 * `Title.en.srt`, `Title.fr.forced.srt`, `Title.en.sdh.srt` (also `.hi.`, `.cc.`), `Title.de.default.ass`,
 * `Title.Director's Commentary.en.srt`; flags and the language in any order, the first language wins.
 */
export function parseSubtitleTags(tags: readonly string[]): SubtitleTags {
  const out: SubtitleTags = {
    language: 'und',
    forced: false,
    hearingImpaired: false,
    isDefault: false,
    label: null,
  };
  let hasLanguage = false;
  const rest: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    const lower = tag.toLowerCase();
    if (tag === '') continue;
    if (FORCED_FLAGS.has(lower)) out.forced = true;
    else if (HEARING_IMPAIRED_FLAGS.has(lower)) out.hearingImpaired = true;
    else if (DEFAULT_FLAGS.has(lower)) out.isDefault = true;
    else {
      const language = hasLanguage ? null : languageOf(tag);
      if (language) {
        out.language = language;
        hasLanguage = true;
      } else rest.push(tag);
    }
  }
  out.label = rest.length ? rest.join(' ') : null;
  return out;
}

/**
 * The language of a subtitle file from the words after the video's name: `en`, `pt-BR`, `eng`, `English`,
 * with flags like `forced`/`sdh` around it. `und` when none is given.
 */
export function subtitleLanguage(tags: readonly string[]): string {
  return parseSubtitleTags(tags).language;
}
