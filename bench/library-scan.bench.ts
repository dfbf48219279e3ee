/**
 * The media library scan at 10,000 videos (decision 085): a temporary tree named the Jellyfin way —
 * 2,000 movies in their own folders with a subtitle each, 200 shows × 4 seasons × 10 episodes — of empty
 * files, indexed by `LibraryIndexer` with a prober that answers from a prepared table (ffprobe's own time
 * is not measured: each file is probed once, ever). Prints the first full index, an unchanged rescan (what
 * the watcher and the minutely rescan cost), and a restart that reads every answer from `media_probes`
 * (SQLite). Budgets: first index ≤ 60 s, unchanged rescan ≤ 5 s.
 * Run: node --import tsx bench/library-scan.bench.ts   (BENCH_VIDEOS=… for another size)
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { migrateToLatest, openDatabase } from '../apps/server/src/db/database.ts';
import type { MediaInfo } from '../apps/server/src/modules/media/media-info.ts';
import { MediaProber, type LibraryProber } from '../apps/server/src/modules/media/media-prober.ts';
import { storedInteger } from '../apps/server/src/modules/media/media-probes.repository.ts';
import { MediaProbesRepository } from '../apps/server/src/modules/media/media-probes.repository.ts';
import { LibraryIndexer } from '../apps/server/src/modules/sources/library-index.ts';

const VIDEOS = Number(process.env.BENCH_VIDEOS ?? 10_000);
const BUDGET_FIRST_S = 60;
const BUDGET_RESCAN_S = 5;

const info = (height: number): MediaInfo => ({
  formatName: 'matroska,webm',
  duration: 2_700,
  bitRate: 8_000_000,
  video: {
    index: 0,
    codec: 'hevc',
    profile: 'Main 10',
    level: 150,
    pixelFormat: 'yuv420p10le',
    bitDepth: 10,
    width: Math.round((height * 16) / 9),
    height,
    frameRate: 23.976,
    dynamicRange: 'sdr',
    bitRate: null,
  },
  audio: [
    {
      index: 1,
      codec: 'eac3',
      profile: null,
      channels: 6,
      channelLayout: '5.1(side)',
      sampleRate: 48_000,
      language: 'eng',
      title: null,
      isDefault: true,
      bitRate: 640_000,
    },
  ],
  subtitles: [],
  chapters: [],
});

/** Writes the tree; returns the video files' paths. */
function makeTree(root: string): string[] {
  const videos: string[] = [];
  const write = (relative: string, content = '') => {
    const full = path.join(root, relative);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
    return full;
  };
  const movies = Math.round(VIDEOS / 5);
  for (let i = 0; i < movies; i++) {
    const name = `Movie ${i} (${1950 + (i % 75)}) [tmdbid-${100_000 + i}]`;
    videos.push(write(`Movies/${name}/${name}.mkv`));
    write(`Movies/${name}/${name}.en.srt`, '1\n00:00:01,000 --> 00:00:02,000\nHi\n');
  }
  const episodes = VIDEOS - movies;
  const perShow = 40;
  for (let i = 0; i * perShow < episodes; i++) {
    const show = `Show ${i} (${1990 + (i % 30)}) [tmdbid-${500_000 + i}]`;
    for (let e = 0; e < perShow && i * perShow + e < episodes; e++) {
      const season = Math.floor(e / 10) + 1;
      const episode = (e % 10) + 1;
      const code = `S${String(season).padStart(2, '0')}E${String(episode).padStart(2, '0')}`;
      videos.push(write(`TV/${show}/Season ${String(season).padStart(2, '0')}/Show ${i} ${code}.mkv`));
    }
  }
  return videos;
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, (performance.now() - started) / 1000];
}

const root = mkdtempSync(path.join(tmpdir(), 'marquee-bench-library-'));
const dataDir = mkdtempSync(path.join(tmpdir(), 'marquee-bench-library-db-'));
try {
  const [videos, makeSeconds] = await timed(async () => makeTree(root));
  const answers = new Map(videos.map((file, i) => [file, info([2160, 1080, 720][i % 3]!)]));
  const prepared: LibraryProber = {
    inspect: async (real) => ({ info: answers.get(real) ?? null, error: null, ranFfprobe: true }),
  };
  console.log(
    `library: ${videos.length} videos (+${Math.round(VIDEOS / 5)} subtitles), made in ${makeSeconds.toFixed(1)} s`,
  );

  const indexer = new LibraryIndexer(root, { maxAgeMs: 0, now: () => Date.now(), prober: prepared });
  const [first, firstSeconds] = await timed(() => indexer.get());
  const [rescan, rescanSeconds] = await timed(() => indexer.get());
  const count = (index: typeof first) => [...index.files.values()].filter((f) => f.kind === 'video').length;
  if (count(first) !== videos.length || count(rescan) !== videos.length)
    throw new Error(`indexed ${count(first)} / ${count(rescan)} of ${videos.length} videos`);
  console.log(
    `first full index: ${firstSeconds.toFixed(2)} s (${first.movies.length} movies, ${first.shows.length} shows, ${first.stats.probed} probed)  budget ≤ ${BUDGET_FIRST_S} s: ${firstSeconds <= BUDGET_FIRST_S ? 'ok' : 'OVER'}`,
  );
  console.log(
    `unchanged rescan: ${rescanSeconds.toFixed(2)} s (${rescan.stats.probed} probed)  budget ≤ ${BUDGET_RESCAN_S} s: ${rescanSeconds <= BUDGET_RESCAN_S ? 'ok' : 'OVER'}`,
  );

  // A restart: an empty memory, every answer in the database (as the first scan of a process leaves them).
  const database = await openDatabase({ dataDir });
  await migrateToLatest(database.db);
  const rows = videos.map((file) => {
    const s = statSync(file);
    return {
      path: file,
      size: storedInteger(s.size),
      mtime_ms: storedInteger(s.mtimeMs),
      ino: storedInteger(s.ino),
      probed_at: 0,
      info: JSON.stringify(answers.get(file)),
      error: null,
    };
  });
  for (let i = 0; i < rows.length; i += 500)
    await database.db
      .insertInto('media_probes')
      .values(rows.slice(i, i + 500))
      .execute();
  const prober = new MediaProber({
    repository: new MediaProbesRepository(database.db),
    ffprobePath: 'ffprobe',
    now: () => Date.now(),
  });
  const restarted = new LibraryIndexer(root, { maxAgeMs: 0, now: () => Date.now(), prober });
  const [fromDatabase, restartSeconds] = await timed(() => restarted.get());
  console.log(
    `restart, answers from media_probes (SQLite): ${restartSeconds.toFixed(2)} s (${count(fromDatabase)} videos, ${fromDatabase.stats.probed} probed by ffprobe)`,
  );
  await restarted.close();
  await indexer.close();
  await database.destroy();
} finally {
  rmSync(root, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
