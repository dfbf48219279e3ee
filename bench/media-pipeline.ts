/// <reference lib="dom" />
/**
 * The library pipeline's figures (decision 085), on this machine:
 * - play → first frame in Debian Chromium for the same 1080p picture delivered three ways: as it is
 *   (MP4 H.264/AAC), remuxed (MKV H.264 + AC3 5.1: picture copied, sound to AAC) and transcoded (MKV HEVC
 *   → H.264 1080p), and the ratios to direct play;
 * - seek → playing again after a seek to 80 %, past anything converted (remux and transcode);
 * - CPU seconds per minute of media for a remux and for a 720p transcode (ffmpeg with the server's own
 *   arguments, the whole file);
 * - how many 480p transcodes of the HEVC source run at once in real time (each ≥ 1.0× speed).
 * The sources (2 minutes, 1920×1080, 24 fps, a keyframe every 2 s) are made with ffmpeg once and kept in
 * the temp folder.
 *   node --import tsx bench/media-pipeline.ts [runs per case=3]
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { conversionArgs } from '../apps/server/src/modules/media/ffmpeg.ts';
import { probeMedia } from '../apps/server/src/modules/media/probe.ts';
import type { HlsPlan } from '../apps/server/src/modules/media/playback-plan.ts';
import { playToFirstFrame } from './support/first-frame.ts';
import { ensureBuilt, median, startServer } from './support/server.ts';

const run = promisify(execFile);
const RUNS = Number(process.argv[2] ?? 3);
const SECONDS = 120;
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

const LIBRARY = path.join(tmpdir(), 'marquee-bench-library-v1');
const TITLES = {
  direct: { folder: 'The Matrix (1999) [tmdbid-603]', ext: 'mp4', key: 'tmdb-movie-603-the-matrix' },
  remux: { folder: 'Inception (2010) [tmdbid-27205]', ext: 'mkv', key: 'tmdb-movie-27205-inception' },
  transcode: {
    folder: 'Interstellar (2014) [tmdbid-157336]',
    ext: 'mkv',
    key: 'tmdb-movie-157336-interstellar',
  },
} as const;
type Kind = keyof typeof TITLES;
const fileOf = (kind: Kind) =>
  path.join(LIBRARY, TITLES[kind].folder, `${TITLES[kind].folder}.${TITLES[kind].ext}`);

async function makeSources(): Promise<void> {
  const picture = ['-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=24`, '-f', 'lavfi'];
  const tone = ['-i', 'sine=frequency=440:sample_rate=48000', '-t', String(SECONDS)];
  const h264 = [
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '23',
    '-g',
    '48',
    '-keyint_min',
    '48',
    '-sc_threshold',
    '0',
  ];
  const jobs: [Kind, string[]][] = [
    ['direct', [...h264, '-c:a', 'aac', '-b:a', '160k', '-movflags', '+faststart']],
    ['remux', [...h264, '-c:a', 'ac3', '-ac', '6', '-b:a', '448k']],
    [
      'transcode',
      [
        '-c:v',
        'libx265',
        '-preset',
        'ultrafast',
        '-x265-params',
        'keyint=48:log-level=error',
        '-c:a',
        'aac',
        '-b:a',
        '160k',
      ],
    ],
  ];
  for (const [kind, codec] of jobs) {
    const file = fileOf(kind);
    if (existsSync(file)) continue;
    mkdirSync(path.dirname(file), { recursive: true });
    const started = Date.now();
    await run('ffmpeg', [
      '-v',
      'error',
      '-y',
      ...picture,
      ...tone,
      ...codec,
      `${file}.part.${TITLES[kind].ext}`,
    ]);
    rmSync(file, { force: true });
    await run('mv', [`${file}.part.${TITLES[kind].ext}`, file]);
    console.log(`made the ${kind} source in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}

/** CPU seconds (user + system) ffmpeg spends on `args`, and the wall time. */
async function cpuOf(args: string[]): Promise<{ cpu: number; wall: number }> {
  const started = Date.now();
  const { stdout } = await run('bash', ['-c', 'ffmpeg "$@" >/dev/null 2>&1; times', 'bash', ...args], {
    maxBuffer: 1024 * 1024,
  });
  // `times` prints the shell's and then its children's "XmY.YYYs XmY.YYYs".
  const line = stdout.trim().split('\n').at(-1)!;
  const seconds = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return { cpu: seconds[0]! + seconds[1]!, wall: (Date.now() - started) / 1000 };
}

async function conversionCpu(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), 'marquee-bench-conv-'));
  try {
    for (const [label, kind, plan] of [
      [
        'remux (picture copied, AC3 5.1 → AAC)',
        'remux',
        { video: 'copy', audio: { index: 1, mode: 'aac' }, burn: null },
      ],
      [
        '720p transcode (HEVC 1080p → H.264 720p, x264 veryfast)',
        'transcode',
        { video: 720, audio: { index: 1, mode: 'aac' }, burn: null },
      ],
    ] as const) {
      const info = (await probeMedia(fileOf(kind), { ffprobePath: 'ffprobe', timeoutMs: 60_000 }))!;
      const dir = path.join(work, kind);
      mkdirSync(dir);
      const args = conversionArgs({
        input: fileOf(kind),
        info,
        plan: plan as HlsPlan,
        startAt: 0,
        firstChunk: 0,
        dir,
        run: 'bench',
        hardware: 'none',
      });
      const { cpu, wall } = await cpuOf(args);
      const minutes = SECONDS / 60;
      console.log(
        `${label}: ${(cpu / minutes).toFixed(1)} CPU s per minute of media (${cpu.toFixed(1)} s for ${SECONDS} s, ${(SECONDS / wall).toFixed(1)}× real time)`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** How many 480p transcodes of the HEVC source keep up with real time at once. */
async function concurrentTranscodes(): Promise<void> {
  const info = (await probeMedia(fileOf('transcode'), { ffprobePath: 'ffprobe', timeoutMs: 60_000 }))!;
  const media = 40;
  let sustained = 0;
  for (let n = 1; n <= 6; n++) {
    const work = mkdtempSync(path.join(tmpdir(), 'marquee-bench-480-'));
    const started = Date.now();
    await Promise.all(
      Array.from({ length: n }, (_, i) => {
        const dir = path.join(work, String(i));
        mkdirSync(dir);
        const args = conversionArgs({
          input: fileOf('transcode'),
          info: { ...info, duration: media },
          plan: { video: 480, audio: { index: 1, mode: 'aac' }, burn: null },
          startAt: i * 10,
          firstChunk: 0,
          dir,
          run: 'bench',
          hardware: 'none',
        });
        // Forty seconds of media each, from different places.
        const limited = [...args.slice(0, -1), '-t', String(media), args.at(-1)!].filter(Boolean);
        return new Promise<void>((resolve, reject) => {
          const child = spawn('ffmpeg', limited, { stdio: 'ignore' });
          child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}`))));
        });
      }),
    );
    const speed = media / ((Date.now() - started) / 1000);
    rmSync(work, { recursive: true, force: true });
    console.log(`${n} × 480p transcode at once: each at ${speed.toFixed(2)}× real time`);
    if (speed < 1.05) break;
    sustained = n;
  }
  console.log(
    `480p transcodes this machine sustains in real time: ${sustained === 6 ? 'at least 6 (the most this bench tries)' : sustained} — on a test pattern, which encodes far more easily than film`,
  );
}

/** Waits until the library's first scan has probed the three sources (it starts with the server). */
async function waitForLibrary(url: string): Promise<void> {
  const query = new URLSearchParams({
    id: 'library',
    type: 'movie',
    title: 'Interstellar',
    tmdbId: '157336',
    releaseYear: '2014',
  });
  for (let i = 0; i < 600; i++) {
    const text = await (await fetch(`${url}/scrape/source?${query}`)).text();
    if (text.includes('event: completed')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the library did not index the sources');
}

async function firstFrames(): Promise<void> {
  ensureBuilt();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const play: Record<Kind, number[]> = { direct: [], remux: [], transcode: [] };
  const seek: Record<Kind, number[]> = { direct: [], remux: [], transcode: [] };
  try {
    for (let i = 0; i < RUNS; i++) {
      // A fresh server each round: nothing converted before (a conversion lives on 45 s after its viewer).
      const server = await startServer({
        MEDIA_LIBRARY_DIR: LIBRARY,
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'marquee-bench-data-')),
      });
      try {
        await waitForLibrary(server.url);
        for (const kind of Object.keys(TITLES) as Kind[]) {
          const context = await browser.newContext();
          const page = await context.newPage();
          await page.goto(`${server.url}/media/${TITLES[kind].key}`);
          play[kind].push(await playToFirstFrame(page));
          // A seek to 80 %, past what is converted: the time until a frame there is presented.
          // Source text, not a function: the page must not see the bundler's helpers (`__name`).
          const ms = (await page.evaluate(`new Promise((resolve) => {
          const video = document.querySelector('[data-testid="player-video"]');
          const target = ${SECONDS * 0.8};
          const at = performance.now();
          video.currentTime = target;
          const onFrame = (now, frame) =>
            frame.mediaTime >= target - 0.5 ? resolve(now - at) : video.requestVideoFrameCallback(onFrame);
          video.requestVideoFrameCallback(onFrame);
        })`)) as number;
          seek[kind].push(ms);
          console.log(
            `${kind} run ${i + 1}: play → first frame ${play[kind].at(-1)!.toFixed(0)} ms, seek to 80 % → playing ${ms.toFixed(0)} ms`,
          );
          await context.close();
        }
      } finally {
        await server.stop();
      }
    }
  } finally {
    await browser.close();
  }
  const base = median(play.direct);
  for (const kind of Object.keys(TITLES) as Kind[]) {
    const m = median(play[kind]);
    console.log(
      `${kind}: play → first frame median ${m.toFixed(0)} ms (${(m / base).toFixed(2)}× direct play); seek to 80 % → playing median ${median(seek[kind]).toFixed(0)} ms`,
    );
  }
}

await makeSources();
await firstFrames();
await conversionCpu();
await concurrentTranscodes();
