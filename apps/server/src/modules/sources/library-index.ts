import { createHash } from 'node:crypto';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FSWatcher } from 'chokidar';
import pLimit from 'p-limit';
import type { CaptionType, Quality, ScrapeMedia } from '@marquee/providers';
import type { MediaInfo } from '../media/media-info.ts';
import type { FileIdentity, LibraryProber } from '../media/media-prober.ts';
import {
  isExtraFile,
  isExtrasFolder,
  parseBareEpisode,
  parseEpisodeNumber,
  parseSeasonFolder,
  parseSubtitleTags,
  parseTitleName,
  qualityFromName,
  showNameBeforeEpisode,
  splitExtension,
  SUBTITLE_EXTENSIONS,
  titleKey,
  VIDEO_EXTENSIONS,
  type ParsedTitle,
  type SubtitleFormat,
  type SubtitleTags,
} from './library-naming.ts';
import {
  containerOf,
  isPgsSubtitle,
  isStyledSubtitleText,
  isSubtitleText,
  readHead,
} from './media-signature.ts';

/** What a video file is, from its content: ISO BMFF (MP4, MOV, M4V), Matroska/WebM, or anything else ffmpeg reads. */
export type VideoFormat = 'mp4' | 'matroska' | 'other';

export interface LibrarySubtitle extends SubtitleTags {
  kind: 'subtitle';
  id: string;
  /** The file's real path (links resolved): what is served. */
  path: string;
  /** Its name in the library (a link's name): the format, language and flags come from it. */
  name: string;
  format: SubtitleFormat;
  /** The caption type of srt/vtt files; ASS/SSA/PGS say `vtt`, what a conversion to text gives. */
  type: CaptionType;
  /** Its inode when checked before this request: the file served must be that one. */
  ino?: number;
}

export interface LibraryVideo {
  kind: 'video';
  id: string;
  /** The file's real path (links resolved): what is served. */
  path: string;
  /** Its name in the library (a link's name): titles and qualities come from it. */
  name: string;
  /** From the file's content (or ffprobe's format), not its name: a Matroska file named .mp4 is matroska. */
  format: VideoFormat;
  /** What ffprobe said about the file; null when the library runs without ffprobe. */
  info: MediaInfo | null;
  size: number;
  mtimeMs: number;
  /** Its inode when checked before this request: the file served must be that one. */
  ino?: number;
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

/** Why a file under a library folder is not in the index. */
export type SkipReason =
  'outside_library' | 'not_video' | 'no_video_stream' | 'needs_ffprobe' | 'not_subtitles' | 'probe_failed';

export interface SkippedFile {
  /** Its path in the library (a link's path, not its target). */
  path: string;
  reason: SkipReason;
  /** ffprobe's message, a link's target, … or null. */
  detail: string | null;
}

/** What one scan did. */
export interface ScanStats {
  /** Video and subtitle files looked at. */
  checked: number;
  /** Files ffprobe ran on (new or changed files not already in the database). */
  probed: number;
  /** Files ffprobe could not answer for (missing, too slow): tried again at the next scan. */
  probeFailures: number;
  /** The last SKIPPED_KEPT files skipped, and how many in all. */
  skipped: SkippedFile[];
  skippedCount: number;
}

export interface LibraryIndex {
  movies: LibraryMovie[];
  shows: LibraryShow[];
  files: Map<string, LibraryVideo | LibrarySubtitle>;
  scannedAt: number;
  stats: ScanStats;
}

/** How many skipped files a scan lists (the admin page shows them). */
export const SKIPPED_KEPT = 50;

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

type Verdict =
  | { kind: 'video'; format: VideoFormat; info: MediaInfo | null }
  | { kind: 'subtitle'; format: SubtitleFormat };

/** What the content check found for one real path, and the version of the file it looked at. */
interface ContentCheck extends FileIdentity {
  /** null: not media of the kind its name says (`skip` says why). */
  verdict: Verdict | null;
  skip?: { reason: SkipReason; detail: string | null };
}

/** What a file's name says it is: a video, or subtitles of one format. */
type Expected = 'video' | SubtitleFormat;

/**
 * What one scan hands to the next: content checks by what was expected and real path (redone when the
 * file changes), and the paths already reported as skipped (each is logged once).
 */
export interface ScanMemory {
  checks: Map<string, ContentCheck>;
  reported: Set<string>;
}

export const emptyScanMemory = (): ScanMemory => ({ checks: new Map(), reported: new Set() });

/** Where the scanner says what it skipped and why. */
export type ScanLog = (message: string, details: Record<string, unknown>) => void;

/** Counts of a running scan, updated as it goes (the admin page shows them while it scans). */
export interface ScanProgress {
  checked: number;
  probed: number;
  probeFailures: number;
}

export interface ScanOptions {
  now?: number;
  memory?: ScanMemory;
  log?: ScanLog;
  /** ffprobe (modules/media/media-prober.ts): with it every container ffmpeg reads is indexed. */
  prober?: LibraryProber;
  /** Filled in while the scan runs. */
  progress?: ScanProgress;
  /** Stops the scan (it rejects with the signal's reason). */
  signal?: AbortSignal;
}

const checkKey = (expected: Expected, real: string) => `${expected}\0${real}`;

const sameIdentity = (a: FileIdentity, b: FileIdentity) =>
  a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

const isInside = (real: string, roots: readonly string[]) =>
  roots.some(
    (root) => real === root || real.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`),
  );

/** ffprobe's format_name → what the file is (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `avi`, …). */
function formatOf(formatName: string): VideoFormat {
  const names = formatName.split(',');
  if (names.includes('mp4') || names.includes('mov')) return 'mp4';
  if (names.includes('matroska') || names.includes('webm')) return 'matroska';
  return 'other';
}

const LOG_MESSAGES: Record<SkipReason, string> = {
  outside_library: 'library: skipped a link that leads outside the library folders',
  not_video: 'library: skipped a file whose content is not a video container',
  no_video_stream: 'library: skipped a file without a video stream',
  needs_ffprobe: 'library: skipped a video that is neither MP4 nor Matroska (ffprobe indexes every format)',
  not_subtitles: 'library: skipped a file whose content is not subtitles',
  probe_failed: 'library: ffprobe could not read a file; it is tried again at the next scan',
};

/** Context of a content check: the prober and the counters of the scan that asked, if any. */
interface CheckContext {
  prober?: LibraryProber | undefined;
  progress?: ScanProgress | undefined;
}

/**
 * Looks at a file's content and says what it holds: with ffprobe, a video is a file with a video stream
 * (any container ffmpeg reads); without it, MP4 or Matroska by their first bytes. Subtitles: SubRip and
 * WebVTT text, ASS/SSA text with its `[Script Info]`, PGS by its `PG` magic. Throws a ProbeFailure when
 * ffprobe cannot answer now.
 */
async function checkContent(
  real: string,
  expected: Expected,
  identity: FileIdentity,
  ctx: CheckContext,
): Promise<ContentCheck> {
  const skip = (reason: SkipReason, detail: string | null = null): ContentCheck => ({
    ...identity,
    verdict: null,
    skip: { reason, detail },
  });
  if (expected === 'video' && ctx.prober) {
    const result = await ctx.prober.inspect(real, identity);
    if (result.ranFfprobe && ctx.progress) ctx.progress.probed += 1;
    if (!result.info) return skip('not_video', result.error);
    if (!result.info.video) return skip('no_video_stream', result.info.formatName);
    return {
      ...identity,
      verdict: { kind: 'video', format: formatOf(result.info.formatName), info: result.info },
    };
  }
  const head = await readHead(real).catch(() => null);
  if (!head) return skip(expected === 'video' ? 'not_video' : 'not_subtitles', 'unreadable');
  if (expected === 'video') {
    switch (containerOf(head, identity.size)) {
      case 'iso-bmff':
        return { ...identity, verdict: { kind: 'video', format: 'mp4', info: null } };
      case 'matroska':
        return { ...identity, verdict: { kind: 'video', format: 'matroska', info: null } };
      case 'mpeg-ts':
        // Players read MPEG-TS only through HLS, which needs ffmpeg.
        return skip('needs_ffprobe', 'mpeg-ts');
      default:
        return skip('not_video');
    }
  }
  const isSubtitles =
    expected === 'srt' || expected === 'vtt'
      ? isSubtitleText(head)
      : expected === 'sup'
        ? isPgsSubtitle(head)
        : isStyledSubtitleText(head);
  return isSubtitles
    ? { ...identity, verdict: { kind: 'subtitle', format: expected } }
    : skip('not_subtitles');
}

const MAX_DEPTH = 8;
/** Skipped files are listed in walk order: a folder's place times this, plus the file's place in it. */
const FOLDER_ORDER = 1_000_000;
/** Files checked at once (realpath, stat, first bytes; ffprobe runs are bounded by the prober). */
const FILE_CHECKS_AT_ONCE = 16;

interface DirEntry {
  name: string;
  path: string;
  isDirectory: boolean;
  /** A symbolic link: its real path must be resolved; any other file's is its folder's real path + name. */
  isLink: boolean;
}

async function listDirectory(dir: string): Promise<DirEntry[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: DirEntry[] = [];
  for (const entry of entries) {
    if (isHiddenName(entry.name)) continue;
    const full = path.join(dir, entry.name);
    let isDirectory = entry.isDirectory();
    if (entry.isSymbolicLink()) {
      // Operators link other drives into their library; a broken link is skipped.
      const target = await stat(full).catch(() => null);
      if (!target) continue;
      isDirectory = target.isDirectory();
    } else if (!entry.isFile() && !isDirectory) continue;
    out.push({ name: entry.name, path: full, isDirectory, isLink: entry.isSymbolicLink() });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Hidden files and folders, and NAS metadata (`@eaDir`), are never part of the library. */
const isHiddenName = (name: string) => name.startsWith('.') || name.startsWith('@');

/** A file the scanner admitted: its real path is inside the library and its content is what its name says. */
interface Admitted extends DirEntry {
  real: string;
  identity: FileIdentity;
  verdict: Verdict;
}

/** One folder found by the walk, in walk order: where it is and its files. */
interface Folder {
  ancestors: string[];
  root: number;
  /** The folder's real path (every link above it resolved). */
  real: string;
  files: DirEntry[];
}

/** Subtitles beside a video: `<video name>.<lang, flags, label>.<ext>`, or any subtitle when the folder holds one video. */
function subtitlesFor(
  videoBase: string,
  subtitles: Admitted[],
  videosInFolder: number,
  idOf: (file: DirEntry) => string,
): LibrarySubtitle[] {
  const out: LibrarySubtitle[] = [];
  for (const file of subtitles) {
    if (file.verdict.kind !== 'subtitle') continue;
    const [base] = splitExtension(file.name);
    let tags: SubtitleTags;
    if (base === videoBase) tags = parseSubtitleTags([]);
    else if (base.startsWith(`${videoBase}.`))
      tags = parseSubtitleTags(base.slice(videoBase.length + 1).split('.'));
    else if (videosInFolder === 1) {
      // A name of its own ("English.srt", "movie.en.forced.srt"): its last words, no label.
      tags = { ...parseSubtitleTags(base.split(/[.\s_-]+/).slice(-3)), label: null };
    } else continue;
    const format = file.verdict.format;
    out.push({
      kind: 'subtitle',
      id: idOf(file),
      path: file.real,
      name: file.name,
      format,
      type: format === 'srt' ? 'srt' : 'vtt',
      ...tags,
    });
  }
  return out;
}

interface ScanState extends CheckContext {
  /** The library folders as configured (ids are paths relative to them). */
  roots: string[];
  /** Their real paths: a file is served only when its real path is inside one of them. */
  realRoots: string[];
  memory: ScanMemory;
  /** This scan's content checks (become the memory of the next). */
  checks: Map<string, ContentCheck>;
  log: ScanLog;
  progress: ScanProgress;
  /** Every file skipped so far, with its place in walk order (checks finish in any order). */
  skipped: (SkippedFile & { order: number })[];
  signal?: AbortSignal | undefined;
  movies: Map<string, LibraryMovie>;
  shows: Map<string, LibraryShow>;
  files: Map<string, LibraryVideo | LibrarySubtitle>;
  /** Real paths of the folders already walked: a folder linked twice (or into itself) is read once. */
  visited: Set<string>;
}

/** Notes a skipped file for the admin page; logs it once per process (a scan runs every minute). */
function skipped(
  state: ScanState,
  order: number,
  file: string,
  reason: SkipReason,
  detail: string | null,
  logKey: string,
  details: Record<string, unknown>,
): void {
  state.skipped.push({ path: file, reason, detail, order });
  if (state.memory.reported.has(logKey)) return;
  state.memory.reported.add(logKey);
  state.log(LOG_MESSAGES[reason], details);
}

/**
 * Lets a file into the index only when its real path (links resolved) stays inside a library folder and
 * its content is what its name says (checkContent). Checks are remembered by real path until the file
 * changes; a file ffprobe could not answer for is not remembered, so the next scan tries it again.
 */
async function admit(
  state: ScanState,
  folder: Folder,
  file: DirEntry,
  expected: Expected,
  order: number,
): Promise<Admitted | null> {
  state.signal?.throwIfAborted();
  state.progress.checked += 1;
  // Only a link needs resolving (one system call less per file on every rescan).
  const real = file.isLink ? await realpath(file.path).catch(() => null) : path.join(folder.real, file.name);
  if (real === null) return null;
  if (!isInside(real, state.realRoots)) {
    skipped(state, order, file.path, 'outside_library', real, `outside:${file.path}`, {
      path: file.path,
      target: real,
    });
    return null;
  }
  const info = await stat(real).catch(() => null);
  if (!info?.isFile()) return null;
  const identity: FileIdentity = { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
  const key = checkKey(expected, real);
  const known = state.memory.checks.get(key) ?? state.checks.get(key);
  let check: ContentCheck;
  if (known && sameIdentity(known, identity)) check = known;
  else {
    try {
      check = await checkContent(real, expected, identity, state);
    } catch (error) {
      state.signal?.throwIfAborted();
      state.progress.probeFailures += 1;
      const detail = error instanceof Error ? error.message : String(error);
      skipped(state, order, file.path, 'probe_failed', detail, `probe:${real}`, {
        path: file.path,
        error: detail,
      });
      return null;
    }
    // A file that changed is reported again.
    state.memory.reported.delete(`content:${real}`);
  }
  state.checks.set(key, check);
  if (check.verdict === null) {
    const skip = check.skip ?? { reason: 'not_video', detail: null };
    skipped(state, order, file.path, skip.reason, skip.detail, `content:${real}`, {
      path: file.path,
      ...(skip.detail ? { detail: skip.detail } : {}),
    });
    return null;
  }
  return { ...file, real, identity, verdict: check.verdict };
}

/** A show or movie is the same entry when it has the same TMDB id, or else the same folded title and year. */
const identityOf = (t: ParsedTitle) =>
  t.tmdbId ? `tmdb:${t.tmdbId}` : `title:${titleKey(t.title)}:${t.year ?? ''}`;

function addEpisode(
  state: ScanState,
  show: ParsedTitle,
  season: number,
  first: number,
  last: number,
  video: LibraryVideo,
): void {
  const id = identityOf(show);
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
  const id = identityOf(movie);
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

/** Walks the folders depth first (in name order) and lists their files; extras folders are left out. */
async function walk(
  state: ScanState,
  dir: string,
  ancestors: string[],
  root: number,
  out: Folder[],
): Promise<void> {
  state.signal?.throwIfAborted();
  if (ancestors.length > MAX_DEPTH) return;
  const real = await realpath(dir).catch(() => null);
  if (real === null || state.visited.has(real)) return;
  if (!isInside(real, state.realRoots)) {
    skipped(state, out.length * FOLDER_ORDER, dir, 'outside_library', real, `outside:${dir}`, {
      path: dir,
      target: real,
    });
    return;
  }
  state.visited.add(real);
  const entries = await listDirectory(dir);
  out.push({ ancestors, root, real, files: entries.filter((e) => !e.isDirectory) });
  for (const folder of entries.filter((e) => e.isDirectory)) {
    if (isExtrasFolder(folder.name)) continue;
    await walk(state, folder.path, [...ancestors, folder.name], root, out);
  }
}

/** Puts one folder's admitted videos (with their subtitles) under their movie or show. */
function indexFolder(state: ScanState, folder: Folder, videos: Admitted[], subtitleFiles: Admitted[]): void {
  const { ancestors, root } = folder;
  const idOf = (file: DirEntry) => libraryFileId(path.relative(state.roots[root]!, file.path), root);
  for (const file of videos) {
    if (file.verdict.kind !== 'video') continue;
    const [base] = splitExtension(file.name);
    const subtitles = subtitlesFor(base, subtitleFiles, videos.length, idOf);
    const video: LibraryVideo = {
      kind: 'video',
      id: idOf(file),
      path: file.real,
      name: file.name,
      format: file.verdict.format,
      info: file.verdict.info,
      size: file.identity.size,
      mtimeMs: file.identity.mtimeMs,
      quality: qualityFromName(base),
      subtitles,
    };
    state.files.set(video.id, video);
    for (const subtitle of subtitles) state.files.set(subtitle.id, subtitle);

    const show = showFolder(ancestors);
    const numbered = parseEpisodeNumber(base);
    if (numbered) {
      addEpisode(
        state,
        showOf(show?.name, showNameBeforeEpisode(base)),
        numbered.season,
        numbered.episode,
        numbered.lastEpisode,
        video,
      );
      continue;
    }
    const bare = show?.season !== null && show?.season !== undefined ? parseBareEpisode(base) : null;
    if (show && bare !== null) {
      addEpisode(state, parseTitleName(show.name), show.season!, bare, bare, video);
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
}

const isVideoName = (name: string) => {
  const [base, extension] = splitExtension(name);
  return VIDEO_EXTENSIONS.has(extension) && !isExtraFile(base);
};

/**
 * Walks the library folders once and indexes every video and subtitle file in them whose real path stays
 * inside one of the folders (links between them are followed) and whose content is media. Pass the
 * previous scan's memory to skip content checks of unchanged files; pass a prober to index every
 * container ffmpeg reads (a file is a video when ffprobe finds a video stream in it).
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
    prober: o.prober,
    progress: o.progress ?? { checked: 0, probed: 0, probeFailures: 0 },
    skipped: [],
    signal: o.signal,
    movies: new Map(),
    shows: new Map(),
    files: new Map(),
    visited: new Set(),
  };
  const folders: Folder[] = [];
  for (const [i, root] of list.entries()) await walk(state, root, [], i, folders);

  const limit = pLimit(FILE_CHECKS_AT_ONCE);
  const admitted = (folder: number, files: DirEntry[], expected: (file: DirEntry) => Expected) => {
    const place = new Map(folders[folder]!.files.map((file, i) => [file, folder * FOLDER_ORDER + 1 + i]));
    return Promise.all(
      files.map((file) =>
        limit(() => admit(state, folders[folder]!, file, expected(file), place.get(file)!)),
      ),
    ).then((all) => all.filter((a): a is Admitted => a !== null));
  };
  const videos = await Promise.all(
    folders.map((folder, i) =>
      admitted(
        i,
        folder.files.filter((f) => isVideoName(f.name)),
        () => 'video',
      ),
    ),
  );
  // Subtitles are looked at only in folders that hold a video.
  const subtitles = await Promise.all(
    folders.map((folder, i) =>
      videos[i]!.length === 0
        ? []
        : admitted(
            i,
            folder.files.filter((f) => SUBTITLE_EXTENSIONS[splitExtension(f.name)[1]] !== undefined),
            (f) => SUBTITLE_EXTENSIONS[splitExtension(f.name)[1]]!,
          ),
    ),
  );
  for (const [i, folder] of folders.entries()) indexFolder(state, folder, videos[i]!, subtitles[i]!);
  memory.checks = state.checks;
  return {
    movies: [...state.movies.values()],
    shows: [...state.shows.values()],
    files: state.files,
    scannedAt: o.now ?? Date.now(),
    stats: {
      ...state.progress,
      skipped: state.skipped
        .sort((a, b) => a.order - b.order)
        .slice(-SKIPPED_KEPT)
        .map(({ path, reason, detail }) => ({ path, reason, detail })),
      skippedCount: state.skipped.length,
    },
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

/** The scanner's state for the admin page (GET /api/admin/library). Times are epoch milliseconds. */
export interface LibraryStatus {
  scanning: boolean;
  /** When the running scan (or else the last one) started. */
  startedAt: number | null;
  finishedAt: number | null;
  lastDurationMs: number | null;
  /** In the current index (the last finished scan). */
  videos: number;
  movies: number;
  shows: number;
  subtitles: number;
  /** Of the running scan, or else of the last one. */
  checked: number;
  probed: number;
  probeFailures: number;
  /** Of the last finished scan: the last SKIPPED_KEPT skipped files, and how many in all. */
  skipped: SkippedFile[];
  skippedCount: number;
  /** Changes in the folders start a scan (LIBRARY_WATCH). */
  watching: boolean;
  /** ffprobe reads the files: every container ffmpeg reads is indexed. */
  probing: boolean;
}

export interface LibraryIndexerOptions {
  /** An index older than this is rebuilt by the next `get()`. */
  maxAgeMs: number;
  now: () => number;
  log?: ScanLog;
  prober?: LibraryProber;
  /** Quiet time after the last change in the folders before the watcher rescans; default 2 s. */
  watchDebounceMs?: number;
}

/** Events of the watcher that can change the index (any other file's change is ignored). */
const isLibraryFile = (file: string) => {
  const extension = splitExtension(path.basename(file))[1];
  return VIDEO_EXTENSIONS.has(extension) || SUBTITLE_EXTENSIONS[extension] !== undefined;
};

/**
 * Keeps the index of the operator's folders fresh enough: rescanned when older than `maxAgeMs`, when a
 * watched folder changes (`startWatching`), or on demand (`scanNow`); one scan at a time however many
 * ask. Scans reuse what earlier ones learnt about unchanged files (and the prober what it stored).
 */
export class LibraryIndexer {
  private current: LibraryIndex | null = null;
  private scanning: Promise<LibraryIndex> | null = null;
  /** A change arrived while a scan ran: scan again when it ends. */
  private rescanAfter = false;
  private readonly memory = emptyScanMemory();
  private progress: ScanProgress = { checked: 0, probed: 0, probeFailures: 0 };
  private startedAt: number | null = null;
  private finishedAt: number | null = null;
  private lastDurationMs: number | null = null;
  private watcher: Promise<FSWatcher | null> | null = null;
  private isWatching = false;
  private debounce: NodeJS.Timeout | undefined;
  private readonly aborter = new AbortController();
  private readonly scanListeners: ((index: LibraryIndex) => void)[] = [];
  readonly roots: readonly string[];

  constructor(
    roots: string | readonly string[],
    private readonly o: LibraryIndexerOptions,
  ) {
    this.roots = typeof roots === 'string' ? [roots] : roots;
  }

  async get(maxAgeMs = this.o.maxAgeMs): Promise<LibraryIndex> {
    if (this.current && this.o.now() - this.current.scannedAt < maxAgeMs) return this.current;
    return this.scan();
  }

  /** Starts a scan unless one runs; says whether it started one. */
  scanNow(): boolean {
    if (this.scanning || this.aborter.signal.aborted) return false;
    this.scan().catch((error: unknown) => {
      if (!this.aborter.signal.aborted) this.o.log?.('library: the scan failed', { err: error });
    });
    return true;
  }

  /** Calls `listener` with each new index as its scan ends (segment detection queues its work: decision 111). */
  onScanned(listener: (index: LibraryIndex) => void): void {
    this.scanListeners.push(listener);
  }

  status(): LibraryStatus {
    const index = this.current;
    let videos = 0;
    let subtitles = 0;
    for (const file of index?.files.values() ?? []) {
      if (file.kind === 'video') videos += 1;
      else subtitles += 1;
    }
    const stats = this.scanning ? this.progress : (index?.stats ?? this.progress);
    return {
      scanning: this.scanning !== null,
      startedAt: this.startedAt,
      finishedAt: this.finishedAt,
      lastDurationMs: this.lastDurationMs,
      videos,
      movies: index?.movies.length ?? 0,
      shows: index?.shows.length ?? 0,
      subtitles,
      checked: stats.checked,
      probed: stats.probed,
      probeFailures: stats.probeFailures,
      skipped: index?.stats.skipped ?? [],
      skippedCount: index?.stats.skippedCount ?? 0,
      watching: this.isWatching,
      probing: this.o.prober !== undefined,
    };
  }

  private scan(): Promise<LibraryIndex> {
    this.scanning ??= this.runScan().finally(() => {
      this.scanning = null;
      if (this.rescanAfter && !this.aborter.signal.aborted) {
        this.rescanAfter = false;
        this.scanNow();
      }
    });
    return this.scanning;
  }

  private async runScan(): Promise<LibraryIndex> {
    const started = this.o.now();
    const clock = performance.now();
    this.startedAt = started;
    this.progress = { checked: 0, probed: 0, probeFailures: 0 };
    const index = await scanLibrary(this.roots, {
      now: started,
      memory: this.memory,
      progress: this.progress,
      signal: this.aborter.signal,
      ...(this.o.log ? { log: this.o.log } : {}),
      ...(this.o.prober ? { prober: this.o.prober } : {}),
    });
    this.current = index;
    this.finishedAt = this.o.now();
    this.lastDurationMs = Math.round(performance.now() - clock);
    for (const listener of this.scanListeners) listener(index);
    return index;
  }

  /** A file by id; a miss triggers a rescan when the index is more than a few seconds old (a new file). */
  async file(id: string): Promise<LibraryVideo | LibrarySubtitle | null> {
    const found = (await this.get()).files.get(id) ?? (await this.get(5_000)).files.get(id);
    return found ? this.recheck(found) : null;
  }

  /**
   * The file as it is now, checked before each request is served: its path still resolves to itself (no
   * link put in its place) and, when it changed since the scan (size, time, inode: another file put
   * there, a hard link), its content is checked again — a video comes back with what ffprobe says now.
   * Null when it is no longer what the scan admitted.
   */
  private async recheck(
    file: LibraryVideo | LibrarySubtitle,
  ): Promise<LibraryVideo | LibrarySubtitle | null> {
    const real = await realpath(file.path).catch(() => null);
    if (real !== file.path) return null;
    const info = await stat(real).catch(() => null);
    if (!info?.isFile()) return null;
    const identity: FileIdentity = { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
    const expected: Expected = file.kind === 'video' ? 'video' : file.format;
    const key = checkKey(expected, real);
    let known = this.memory.checks.get(key);
    if (!known || !sameIdentity(known, identity)) {
      known = await checkContent(real, expected, identity, { prober: this.o.prober }).catch(() => undefined);
      if (!known) return null;
      this.memory.checks.set(key, known);
    }
    const verdict = known.verdict;
    const ino = identity.ino;
    if (file.kind === 'subtitle')
      return verdict?.kind === 'subtitle' && verdict.format === file.format ? { ...file, ino } : null;
    if (verdict?.kind !== 'video') return null;
    if (
      verdict.format === file.format &&
      verdict.info === file.info &&
      file.size === known.size &&
      file.mtimeMs === known.mtimeMs
    )
      return { ...file, ino };
    return {
      ...file,
      format: verdict.format,
      info: verdict.info,
      size: known.size,
      mtimeMs: known.mtimeMs,
      ino,
    };
  }

  /**
   * Follows changes in the library folders (chokidar): a video or subtitle file added, changed or
   * removed, or a folder, starts a scan once the folders have been quiet for `watchDebounceMs`. Links
   * are not followed (linked folders are watched when they are library folders themselves). Resolves
   * once the watcher is ready.
   */
  async startWatching(): Promise<void> {
    if (this.aborter.signal.aborted) return;
    this.watcher ??= this.openWatcher();
    await this.watcher;
  }

  private async openWatcher(): Promise<FSWatcher | null> {
    const { watch } = await import('chokidar');
    const roots = [...this.roots];
    const watcher = watch(roots, {
      ignoreInitial: true,
      followSymlinks: false,
      depth: MAX_DEPTH + 1,
      ignored: (file) => !roots.includes(file) && isHiddenName(path.basename(file)),
    });
    watcher.on('all', (event, file) => {
      if (event === 'addDir' || event === 'unlinkDir' || isLibraryFile(file)) this.changed();
    });
    watcher.on('error', (error) =>
      this.o.log?.('library: the folder watcher failed; scans still run every minute', { err: error }),
    );
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    if (this.aborter.signal.aborted) {
      await watcher.close();
      return null;
    }
    this.isWatching = true;
    return watcher;
  }

  private changed(): void {
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      if (this.scanning) this.rescanAfter = true;
      else this.scanNow();
    }, this.o.watchDebounceMs ?? 2_000);
    this.debounce.unref();
  }

  async stopWatching(): Promise<void> {
    clearTimeout(this.debounce);
    this.debounce = undefined;
    const watcher = await this.watcher;
    this.watcher = null;
    this.isWatching = false;
    await watcher?.close();
  }

  /** Stops watching and scanning (server shutdown); a running scan is abandoned. */
  async close(): Promise<void> {
    this.aborter.abort(new Error('the library indexer was closed'));
    await this.stopWatching();
    await this.scanning?.catch(() => {});
  }
}
