import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../../../test/test-database.ts';
import { MediaProber } from './media-prober.ts';
import { MediaProbesRepository } from './media-probes.repository.ts';
import { ProbeFailure } from './probe.ts';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'marquee-prober-'));
const file = (name: string) => path.join(dir, name);
const identity = (name: string) => {
  const s = statSync(file(name));
  return { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
};
/** The real ffprobe behind a script that notes when each run starts and ends (how many ran at once). */
const runsLog = file('runs.log');
const countingFfprobe = file('ffprobe-counting.sh');

beforeAll(async () => {
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=s=160x90:d=2:r=10', '-c:v', 'libx264', '-preset', 'ultrafast'],
    file('film.mp4'),
  ]);
  for (let i = 0; i < 8; i++) writeFileSync(file(`copy-${i}.mp4`), readFileSync(file('film.mp4')));
  writeFileSync(file('notes S01E01.mkv'), 'not a film\n');
  writeFileSync(
    countingFfprobe,
    `#!/bin/sh\necho start >> '${runsLog}'\nffprobe "$@"\ncode=$?\necho end >> '${runsLog}'\nexit $code\n`,
  );
  chmodSync(countingFfprobe, 0o755);
}, 30_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe(`MediaProber on ${testDialect}`, () => {
  let database: TestDatabase;
  let repository: MediaProbesRepository;
  const prober = (o: { concurrency?: number; ffprobePath?: string } = {}) =>
    new MediaProber({ repository, ffprobePath: 'ffprobe', now: () => 5_000, ...o });

  beforeEach(async () => {
    database = await createTestDatabase();
    repository = new MediaProbesRepository(database.db);
    writeFileSync(runsLog, '');
  });
  afterEach(async () => {
    await database.destroy();
  });

  it('probes a file once, stores the answer, and answers from the database while the file is unchanged', async () => {
    const first = prober();
    const info = await first.probe(file('film.mp4'), identity('film.mp4'));
    expect(info?.video).toMatchObject({ codec: 'h264', width: 160, height: 90 });
    expect(first.ffprobeRuns).toBe(1);
    expect(await repository.get(file('film.mp4'))).toMatchObject({ probedAt: 5_000, info });

    // Another process (or this one after a restart) reads the stored answer.
    const second = prober();
    expect(await second.inspect(file('film.mp4'), identity('film.mp4'))).toEqual({
      info,
      error: null,
      ranFfprobe: false,
    });
    expect(second.ffprobeRuns).toBe(0);
  });

  it('probes again when the file changed (size, mtime or inode)', async () => {
    const p = prober();
    await p.probe(file('film.mp4'), identity('film.mp4'));
    const changed = { ...identity('film.mp4'), mtimeMs: identity('film.mp4').mtimeMs + 2_000 };
    expect((await p.inspect(file('film.mp4'), changed)).ranFfprobe).toBe(true);
    expect((await p.inspect(file('film.mp4'), { ...changed, ino: changed.ino + 1 })).ranFfprobe).toBe(true);
    expect((await p.inspect(file('film.mp4'), { ...changed, ino: changed.ino + 1 })).ranFfprobe).toBe(false);
    expect(p.ffprobeRuns).toBe(3);
  });

  it('remembers a file that is not media, with the reason, without throwing', async () => {
    const p = prober();
    expect(await p.inspect(file('notes S01E01.mkv'), identity('notes S01E01.mkv'))).toEqual({
      info: null,
      error: 'Invalid data found when processing input',
      ranFfprobe: true,
    });
    expect(await prober().probe(file('notes S01E01.mkv'), identity('notes S01E01.mkv'))).toBeNull();
    expect(p.ffprobeRuns).toBe(1);
  });

  it('runs at most `concurrency` ffprobe processes at once, and one per path however many ask', async () => {
    const p = prober({ concurrency: 2, ffprobePath: countingFfprobe });
    const names = Array.from({ length: 8 }, (_, i) => `copy-${i}.mp4`);
    const answers = await Promise.all([
      ...names.map((name) => p.probe(file(name), identity(name))),
      p.probe(file('copy-0.mp4'), identity('copy-0.mp4')),
    ]);
    expect(answers.every((a) => a?.video?.codec === 'h264')).toBe(true);
    const lines = readFileSync(runsLog, 'utf8').trim().split('\n');
    let running = 0;
    let most = 0;
    for (const line of lines) {
      running += line === 'start' ? 1 : -1;
      most = Math.max(most, running);
    }
    expect(lines.filter((l) => l === 'start')).toHaveLength(8);
    expect(most).toBeLessThanOrEqual(2);
    expect(p.ffprobeRuns).toBe(8);
  });

  it('stores nothing when ffprobe cannot run, so the file is tried again', async () => {
    const p = prober({ ffprobePath: file('missing-ffprobe') });
    await expect(p.probe(file('film.mp4'), identity('film.mp4'))).rejects.toThrow(ProbeFailure);
    expect(await repository.get(file('film.mp4'))).toBeUndefined();
  });

  it('forgets what it stored about files that are gone', async () => {
    const p = prober();
    await p.probe(file('film.mp4'), identity('film.mp4'));
    await p.forget([file('film.mp4')]);
    expect(await repository.get(file('film.mp4'))).toBeUndefined();
  });
});
