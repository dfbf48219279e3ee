import { createHash } from 'node:crypto';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CaptionType, Quality, ScrapeMedia } from '@marquee/providers';
import {
  isExtraFile,
  isExtrasFolder,
  parseBareEpisode,
  parseEpisodeNumber,
  parseSeasonFolder,
  parseTitleName,
  qualityFromName,
  showNameBeforeEpisode,
  splitExtension,
  subtitleLanguage,
  SUBTITLE_EXTENSIONS,
  titleKey,
  VIDEO_EXTENSIONS,
  type Container,
  type ParsedTitle,
} from './library-naming.ts';

export interface LibrarySubtitle {
  kind: 'subtitle';
  id: string;
  path: string;
  name: string;
  language: string;
  type: CaptionType;
}

export interface LibraryVideo {
  kind: 'video';
  id: string;
  path: string;
  name: string;
  container: Container;
  quality: Quality;
  subtitles: LibrarySubtitle[];
}

interface Titled extends ParsedTitle {
  key: string;
}
export interface LibraryMovie extends Titled {
  files: LibraryVideo[];
}
export interface LibraryShow extends Titled {
  /** `season:episode` → files (a multi-episode file is listed under each of its episodes). */
  episodes: Map<string, LibraryVideo[]>;
}

export interface LibraryIndex {
  movies: LibraryMovie[];
  shows: LibraryShow[];
  files: Map<string, LibraryVideo | LibrarySubtitle>;
  scannedAt: number;
}

/** Stable across scans and processes: the same file gets the same URL everywhere. */
export function libraryFileId(relativePath: string): string {
  return createHash('sha256').update(relativePath.split(path.sep).join('/')).digest('base64url').slice(0, 22);
}

const MAX_DEPTH = 8;

interface DirEntry {
  name: string;
  path: string;
  isDirectory: boolean;
}

async function listDirectory(dir: string): Promise<DirEntry[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: DirEntry[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name.startsWith('@')) continue; // hidden, and NAS metadata (@eaDir)
    const full = path.join(dir, entry.name);
    let isDirectory = entry.isDirectory();
    if (entry.isSymbolicLink()) {
      // Operators link other drives into their library; a broken link is skipped.
      const target = await stat(full).catch(() => null);
      if (!target) continue;
      isDirectory = target.isDirectory();
    } else if (!entry.isFile() && !isDirectory) continue;
    out.push({ name: entry.name, path: full, isDirectory });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Subtitles beside a video: `<video name>.<lang…>.srt|vtt`, or any subtitle when the folder holds one video. */
function subtitlesFor(videoBase: string, files: DirEntry[], videosInFolder: number, root: string): LibrarySubtitle[] {
  const out: LibrarySubtitle[] = [];
  for (const file of files) {
    const [base, extension] = splitExtension(file.name);
    const type = SUBTITLE_EXTENSIONS[extension];
    if (!type) continue;
    let tags: string[];
    if (base === videoBase) tags = [];
    else if (base.startsWith(`${videoBase}.`)) tags = base.slice(videoBase.length + 1).split('.');
    else if (videosInFolder === 1) tags = base.split(/[.\s_-]+/).slice(-3);
    else continue;
    out.push({
      kind: 'subtitle',
      id: libraryFileId(path.relative(root, file.path)),
      path: file.path,
      name: file.name,
      language: subtitleLanguage(tags),
      type,
    });
  }
  return out;
}

interface ScanState {
  root: string;
  movies: Map<string, LibraryMovie>;
  shows: Map<string, LibraryShow>;
  files: Map<string, LibraryVideo | LibrarySubtitle>;
  /** Real paths of the folders already walked: a folder linked twice (or into itself) is read once. */
  visited: Set<string>;
}

/** A show or movie is the same entry when it has the same TMDB id, or else the same folded title and year. */
const identity = (t: ParsedTitle) => (t.tmdbId ? `tmdb:${t.tmdbId}` : `title:${titleKey(t.title)}:${t.year ?? ''}`);

function addEpisode(state: ScanState, show: ParsedTitle, season: number, first: number, last: number, video: LibraryVideo): void {
  const id = identity(show);
  let entry = state.shows.get(id);
  if (!entry) {
    entry = { ...show, key: titleKey(show.title), episodes: new Map() };
    state.shows.set(id, entry);
  }
  for (let episode = first; episode <= Math.min(last, first + 20); episode++) {
    const key = `${season}:${episode}`;
    entry.episodes.set(key, [...(entry.episodes.get(key) ?? []), video]);
  }
}

function addMovie(state: ScanState, movie: ParsedTitle, video: LibraryVideo): void {
  const id = identity(movie);
  let entry = state.movies.get(id);
  if (!entry) {
    entry = { ...movie, key: titleKey(movie.title), files: [] };
    state.movies.set(id, entry);
  }
  entry.files.push(video);
}

/** The nearest folder above a file that is a show's folder (not a season or extras folder). */
function showFolder(ancestors: readonly string[]): { name: string; season: number | null } | null {
  let season: number | null = null;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const name = ancestors[i]!;
    const seasonNumber = parseSeasonFolder(name);
    if (seasonNumber !== null) {
      season ??= seasonNumber;
      continue;
    }
    return { name, season };
  }
  return null;
}

/**
 * Which show an episode file belongs to: its folder ("Show (Year) [tmdbid-…]/Season 01/…") when that
 * folder names a show (an id, a year, or the same name as the file), else the name in the file itself
 * (episodes lying in a "TV" folder).
 */
function showOf(folderName: string | undefined, nameInFile: string): ParsedTitle {
  const fromFile = parseTitleName(nameInFile);
  if (folderName === undefined) return fromFile;
  const fromFolder = parseTitleName(folderName);
  const folderNamesShow =
    fromFolder.tmdbId !== null || fromFolder.year !== null || fromFile.title === '' || titleKey(fromFile.title) === titleKey(fromFolder.title);
  return folderNamesShow ? fromFolder : fromFile;
}

async function scanFolder(state: ScanState, dir: string, ancestors: string[]): Promise<void> {
  if (ancestors.length > MAX_DEPTH) return;
  const real = await realpath(dir).catch(() => null);
  if (real === null || state.visited.has(real)) return;
  state.visited.add(real);
  const entries = await listDirectory(dir);
  const files = entries.filter((e) => !e.isDirectory);
  const videos = files.filter((f) => {
    const [base, extension] = splitExtension(f.name);
    return VIDEO_EXTENSIONS[extension] !== undefined && !isExtraFile(base);
  });

  for (const file of videos) {
    const [base, extension] = splitExtension(file.name);
    const subtitles = subtitlesFor(base, files, videos.length, state.root);
    const video: LibraryVideo = {
      kind: 'video',
      id: libraryFileId(path.relative(state.root, file.path)),
      path: file.path,
      name: file.name,
      container: VIDEO_EXTENSIONS[extension]!,
      quality: qualityFromName(base),
      subtitles,
    };
    state.files.set(video.id, video);
    for (const subtitle of subtitles) state.files.set(subtitle.id, subtitle);

    const folder = showFolder(ancestors);
    const numbered = parseEpisodeNumber(base);
    if (numbered) {
      addEpisode(state, showOf(folder?.name, showNameBeforeEpisode(base)), numbered.season, numbered.episode, numbered.lastEpisode, video);
      continue;
    }
    const bare = folder?.season !== null && folder?.season !== undefined ? parseBareEpisode(base) : null;
    if (folder && bare !== null) {
      addEpisode(state, parseTitleName(folder.name), folder.season!, bare, bare, video);
      continue;
    }
    // A movie: the file name says which, or its folder ("Title (Year)/anything.mkv").
    const fromFile = parseTitleName(base);
    const parentName = ancestors.at(-1);
    const fromFolder = parentName !== undefined ? parseTitleName(parentName) : null;
    const movie =
      fromFile.year !== null || fromFile.tmdbId !== null || !fromFolder || (fromFolder.year === null && fromFolder.tmdbId === null)
        ? { ...fromFile, tmdbId: fromFile.tmdbId ?? fromFolder?.tmdbId ?? null, imdbId: fromFile.imdbId ?? fromFolder?.imdbId ?? null }
        : fromFolder;
    addMovie(state, movie, video);
  }

  for (const folder of entries.filter((e) => e.isDirectory)) {
    if (isExtrasFolder(folder.name)) continue;
    await scanFolder(state, folder.path, [...ancestors, folder.name]);
  }
}

/** Walks the library folder once and indexes every video and subtitle file in it. */
export async function scanLibrary(root: string, now = Date.now()): Promise<LibraryIndex> {
  const state: ScanState = { root, movies: new Map(), shows: new Map(), files: new Map(), visited: new Set() };
  await scanFolder(state, root, []);
  return { movies: [...state.movies.values()], shows: [...state.shows.values()], files: state.files, scannedAt: now };
}

function matches(entry: Titled, media: ScrapeMedia): boolean {
  if (entry.tmdbId) return entry.tmdbId === media.tmdbId;
  if (entry.imdbId && media.imdbId) return entry.imdbId === media.imdbId.toLowerCase();
  if (entry.key === '' || entry.key !== titleKey(media.title)) return false;
  return entry.year === null || !media.releaseYear || entry.year === media.releaseYear;
}

/** The files of a movie or episode: tagged TMDB ids match first, then the folded title and year. */
export function findMedia(index: LibraryIndex, media: ScrapeMedia): LibraryVideo[] {
  const byPreference = <T extends Titled>(entries: T[]) =>
    entries.filter((e) => matches(e, media)).sort((a, b) => Number(b.tmdbId !== null) - Number(a.tmdbId !== null));
  if (media.type === 'movie') return byPreference(index.movies).flatMap((m) => m.files);
  const key = `${media.season.number}:${media.episode.number}`;
  return byPreference(index.shows).flatMap((s) => s.episodes.get(key) ?? []);
}

/**
 * Keeps the index of the operator's folder fresh enough: rescanned when older than `maxAgeMs`, one scan
 * at a time however many scrapes ask.
 */
export class LibraryIndexer {
  private current: LibraryIndex | null = null;
  private scanning: Promise<LibraryIndex> | null = null;

  constructor(
    readonly root: string,
    private readonly o: { maxAgeMs: number; now: () => number },
  ) {}

  async get(maxAgeMs = this.o.maxAgeMs): Promise<LibraryIndex> {
    if (this.current && this.o.now() - this.current.scannedAt < maxAgeMs) return this.current;
    this.scanning ??= scanLibrary(this.root, this.o.now()).finally(() => {
      this.scanning = null;
    });
    this.current = await this.scanning;
    return this.current;
  }

  /** A file by id; a miss triggers a rescan when the index is more than a few seconds old (a new file). */
  async file(id: string): Promise<LibraryVideo | LibrarySubtitle | null> {
    const found = (await this.get()).files.get(id);
    if (found) return found;
    return (await this.get(5_000)).files.get(id) ?? null;
  }
}
