/**
 * Intro and credits detection (decision 111), on this machine: a season of BENCH_EPISODES (default 8)
 * episodes of BENCH_MINUTES (default 22) minutes whose audio shares a 20 s intro at a different place in
 * each (0 s to 4 min in) and an 18 s credits song over black at the end (the test fixture's synthesised
 * audio, apps/server/test/segments-fixture.ts; a 160×90 picture). Made once into the temp folder.
 * Prints, per episode, what the detection job does to it — fingerprinting its first and last minutes
 * (ffmpeg decoding into fpcalc), the black-frame pass over its last minutes — and what was found against
 * the truth; then matching the whole season, and matching alone for seasons of 24 and 100 episodes of
 * 10-minute fingerprints (random points sharing an intro), to show how it grows.
 *   node --import tsx bench/intro-detection.ts
 */
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { lastBlackRun } from '../apps/server/src/modules/segments/black-frames.ts';
import {
  CREDITS_MATCH,
  INTRO_MATCH,
  POINT_SECONDS,
  sharedPassages,
  sharedPassagesInTurns,
  type EpisodePrint,
} from '../apps/server/src/modules/segments/fingerprint-match.ts';
import {
  combineCredits,
  headSeconds,
  tailSeconds,
} from '../apps/server/src/modules/segments/segment-detection.ts';
import {
  blackFramesOf,
  detectSegmentTools,
  fingerprintAudio,
} from '../apps/server/src/modules/segments/segment-tools.ts';
import {
  CREDITS_SECONDS,
  INTRO_SECONDS,
  makeEpisode,
  type EpisodePlan,
} from '../apps/server/test/segments-fixture.ts';

const EPISODES = Number(process.env.BENCH_EPISODES ?? 8);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 22);
const DIR = path.join(tmpdir(), `marquee-bench-intro-v1-${EPISODES}x${MINUTES}`);
/** Where each episode's intro starts: a cold open of up to four minutes. */
const INTRO_AT = [0, 95, 30, 240, 12, 150, 60, 5, 200, 45];

const plans: EpisodePlan[] = Array.from({ length: EPISODES }, (_, i) => ({
  episode: i + 1,
  introAt: INTRO_AT[i % INTRO_AT.length]!,
  duration: MINUTES * 60 + (i % 3) * 17,
}));
const fileOf = (plan: EpisodePlan) => path.join(DIR, `Show S01E${String(plan.episode).padStart(2, '0')}.mkv`);
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const fixed = (s: number) => s.toFixed(1).padStart(7);

async function makeSeason(): Promise<void> {
  const work = path.join(DIR, '.work');
  mkdirSync(work, { recursive: true });
  try {
    for (const plan of plans) {
      if (existsSync(fileOf(plan)) && statSync(fileOf(plan)).size > 0) continue;
      const started = performance.now();
      await makeEpisode(fileOf(plan), plan, work);
      console.log(`made episode ${plan.episode} in ${seconds(performance.now() - started)} s`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Random points sharing a 30 s intro at `at` seconds (what matching alone costs, without decoding). */
function syntheticSeason(count: number): EpisodePrint[] {
  // Mulberry32: a plain LCG's low bits repeat every few hundred points, which real audio never does.
  let seed = 7;
  const random = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return (x ^ (x >>> 14)) >>> 0;
  };
  const intro = Uint32Array.from({ length: Math.round(30 / POINT_SECONDS) }, random);
  return Array.from({ length: count }, (_, i) => {
    const points = Uint32Array.from({ length: Math.round(600 / POINT_SECONDS) }, random);
    points.set(intro, Math.round(((i * 37) % 500) / POINT_SECONDS));
    return { id: String(i), points, offset: 0 };
  });
}

async function main(): Promise<void> {
  const tools = await detectSegmentTools(
    process.env.FFMPEG_PATH || 'ffmpeg',
    process.env.FPCALC_PATH || 'fpcalc',
  );
  if (!tools) throw new Error('ffmpeg and fpcalc are needed (Debian: ffmpeg, libchromaprint-tools)');
  console.log(`season: ${EPISODES} episodes of ${MINUTES} min in ${DIR}`);
  await makeSeason();
  const signal = new AbortController().signal;
  const run = { signal, timeoutMs: 30 * 60_000 };
  const heads: EpisodePrint[] = [];
  const tails: EpisodePrint[] = [];
  const blacks = new Map<string, { start: number; end: number } | null>();
  let reading = 0;
  console.log('\nepisode  head s  fpcalc ms  points  tail s  fpcalc ms  black pass ms');
  for (const plan of plans) {
    const file = fileOf(plan);
    const head = headSeconds(plan.duration);
    const tail = tailSeconds(plan.duration);
    const id = String(plan.episode);
    let started = performance.now();
    const headPoints = await fingerprintAudio(tools, file, { from: 0, length: head, audioIndex: 1 }, run);
    const headMs = performance.now() - started;
    started = performance.now();
    const from = plan.duration - tail;
    const tailPoints = await fingerprintAudio(tools, file, { from, length: tail, audioIndex: 1 }, run);
    const tailMs = performance.now() - started;
    started = performance.now();
    const blackRun = lastBlackRun(await blackFramesOf(tools, file, from, run));
    const blackMs = performance.now() - started;
    reading += headMs + tailMs + blackMs;
    heads.push({ id, points: headPoints, offset: 0 });
    tails.push({ id, points: tailPoints, offset: from });
    blacks.set(id, blackRun && { start: from + blackRun.start, end: from + blackRun.end });
    console.log(
      `${id.padStart(7)} ${fixed(head)} ${headMs.toFixed(0).padStart(10)} ${String(headPoints.length).padStart(7)} ${fixed(tail)} ${tailMs.toFixed(0).padStart(10)} ${blackMs.toFixed(0).padStart(14)}`,
    );
  }
  let started = performance.now();
  const intros = sharedPassages(heads, INTRO_MATCH);
  const introMs = performance.now() - started;
  started = performance.now();
  const songs = sharedPassages(tails, CREDITS_MATCH);
  const creditsMs = performance.now() - started;
  console.log(
    '\nepisode  intro found (truth)              error s   credits found (truth)            error s',
  );
  for (const plan of plans) {
    const id = String(plan.episode);
    const intro = intros.get(id);
    const credits = combineCredits(songs.get(id) ?? null, blacks.get(id) ?? null, plan.duration);
    const truth = { start: plan.duration - CREDITS_SECONDS, end: plan.duration };
    const introError = intro
      ? Math.max(Math.abs(intro.start - plan.introAt), Math.abs(intro.end - plan.introAt - INTRO_SECONDS))
      : NaN;
    const creditsError = credits
      ? Math.max(Math.abs(credits.start - truth.start), Math.abs(credits.end - truth.end))
      : NaN;
    console.log(
      `${id.padStart(7)}  ${intro ? `${fixed(intro.start)}–${fixed(intro.end)}` : '   none        '} (${fixed(plan.introAt)}–${fixed(plan.introAt + INTRO_SECONDS)})  ${introError.toFixed(2).padStart(6)}   ${credits ? `${fixed(credits.start)}–${fixed(credits.end)}` : '   none        '} (${fixed(truth.start)}–${fixed(truth.end)})  ${creditsError.toFixed(2).padStart(6)}`,
    );
  }
  console.log(
    `\nreading the season (one program at a time): ${seconds(reading)} s, ${seconds(reading / EPISODES)} s per episode`,
  );
  console.log(`matching the season: intro ${introMs.toFixed(0)} ms, credits ${creditsMs.toFixed(0)} ms`);
  console.log(`fingerprinting + matching the season: ${seconds(reading + introMs + creditsMs)} s`);
  for (const count of [24, 100]) {
    const season = syntheticSeason(count);
    started = performance.now();
    const found = sharedPassages(season, INTRO_MATCH);
    const took = performance.now() - started;
    // What the server runs: a pair at a time, the event loop let go in between.
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    await sharedPassagesInTurns(season, INTRO_MATCH);
    delay.disable();
    console.log(
      `matching alone, ${count} episodes of 10-minute fingerprints: ${seconds(took)} s (${found.size} intros found); in turns, the event loop's longest wait ${(delay.max / 1e6).toFixed(1)} ms`,
    );
  }
}

await main();
