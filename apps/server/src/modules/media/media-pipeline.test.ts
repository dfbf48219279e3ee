import { mkdir, mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MediaPipeline, processFolder } from './media-pipeline.ts';

// What a server that stopped without cleaning up left in TRANSCODE_DIR is removed; what a running server
// (this machine's, or another machine's sharing the folder: decision 087) uses is left alone.

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A pid that runs no process here (pids are below 2^22 on Linux). */
const DEAD_PID = 4_194_303 + 7;

describe('stale conversion folders', () => {
  it('removes the folders of gone processes and keeps those in use', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'marquee-stale-'));
    const host = hostname();
    const names = {
      mine: processFolder(host, process.pid),
      deadHere: processFolder(host, DEAD_PID),
      aliveHere: processFolder(host, process.ppid),
      otherRecent: processFolder('another-machine', 12),
      otherOld: processFolder('old-machine', 12),
      notOurs: 'subtitles',
    };
    for (const name of Object.values(names)) await mkdir(path.join(dir, name, 'x'), { recursive: true });
    const old = new Date(Date.now() - 11 * 60_000);
    await utimes(path.join(dir, names.otherOld), old, old);

    await MediaPipeline.removeStale(dir, { keepOwn: true });
    expect((await readdir(dir)).sort()).toEqual(
      [names.mine, names.aliveHere, names.otherRecent, names.notOurs].sort(),
    );
    // At start-up a folder with this process's pid is a previous process's: it goes too.
    await MediaPipeline.removeStale(dir);
    expect((await readdir(dir)).sort()).toEqual([names.aliveHere, names.otherRecent, names.notOurs].sort());
  });
});
