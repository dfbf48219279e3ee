import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../../../test/test-database.ts';
import { AppError } from '../../errors.ts';
import { registerErrorHandling } from '../../plugins/errors.ts';
import { BullMqJobQueue } from '../jobs/bullmq-queue.ts';
import { InProcessJobQueue } from '../jobs/in-process-queue.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { MediaUrlSigner } from '../sources/media-access.ts';
import {
  THUMBNAILS_JOB,
  Thumbnails,
  jpegSize,
  registerThumbnailRoutes,
  thumbnailArgs,
  thumbnailCount,
  thumbnailSourceOf,
  thumbnailsPath,
  thumbnailsVtt,
  type ThumbnailSource,
} from './thumbnails.ts';

const run = promisify(execFile);
const redisUrl = testRedisUrl ?? 'redis://127.0.0.1:6379';

let dir: string;
let clip: ThumbnailSource;
const opened: JobQueue[] = [];

async function sourceOf(file: string, id: string, duration: number): Promise<ThumbnailSource> {
  const s = await stat(file);
  return { id, path: file, size: s.size, mtimeMs: s.mtimeMs, duration };
}

/** Width, height and codec of an image, as ffprobe reads it. */
async function probeImage(file: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_name,width,height',
    '-of',
    'json',
    file,
  ]);
  return (JSON.parse(stdout) as { streams: { codec_name: string; width: number; height: number }[] })
    .streams[0];
}

/** Polls `check` (every 20 ms, at most 30 s) where expect.poll cannot run (a beforeAll). */
async function until(check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const cuesOf = (vtt: string) =>
  [...vtt.matchAll(/(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})\n(\S+)/g)].map((m) => ({
    start: m[1],
    end: m[2],
    url: m[3],
  }));

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'marquee-thumbs-'));
  // 40 s of a moving test picture, 640×360 (16:9 → 320×180 tiles), with sound.
  const file = path.join(dir, 'clip %d.mp4');
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440'],
    ...['-t', '40', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '50', '-c:a', 'aac'],
    file,
  ]);
  clip = await sourceOf(file, 'AAAAAAAAAAAAAAAAAAAAAA', 40);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((q) => q.close()));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the thumbnail track', () => {
  it('has one cue per started 10 s, each a tile of a 10×10 sprite', () => {
    expect([5, 40, 40.5, 41, 3600].map(thumbnailCount)).toEqual([1, 4, 5, 5, 360]);
    expect(thumbnailsVtt(4, { width: 320, height: 180 }, 40)).toBe(
      [
        'WEBVTT',
        '',
        '00:00:00.000 --> 00:00:10.000',
        'sprite-0.jpg#xywh=0,0,320,180',
        '',
        '00:00:10.000 --> 00:00:20.000',
        'sprite-0.jpg#xywh=320,0,320,180',
        '',
        '00:00:20.000 --> 00:00:30.000',
        'sprite-0.jpg#xywh=640,0,320,180',
        '',
        '00:00:30.000 --> 00:00:40.000',
        'sprite-0.jpg#xywh=960,0,320,180',
        '',
      ].join('\n'),
    );
    // The 12th tile starts the second row; the 101st the second sprite; the last cue ends with the video.
    const cues = cuesOf(thumbnailsVtt(thumbnailCount(1003.5), { width: 320, height: 134 }, 1003.5));
    expect(cues).toHaveLength(101);
    expect(cues[11]!.url).toBe('sprite-0.jpg#xywh=320,134,320,134');
    expect(cues[99]!.url).toBe('sprite-0.jpg#xywh=2880,1206,320,134');
    expect(cues[100]).toEqual({
      start: '00:16:40.000',
      end: '00:16:43.500',
      url: 'sprite-1.jpg#xywh=0,0,320,134',
    });
  });

  it("builds ffmpeg's arguments from the job's data only: files as file: URLs, a literal % escaped", () => {
    const args = thumbnailArgs('/media/-y weird|name.mkv', '/data/100%/thumbs/x.part', 1);
    expect(args).toContain('file:/media/-y weird|name.mkv');
    expect(args.at(-1)).toBe('file:/data/100%%/thumbs/x.part/sprite-%d.jpg');
    expect(args[args.indexOf('-vf') + 1]).toBe('fps=1/10,scale=320:-2,tile=10x10');
    expect(args[args.indexOf('-map') + 1]).toBe('0:V:0');
  });

  it('reads the size of a JPEG, and nothing from other bytes', () => {
    expect(jpegSize(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
    expect(jpegSize(new Uint8Array([0xff, 0xd8, 0xff]))).toBeNull();
  });

  it('offers thumbnails only for a video with a picture and a duration', () => {
    const file = { kind: 'video', id: 'x', path: '/m/x.mkv', size: 1, mtimeMs: 2 };
    expect(thumbnailSourceOf({ ...file, info: { duration: 12, video: {} } })).toEqual({
      id: 'x',
      path: '/m/x.mkv',
      size: 1,
      mtimeMs: 2,
      duration: 12,
    });
    expect(thumbnailSourceOf({ ...file, info: null })).toBeNull();
    expect(thumbnailSourceOf({ ...file, info: { duration: null, video: {} } })).toBeNull();
    expect(thumbnailSourceOf({ ...file, info: { duration: 12, video: null } })).toBeNull();
    expect(thumbnailSourceOf({ ...file, kind: 'subtitle', info: { duration: 12, video: {} } })).toBeNull();
  });
});

const queues: [string, () => Promise<JobQueue>][] = [
  ['in process', async () => new InProcessJobQueue()],
  [
    'on Redis',
    async () =>
      BullMqJobQueue.connect({
        url: redisUrl,
        prefix: `test-thumbs-${randomBytes(5).toString('hex')}`,
        onError: () => undefined,
      }),
  ],
];

describe.each(queues)('thumbnails made by ffmpeg (queue %s)', (_name, makeQueue) => {
  const queue = async () => {
    const jobs = await makeQueue();
    opened.push(jobs);
    return jobs;
  };
  afterAll(async () => {
    // The Redis queues' keys (their prefixes start with test-thumbs-).
    const admin = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    const keys = await admin.keys('test-thumbs-*');
    if (keys.length) await admin.del(...keys);
    await admin.quit();
  });

  it('writes a 10×10 sprite of 320×180 tiles and a track of 4 cues for a 40 s video, once', async () => {
    const jobs = await queue();
    const workDir = path.join(dir, `work-${randomBytes(3).toString('hex')}`);
    const thumbnails = new Thumbnails({ jobs, ffmpeg: 'ffmpeg', workDir });
    await jobs.start();
    expect(await thumbnails.ensure(clip)).toBe(false);
    expect(await thumbnails.ensure(clip)).toBe(false);
    await expect
      .poll(async () => (await thumbnails.thumbnailsFor(clip)).ready, { timeout: 30_000 })
      .toBe(true);
    const { dir: out } = await thumbnails.thumbnailsFor(clip);
    expect(path.relative(workDir, out)).toBe(
      path.join('thumbnails', `${clip.id}-${clip.size}-${Math.round(clip.mtimeMs)}`),
    );
    expect((await readdir(out)).sort()).toEqual(['sprite-0.jpg', 'thumbnails.vtt']);
    expect(cuesOf(await readFile(path.join(out, 'thumbnails.vtt'), 'utf8'))).toEqual([
      { start: '00:00:00.000', end: '00:00:10.000', url: 'sprite-0.jpg#xywh=0,0,320,180' },
      { start: '00:00:10.000', end: '00:00:20.000', url: 'sprite-0.jpg#xywh=320,0,320,180' },
      { start: '00:00:20.000', end: '00:00:30.000', url: 'sprite-0.jpg#xywh=640,0,320,180' },
      { start: '00:00:30.000', end: '00:00:40.000', url: 'sprite-0.jpg#xywh=960,0,320,180' },
    ]);
    expect(await probeImage(path.join(out, 'sprite-0.jpg'))).toEqual({
      codec_name: 'mjpeg',
      width: 3200,
      height: 1800,
    });
    expect(jpegSize(await readFile(path.join(out, 'sprite-0.jpg')))).toEqual({ width: 3200, height: 1800 });
    // Made once, though asked for twice while queued.
    const kind = async () => (await jobs.status()).kinds.find((k) => k.kind === THUMBNAILS_JOB)!;
    await expect.poll(async () => (await kind()).done, { timeout: 30_000 }).toBe(1);
    expect(await kind()).toMatchObject({ failed: 0, queued: 0, running: 0 });
    expect(await thumbnails.ensure(clip)).toBe(true);
  });
});

describe('thumbnails of a changed or broken file', () => {
  it("makes a changed file's thumbnails anew and removes the old ones", async () => {
    const jobs = new InProcessJobQueue();
    opened.push(jobs);
    const workDir = path.join(dir, 'work-changed');
    const thumbnails = new Thumbnails({ jobs, ffmpeg: 'ffmpeg', workDir, nice: false });
    await jobs.start();
    const copy = path.join(dir, 'copy.mp4');
    await writeFile(copy, await readFile(clip.path));
    const before = await sourceOf(copy, 'BBBBBBBBBBBBBBBBBBBBBB', 40);
    await thumbnails.enqueueThumbnails(before);
    await expect
      .poll(async () => (await thumbnails.thumbnailsFor(before)).ready, { timeout: 30_000 })
      .toBe(true);
    await utimes(copy, new Date(), new Date(Date.now() + 5_000));
    const after = await sourceOf(copy, before.id, 40);
    // The job of the old version finds the file changed and does nothing.
    await thumbnails.enqueueThumbnails({ ...before, size: before.size, mtimeMs: before.mtimeMs - 1 });
    expect(await thumbnails.ensure(after)).toBe(false);
    await expect
      .poll(async () => (await thumbnails.thumbnailsFor(after)).ready, { timeout: 30_000 })
      .toBe(true);
    await expect
      .poll(() => readdir(path.join(workDir, 'thumbnails')))
      .toEqual([`${after.id}-${after.size}-${Math.round(after.mtimeMs)}`]);
    await expect.poll(async () => (await jobs.status()).kinds[0]!.done).toBe(3);
    expect((await jobs.status()).kinds[0]).toMatchObject({ failed: 0 });
  });

  it('fails the job of a file ffmpeg cannot read, leaves nothing behind and lists the failure', async () => {
    const jobs = new InProcessJobQueue();
    opened.push(jobs);
    const workDir = path.join(dir, 'work-broken');
    const thumbnails = new Thumbnails({
      jobs,
      ffmpeg: 'ffmpeg',
      workDir,
      retry: { attempts: 2, backoffMs: 10 },
    });
    await jobs.start();
    const broken = path.join(dir, 'broken.mkv');
    await writeFile(broken, 'not a video at all');
    const source = await sourceOf(broken, 'CCCCCCCCCCCCCCCCCCCCCC', 60);
    expect(await thumbnails.ensure(source)).toBe(false);
    await expect.poll(async () => (await jobs.status()).kinds[0]!.failed, { timeout: 20_000 }).toBe(1);
    const { failures } = await jobs.status();
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ kind: 'thumbnails', attempts: 2 });
    expect(failures[0]!.error).toMatch(/ffmpeg/);
    expect(await readdir(path.join(workDir, 'thumbnails'))).toEqual([]);
    // Within a day it is not tried again.
    expect(await thumbnails.ensure(source)).toBe(false);
    expect((await jobs.status()).kinds[0]).toMatchObject({ queued: 0, running: 0 });
  });
});

describe('the thumbnail routes', () => {
  let app: FastifyInstance;
  let signer: MediaUrlSigner;
  let thumbnails: Thumbnails;
  const ids = { missing: 'DDDDDDDDDDDDDDDDDDDDDD' };

  beforeAll(async () => {
    const jobs = new InProcessJobQueue();
    const workDir = path.join(dir, 'work-routes');
    thumbnails = new Thumbnails({ jobs, ffmpeg: 'ffmpeg', workDir });
    await jobs.start();
    opened.push(jobs);
    await thumbnails.enqueueThumbnails(clip);
    await until(async () => (await thumbnails.thumbnailsFor(clip)).ready);
    const notMade = { ...clip, id: ids.missing };
    signer = new MediaUrlSigner('k'.repeat(32), { ttlMs: 3_600_000, now: () => Date.now() });
    app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandling(app);
    registerThumbnailRoutes(app, {
      thumbnails,
      authorize: async (fileId, access) => {
        const grant = signer.verify(`library:${fileId}`, access);
        return { cacheControl: `private, max-age=${Math.min(3600, signer.secondsLeft(grant))}` };
      },
      libraryFile: async (fileId) => {
        const file = [clip, notMade].find((f) => f.id === fileId);
        if (!file) throw new AppError(404, 'file_not_found', 'No such media file');
        return { kind: 'video', ...file, info: { duration: file.duration, video: {} } };
      },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  const tokenFor = (fileId: string) =>
    signer.sign(`library:${fileId}`, signer.grant('', { type: 'movie', tmdbId: '603' }));
  const get = (fileId: string, name: string, token = tokenFor(fileId)) =>
    app.inject({ method: 'GET', url: thumbnailsPath(token, fileId, name) });

  it('serves the track and its sprites under the video’s own token', async () => {
    expect(thumbnailsPath('tok', clip.id)).toBe(
      `/api/sources/library/tok/${clip.id}/thumbnails/thumbnails.vtt`,
    );
    const vtt = await get(clip.id, 'thumbnails.vtt');
    expect(vtt.statusCode).toBe(200);
    expect(vtt.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(vtt.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(vtt.headers['access-control-allow-origin']).toBe('*');
    expect(cuesOf(vtt.body)).toHaveLength(4);
    const sprite = await get(clip.id, 'sprite-0.jpg');
    expect(sprite.statusCode).toBe(200);
    expect(sprite.headers['content-type']).toBe('image/jpeg');
    expect(jpegSize(sprite.rawPayload)).toEqual({ width: 3200, height: 1800 });
  });

  it('refuses other names, other files’ tokens, and thumbnails not made yet', async () => {
    for (const name of ['sprite-1.jpg', 'sprite-0.png', '..%2Fthumbnails.vtt', '.thumbnails.vtt', 'x.vtt'])
      expect((await get(clip.id, name)).statusCode, name).toBe(404);
    const other = await get(clip.id, 'thumbnails.vtt', tokenFor(ids.missing));
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ code: 'media_url_invalid' });
    expect((await get(ids.missing, 'thumbnails.vtt')).json()).toMatchObject({ code: 'file_not_found' });
    expect((await get('EEEEEEEEEEEEEEEEEEEEEE', 'thumbnails.vtt')).statusCode).toBe(404);
  });
});
