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
import { containerOf, isSubtitleText, readHead } from './media-signature.ts';

export interface LibrarySubtitle {
  kind: 'subtitle';
  id: string;
  /** The file's real path (links resolved): what is served. */
  path: string;
  /** Its name in the library (a link's name): the subtitle type and language come from it. */
  name: string;
  language: string;
  type: CaptionType;
}

export interface LibraryVideo {
  kind: 'video';
  id: string;
  /** The file's real path (links resolved): what is served. */
  path: string;
  /** Its name in the library (a link's name): titles, qualities and the served content type come from it. */
  name: string;
  /** From the file's content, not its name (a Matroska file named .mp4 plays as webm). */
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

/**
 * Stable across scans and processes: the same file gets the same id everywhere. `root` is the position
 * of the library folder it was found in (the first folder's ids are those of a one-folder library).
 */
export function libraryFileId(relativePath: string, root = 0): string {
  const inside = relativePath.split(path.sep).join('/');
  return createHash('sha256')
    .update(root === 0 ? inside : `${root}:${inside}`)
    .digest('base64url')
    .slice(0, 22);
}

/** What the content check found for one real path, and the file it looked at. */
interface ContentCheck {
  size: number;
  mtimeMs: number;
  ino: number;
  /** The container a video plays as, 'subtitle' for subtitles, null when the content is not media. */
  verdict: Container | 'subtitle' | null;
}

/**
 * What one scan hands to the next: content checks by real path (redone when the file changes), and the
 * paths already reported as skipped (each is logged once).
 */
export interface ScanMemory {
  checks: Map<string, ContentCheck>;
  reported: Set<string>;
}

export const emptyScanMemory = (): ScanMemory => ({ checks: new Map(), reported: new Set() });

/** Where the scanner says what it skipped and why. */
export type ScanLog = (message: string, details: Record<string, unknown>) => void;

export interface ScanOptions {
  now?: number;
  memory?: ScanMemory;
  log?: ScanLog;
}

const isInside = (real: string, roots: readonly string[]) =>
  roots.some(
    (root) => real === root || real.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`),
  );

/** Reads a file's first bytes and says what it holds: a playable container, subtitles, or nothing we serve. */
async function checkContent(
  real: string,
  kind: 'video' | 'subtitle',
  size: number,
): Promise<ContentCheck['verdict']> {
  const head = await readHead(real).catch(() => null);
  if (!head) return null;
  if (kind === 'subtitle') return isSubtitleText(head) ? 'subtitle' : null;
  switch (containerOf(head, size)) {
    case 'iso-bmff':
      return 'mp4';
    case 'matroska':
      return 'webm';
    default:
      // MPEG-TS plays in players only through HLS, never as a file: not offered as one.
      return null;
  }
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

/** A file the scanner admitted: its real path is inside the library and its content is what its name says. */
interface Admitted extends DirEntry {
  real: string;
  verdict: Container | 'subtitle';
}

/** Subtitles beside a video: `<video name>.<lang…>.srt|vtt`, or any subtitle when the folder holds one video. */
function subtitlesFor(
  videoBase: string,
  subtitles: Admitted[],
  videosInFolder: number,
  idOf: (file: DirEntry) => string,
): LibrarySubtitle[] {
  const out: LibrarySubtitle[] = [];
  for (const file of subtitles) {
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
      id: idOf(file),
      path: file.real,
      name: file.name,
      language: subtitleLanguage(tags),
      type,
    });
  }
  return out;
}

/** Logs a skipped path once per process (a scan runs every minute). */
function report(state: ScanState, key: string, message: string, details: Record<string, unknown>): void {
  if (state.memory.reported.has(key)) return;
  state.memory.reported.add(key);
  state.log(message, details);
}

/**
 * Lets a file into the index only when its real path (links resolved) stays inside a library folder and
 * its first bytes are a video container (videos) or subtitle text (subtitles). Checks are remembered
 * by real path until the file changes.
 */
async function admit(state: ScanState, file: DirEntry, kind: 'video' | 'subtitle'): Promise<Admitted | null> {
  const real = await realpath(file.path).catch(() => null);
  if (real === null) return null;
  if (!isInside(real, state.realRoots)) {
    report(state, `outside:${file.path}`, 'library: skipped a link that leads outside the library folders', {
      path: file.path,
      target: real,
    });
    return null;
  }
  const info = await stat(real).catch(() => null);
  if (!info?.isFile()) return null;
  const known = state.memory.checks.get(real) ?? state.checks.get(real);
  let check: ContentCheck;
  if (known && known.size === info.size && known.mtimeMs === info.mtimeMs && known.ino === info.ino)
    check = known;
  else {
    check = {
      size: info.size,
      mtimeMs: info.mtimeMs,
      ino: info.ino,
      verdict: await checkContent(real, kind, info.size),
    };
    if (check.verdict === null) {
      state.memory.reported.delete(`content:${real}`);
      report(
        state,
        `content:${real}`,
        `library: skipped a file whose content is not ${kind === 'video' ? 'a video container' : 'subtitles'}`,
        {
          path: file.path,
        },
      );
    }
  }
  state.checks.set(real, check);
  return check.verdict === null ? null : { ...file, real, verdict: check.verdict };
}

interface ScanState {
  /** The library folders as configured (ids are paths relative to them). */
  roots: string[];
  /** Their real paths: a file is served only when its real path is inside one of them. */
  realRoots: string[];
  memory: ScanMemory;
  /** This scan's content checks (become the memory of the next). */
  checks: Map<string, ContentCheck>;
  log: ScanLog;
  movies: Map<string, LibraryMovie>;
  shows: Map<string, LibraryShow>;
  files: Map<string, LibraryVideo | LibrarySubtitle>;
  /** Real paths of the folders already walked: a folder linked twice (or into itself) is read once. */
  visited: Set<string>;
}

/** A show or movie is the same entry when it has the same TMDB id, or else the same folded title and year. */
const identity = (t: ParsedTitle) =>
  t.tmdbId ? `tmdb:${t.tmdbId}` : `title:${titleKey(t.title)}:${t.year ?? ''}`;

function addEpisode(
  state: ScanState,
  show: ParsedTitle,
  season: number,
  first: number,
  last: number,
  video: LibraryVideo,
): void {
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
    fromFolder.tmdbId !== null ||
    fromFolder.year !== null ||
    fromFile.title === '' ||
    titleKey(fromFile.title) === titleKey(fromFolder.title);
  return folderNamesShow ? fromFolder : fromFile;
}

async function scanFolder(state: ScanState, dir: string, ancestors: string[], root: number): Promise<void> {
  if (ancestors.length > MAX_DEPTH) return;
  const real = await realpath(dir).catch(() => null);
  if (real === null || state.visited.has(real)) return;
  if (!isInside(real, state.realRoots)) {
    report(state, `outside:${dir}`, 'library: skipped a link that leads outside the library folders', {
      path: dir,
      target: real,
    });
    return;
  }
  state.visited.add(real);
  const entries = await listDirectory(dir);
  const files = entries.filter((e) => !e.isDirectory);
  const named = files.filter((f) => {
    const [base, extension] = splitExtension(f.name);
    return VIDEO_EXTENSIONS[extension] !== undefined && !isExtraFile(base);
  });
  const videos: Admitted[] = [];
  for (const file of named) {
    const admitted = await admit(state, file, 'video');
    if (admitted) videos.push(admitted);
  }
  const subtitleFiles: Admitted[] = [];
  if (videos.length > 0) {
    for (const file of files) {
      if (SUBTITLE_EXTENSIONS[splitExtension(file.name)[1]] === undefined) continue;
      const admitted = await admit(state, file, 'subtitle');
      if (admitted) subtitleFiles.push(admitted);
    }
  }
  const idOf = (file: DirEntry) => libraryFileId(path.relative(state.roots[root]!, file.path), root);

  for (const file of videos) {
    const [base] = splitExtension(file.name);
    const subtitles = subtitlesFor(base, subtitleFiles, videos.length, idOf);
    const video: LibraryVideo = {
      kind: 'video',
      id: idOf(file),
      path: file.real,
      name: file.name,
      container: file.verdict as Container,
      quality: qualityFromName(base),
      subtitles,
    };
    state.files.set(video.id, video);
    for (const subtitle of subtitles) state.files.set(subtitle.id, subtitle);

    const folder = showFolder(ancestors);
    const numbered = parseEpisodeNumber(base);
    if (numbered) {
      addEpisode(
        state,
        showOf(folder?.name, showNameBeforeEpisode(base)),
        numbered.season,
        numbered.episode,
        numbered.lastEpisode,
        video,
      );
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
      fromFile.year !== null ||
      fromFile.tmdbId !== null ||
      !fromFolder ||
      (fromFolder.year === null && fromFolder.tmdbId === null)
        ? {
            ...fromFile,
            tmdbId: fromFile.tmdbId ?? fromFolder?.tmdbId ?? null,
            imdbId: fromFile.imdbId ?? fromFolder?.imdbId ?? null,
          }
        : fromFolder;
    addMovie(state, movie, video);
  }

  for (const folder of entries.filter((e) => e.isDirectory)) {
    if (isExtrasFolder(folder.name)) continue;
    await scanFolder(state, folder.path, [...ancestors, folder.name], root);
  }
}

/**
 * Walks the library folders once and indexes every video and subtitle file in them whose real path stays
 * inside one of the folders (links between them are followed) and whose content is media. Pass the
 * previous scan's memory to skip content checks of unchanged files.
 */
export async function scanLibrary(
  roots: string | readonly string[],
  o: ScanOptions = {},
): Promise<LibraryIndex> {
  const list = typeof roots === 'string' ? [roots] : [...roots];
  const realRoots = (await Promise.all(list.map((root) => realpath(root).catch(() => null)))).filter(
    (r): r is string => r !== null,
  );
  const memory = o.memory ?? emptyScanMemory();
  const state: ScanState = {
    roots: list,
    realRoots,
    memory,
    checks: new Map(),
    log: o.log ?? (() => {}),
    movies: new Map(),
    shows: new Map(),
    files: new Map(),
    visited: new Set(),
  };
  for (const [i, root] of list.entries()) await scanFolder(state, root, [], i);
  memory.checks = state.checks;
  return {
    movies: [...state.movies.values()],
    shows: [...state.shows.values()],
    files: state.files,
    scannedAt: o.now ?? Date.now(),
  };
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
    entries
      .filter((e) => matches(e, media))
      .sort((a, b) => Number(b.tmdbId !== null) - Number(a.tmdbId !== null));
  if (media.type === 'movie') return byPreference(index.movies).flatMap((m) => m.files);
  const key = `${media.season.number}:${media.episode.number}`;
  return byPreference(index.shows).flatMap((s) => s.episodes.get(key) ?? []);
}

/**
 * Keeps the index of the operator's folders fresh enough: rescanned when older than `maxAgeMs`, one scan
 * at a time however many scrapes ask.
 */
export class LibraryIndexer {
  private current: LibraryIndex | null = null;
  private scanning: Promise<LibraryIndex> | null = null;
  private readonly memory = emptyScanMemory();
  readonly roots: readonly string[];

  constructor(
    roots: string | readonly string[],
    private readonly o: { maxAgeMs: number; now: () => number; log?: ScanLog },
  ) {
    this.roots = typeof roots === 'string' ? [roots] : roots;
  }

  async get(maxAgeMs = this.o.maxAgeMs): Promise<LibraryIndex> {
    if (this.current && this.o.now() - this.current.scannedAt < maxAgeMs) return this.current;
    this.scanning ??= scanLibrary(this.roots, {
      now: this.o.now(),
      memory: this.memory,
      ...(this.o.log ? { log: this.o.log } : {}),
    }).finally(() => {
      this.scanning = null;
    });
    this.current = await this.scanning;
    return this.current;
  }

  /** A file by id; a miss triggers a rescan when the index is more than a few seconds old (a new file). */
  async file(id: string): Promise<LibraryVideo | LibrarySubtitle | null> {
    const found = (await this.get()).files.get(id) ?? (await this.get(5_000)).files.get(id);
    return found && (await this.unchanged(found)) ? found : null;
  }

  /**
   * Whether a file is still what the scan admitted, checked before each request is served: its path still
   * resolves to itself (no link put in its place) and, when it changed since (size, time, inode: another
   * file put there, a hard link), its content is checked again.
   */
  private async unchanged(file: LibraryVideo | LibrarySubtitle): Promise<boolean> {
    const real = await realpath(file.path).catch(() => null);
    if (real !== file.path) return false;
    const info = await stat(real).catch(() => null);
    if (!info?.isFile()) return false;
    let known = this.memory.checks.get(real);
    if (!known || known.size !== info.size || known.mtimeMs !== info.mtimeMs || known.ino !== info.ino) {
      known = {
        size: info.size,
        mtimeMs: info.mtimeMs,
        ino: info.ino,
        verdict: await checkContent(real, file.kind, info.size),
      };
      this.memory.checks.set(real, known);
    }
    return known.verdict === (file.kind === 'subtitle' ? 'subtitle' : file.container);
  }
}
