/**
 * A small show for the segment detection of decision 111: four episodes of Breaking Bad (a catalog
 * title, so the scrape API serves them) whose audio shares the same 20 s intro at different places
 * (0 s, 5 s, 12 s, 8 s) and the same 18 s credits tune at the end, over black frames; everything else is
 * each episode's own (other melodies, other noise). The third episode has chapters, named the way a
 * French release names them ("Générique", "Générique de fin"), deliberately a little off the truth so a
 * test can tell them from detection.
 *
 * The audio is synthesised here (sample by sample, seeded: the same bytes every time) and written as WAV;
 * ffmpeg encodes it (AAC) with a tiny picture (160×90, 10 fps, x264 ultrafast). Cached like
 * media-library-fixture.ts: a manifest records the version and every file's size, and a later call
 * returns what is there without running ffmpeg.
 */
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ffmpegBinary, run } from './media-library-fixture.ts';

/** Bump when the files change: a show made by another version is made again. */
export const SEGMENTS_SHOW_VERSION = 1;
const MANIFEST = '.marquee-segments-show.json';
const SAMPLE_RATE = 22_050;
export const INTRO_SECONDS = 20;
export const CREDITS_SECONDS = 18;

export interface ShowEpisode {
  episode: number;
  path: string;
  duration: number;
  /** The truth, in seconds. */
  intro: { start: number; end: number };
  credits: { start: number; end: number };
  /** The chapters written into the file (the third episode only). */
  chapters: { start: number; end: number; title: string }[];
}

export interface SegmentsShow {
  dir: string;
  /** The show's folder (`Breaking Bad (2008) [tmdbid-1396]`). */
  showDir: string;
  episodes: ShowEpisode[];
}

/** One episode: where its intro starts and how long it runs (seconds). */
export interface EpisodePlan {
  episode: number;
  introAt: number;
  duration: number;
}

const PLAN: readonly EpisodePlan[] = [
  { episode: 1, introAt: 0, duration: 84 },
  { episode: 2, introAt: 5, duration: 80 },
  { episode: 3, introAt: 12, duration: 88 },
  // Not in the season at first: a test adds it, and the season is detected again.
  { episode: 4, introAt: 8, duration: 82 },
];

/** Mulberry32: small, seeded, the same numbers everywhere. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Adds a melody to `out` from `from` to `to` seconds: notes of `noteSeconds`, each a random pitch of four
 * octaves with a second voice a third or fifth above and two harmonics, faded in and out (no clicks).
 */
function addMelody(out: Float32Array, seed: number, from: number, to: number, noteSeconds: number): void {
  const random = prng(seed);
  const first = Math.round(from * SAMPLE_RATE);
  const last = Math.min(out.length, Math.round(to * SAMPLE_RATE));
  const noteLength = Math.round(noteSeconds * SAMPLE_RATE);
  const fade = Math.round(0.01 * SAMPLE_RATE);
  for (let noteStart = first; noteStart < last; noteStart += noteLength) {
    const midi = 48 + Math.floor(random() * 48);
    const voices = [midi, midi + (random() < 0.5 ? 4 : 7)].map((m) => 440 * 2 ** ((m - 69) / 12));
    const end = Math.min(last, noteStart + noteLength);
    for (let n = noteStart; n < end; n++) {
      const t = (n - noteStart) / SAMPLE_RATE;
      const envelope = Math.min(1, (n - noteStart) / fade, (end - n) / fade);
      let v = 0;
      for (const f of voices)
        v +=
          Math.sin(2 * Math.PI * f * t) +
          0.5 * Math.sin(4 * Math.PI * f * t) +
          0.25 * Math.sin(6 * Math.PI * f * t);
      out[n]! += 0.12 * envelope * v;
    }
  }
}

function addNoise(out: Float32Array, seed: number, level: number): void {
  const random = prng(seed);
  for (let n = 0; n < out.length; n++) out[n]! += level * (random() * 2 - 1);
}

/** One episode's audio: its own cold open, the shared intro, its own story, the shared credits tune. */
export function episodeAudio(plan: EpisodePlan): Float32Array {
  const out = new Float32Array(Math.round(plan.duration * SAMPLE_RATE));
  const creditsAt = plan.duration - CREDITS_SECONDS;
  if (plan.introAt > 0) addMelody(out, 100 + plan.episode, 0, plan.introAt, 0.3);
  addMelody(out, 1, plan.introAt, plan.introAt + INTRO_SECONDS, 0.35);
  addMelody(out, 200 + plan.episode, plan.introAt + INTRO_SECONDS, creditsAt, 0.45);
  addMelody(out, 2, creditsAt, plan.duration, 0.5);
  addNoise(out, 300 + plan.episode, 0.02);
  return out;
}

/** 16-bit mono PCM in a WAV container. */
export function wav(samples: Float32Array): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  for (let n = 0; n < samples.length; n++)
    data.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(samples[n]! * 32767))), n * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

function chaptersOf(plan: EpisodePlan): ShowEpisode['chapters'] {
  if (plan.episode !== 3 || plan.duration > 600) return [];
  const creditsAt = plan.duration - CREDITS_SECONDS;
  return [
    { start: 0, end: plan.introAt + 2, title: 'Prologue' },
    { start: plan.introAt + 2, end: plan.introAt + INTRO_SECONDS - 2, title: 'Générique' },
    { start: plan.introAt + INTRO_SECONDS - 2, end: creditsAt - 1, title: 'Épisode' },
    { start: creditsAt - 1, end: plan.duration, title: 'Générique de fin' },
  ];
}

const ffmetadata = (chapters: ShowEpisode['chapters']) =>
  [
    ';FFMETADATA1',
    ...chapters.flatMap((c) => [
      '[CHAPTER]',
      'TIMEBASE=1/1000',
      `START=${Math.round(c.start * 1000)}`,
      `END=${Math.round(c.end * 1000)}`,
      `title=${c.title}`,
    ]),
    '',
  ].join('\n');

/** The picture: a test pattern, then black with a few white lines of "credits". */
function pictureFilter(duration: number): string {
  const creditsAt = duration - CREDITS_SECONDS;
  const on = `enable='gte(t,${creditsAt})'`;
  return [
    `testsrc2=size=160x90:rate=10:duration=${duration}`,
    `drawbox=x=0:y=0:w=iw:h=ih:color=black:t=fill:${on}`,
    `drawbox=x=50:y=30:w=60:h=3:color=white:t=fill:${on}`,
    `drawbox=x=40:y=44:w=80:h=3:color=white:t=fill:${on}`,
    `drawbox=x=55:y=58:w=50:h=3:color=white:t=fill:${on}`,
  ].join(',');
}

/** Writes one episode (its audio made here, its picture by ffmpeg) to `file`; `work` holds the inputs. */
export async function makeEpisode(file: string, plan: EpisodePlan, work: string): Promise<void> {
  const audio = path.join(work, `e${plan.episode}.wav`);
  await writeFile(audio, wav(episodeAudio(plan)));
  const chapters = chaptersOf(plan);
  const meta = path.join(work, `e${plan.episode}.txt`);
  await writeFile(meta, ffmetadata(chapters));
  const partial = `${file}.${process.pid}.partial`;
  try {
    await run(ffmpegBinary(), [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', pictureFilter(plan.duration), '-i', audio, '-i', meta],
      ...['-map', '0:v', '-map', '1:a', '-map_metadata', '2', '-map_chapters', chapters.length ? '2' : '-1'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '20'],
      ...['-c:a', 'aac', '-b:a', '64k', '-threads', '1', '-f', 'matroska', partial],
    ]);
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
}

const episodeOf = (showDir: string, plan: EpisodePlan): ShowEpisode => ({
  episode: plan.episode,
  path: path.join(showDir, 'Season 01', `Breaking Bad S01E0${plan.episode}.mkv`),
  duration: plan.duration,
  intro: { start: plan.introAt, end: plan.introAt + INTRO_SECONDS },
  credits: { start: plan.duration - CREDITS_SECONDS, end: plan.duration },
  chapters: chaptersOf(plan),
});

/** Makes (or finds, already made) the show under `dir`. */
export async function makeSegmentsShow(dir: string): Promise<SegmentsShow> {
  const root = path.resolve(dir);
  const showDir = path.join(root, 'Breaking Bad (2008) [tmdbid-1396]');
  const episodes = PLAN.map((plan) => episodeOf(showDir, plan));
  const manifestPath = path.join(root, MANIFEST);
  const manifest = await readFile(manifestPath, 'utf8')
    .then((text) => JSON.parse(text) as { version: number; sizes: number[] })
    .catch(() => null);
  const sizes = await Promise.all(
    episodes.map((e) =>
      stat(e.path).then(
        (s) => s.size,
        () => -1,
      ),
    ),
  );
  const isMade =
    manifest?.version === SEGMENTS_SHOW_VERSION &&
    manifest.sizes.length === sizes.length &&
    manifest.sizes.every((size, i) => size === sizes[i]);
  if (isMade) return { dir: root, showDir, episodes };
  await rm(manifestPath, { force: true });
  const work = path.join(root, '.work');
  await mkdir(path.join(showDir, 'Season 01'), { recursive: true });
  await mkdir(work, { recursive: true });
  try {
    for (const [i, plan] of PLAN.entries()) await makeEpisode(episodes[i]!.path, plan, work);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const made = await Promise.all(episodes.map((e) => stat(e.path).then((s) => s.size)));
  await writeFile(manifestPath, JSON.stringify({ version: SEGMENTS_SHOW_VERSION, sizes: made }));
  return { dir: root, showDir, episodes };
}
