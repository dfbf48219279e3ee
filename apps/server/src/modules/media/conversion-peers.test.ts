import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { RedisConversionPeers } from './conversion-peers.ts';
import { HlsConversions, type ConvertibleFile } from './hls-conversions.ts';
import { readKeyframes } from './keyframes.ts';
import { h264Ac3Info } from '../../../test/media-info.ts';
import { parsePlanId, planId, type HlsPlan } from './playback-plan.ts';

// Decision 087: servers behind one balancer share each conversion through Redis and TRANSCODE_DIR. Two
// HlsConversions here are two servers: real Redis (TEST_REDIS_URL, else the local one), real ffmpeg.

const run = promisify(execFile);
const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

const info = h264Ac3Info(20, 2);

const remux: HlsPlan = { video: 'copy', audio: { index: 1, mode: 'aac' }, burn: null };

let dir: string;
let file: ConvertibleFile;
let redis: Redis;
const prefix = `peers-test-${randomBytes(4).toString('hex')}:`;
const open: { conversions: HlsConversions; peers: RedisConversionPeers }[] = [];

/** One server: its own folder inside `shared`, peers on the shared Redis. */
function server(shared: string, name: string) {
  const peers = new RedisConversionPeers({ redis, prefix, answerTimeoutMs: 20_000 });
  const conversions = new HlsConversions({
    ffmpeg: 'ffmpeg',
    keyframes: (f) => readKeyframes('ffprobe', f.path),
    workDir: path.join(shared, `hls-${name}`),
    sharedDir: shared,
    peers,
    resolve: async (fileId, plan) => {
      const parsed = fileId === file.id ? parsePlanId(plan, file.info) : null;
      return parsed ? { file, plan: parsed } : null;
    },
    limits: { maxTranscodes: 1, maxRemuxes: 4, perViewer: 2 },
    hardware: 'none',
  });
  const s = { conversions, peers };
  open.push(s);
  return s;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'marquee-peers-'));
  const input = path.join(dir, 'movie.mkv');
  await run('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=24', '-f', 'lavfi'],
    ...['-i', 'sine=frequency=440:sample_rate=48000', '-t', '20', '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...['-x264-params', 'keyint=48:min-keyint=48:scenecut=0', '-c:a', 'ac3', input],
  ]);
  file = { id: `movie-${randomBytes(3).toString('hex')}`, path: input, info };
  redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
});

afterEach(async () => {
  for (const s of open.splice(0)) {
    await s.conversions.close();
    await s.peers.close();
  }
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
  await rm(dir, { recursive: true, force: true });
});

describe('conversions shared by several servers (Redis + a shared folder)', () => {
  it('a segment asked of another server comes from the conversion the first one runs', async () => {
    const shared = await mkdtemp(path.join(dir, 'shared-'));
    const a = server(shared, 'a');
    const b = server(shared, 'b');
    const fromA = await a.conversions.segment(file, remux, 1, 'viewer');
    // B is asked for the next one and for the init segment: A makes them, B runs no ffmpeg.
    const init = await b.conversions.initSegment(file, remux, 'viewer');
    expect(init.startsWith(path.join(shared, 'hls-a'))).toBe(true);
    const fromB = await b.conversions.segment(file, remux, 2, 'viewer');
    expect(fromB.subarray(4, 8).toString('latin1')).toBe('styp');
    expect(b.conversions.active()).toEqual([]);
    expect(a.conversions.active()).toEqual([
      expect.objectContaining({ fileId: file.id, plan: planId(remux), running: expect.any(Boolean) }),
    ]);
    // The same segment through either server is the same bytes.
    expect(Buffer.compare(await b.conversions.segment(file, remux, 1, 'viewer'), fromA)).toBe(0);
    // A far seek asked of B restarts A's ffmpeg there (B still converts nothing).
    const segments = await a.conversions.segments(file, remux);
    const last = await b.conversions.segment(file, remux, segments.length - 1, 'viewer');
    expect(last.length).toBeGreaterThan(100);
    expect(b.conversions.active()).toEqual([]);
  });

  it('what the server running a rendition refuses reaches the viewer as its error', async () => {
    const shared = await mkdtemp(path.join(dir, 'shared-'));
    const a = server(shared, 'a');
    const b = server(shared, 'b');
    await a.conversions.segment(file, remux, 0, 'viewer');
    const error = await b.conversions.segment(file, remux, 9999, 'viewer').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 404, code: 'file_not_found' });
  });

  it('when the server running a rendition is gone, the next one takes it over', async () => {
    const shared = await mkdtemp(path.join(dir, 'shared-'));
    const a = server(shared, 'a');
    const b = server(shared, 'b');
    await a.conversions.segment(file, remux, 0, 'viewer');
    // A dies without giving its lease up: it no longer listens, its lease is still in Redis.
    await a.peers.close();
    expect(await redis.get(`${prefix}hls:lease:${file.id}/${planId(remux)}`)).toBe(a.peers.id);
    const segment = await b.conversions.segment(file, remux, 1, 'viewer');
    expect(segment.length).toBeGreaterThan(100);
    expect(b.conversions.active()).toEqual([expect.objectContaining({ fileId: file.id })]);
    expect(await redis.get(`${prefix}hls:lease:${file.id}/${planId(remux)}`)).toBe(b.peers.id);
  });

  it('servers that do not share their folder each convert for themselves', async () => {
    const a = server(await mkdtemp(path.join(dir, 'alone-')), 'a');
    const b = server(await mkdtemp(path.join(dir, 'alone-')), 'b');
    await a.conversions.segment(file, remux, 0, 'viewer');
    const segment = await b.conversions.segment(file, remux, 1, 'viewer');
    expect(segment.length).toBeGreaterThan(100);
    expect(b.conversions.active()).toEqual([expect.objectContaining({ fileId: file.id })]);
  });
});
