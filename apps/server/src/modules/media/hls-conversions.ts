import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rm, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { ErrorCode } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import { PeerGone, type ConversionPeers, type PeerAnswer, type PeerRequest } from './conversion-peers.ts';
import { conversionArgs, type HardwareAcceleration } from './ffmpeg.ts';
import { segmentsOf, type Segment } from './hls-segments.ts';
import type { MediaInfo } from './media-info.ts';
import { planId, type HlsPlan } from './playback-plan.ts';

// On-the-fly HLS (docs/decisions/085-library-pipeline.md): one ffmpeg per rendition being watched, started
// at the segment the player asks for, restarted at a seek past what it has made, paused when far ahead of
// the viewer, stopped and its files removed when nobody asked for a while, and stopped with the server.
// Behind a balancer, one process runs each rendition and the others ask it for segments
// (docs/decisions/087-shared-conversions.md).

export interface ConvertibleFile {
  /** The library's id of the file (folder names and limits use it). */
  id: string;
  /** The real path the scan admitted (never from a request). */
  path: string;
  info: MediaInfo;
}

export interface ConversionLimits {
  /** Video transcodes running at once on this server (remuxes are cheap and counted apart). */
  maxTranscodes: number;
  /** Remuxes running at once on this server. */
  maxRemuxes: number;
  /** Conversions one viewer runs at once; a new one replaces their oldest. */
  perViewer: number;
}

export interface HlsConversionsOptions {
  ffmpeg: string;
  /** Keyframe times of a file (copied video), cached by the caller. */
  keyframes: (file: ConvertibleFile) => Promise<number[]>;
  /** This process's folder for conversions; each rendition gets `<fileId>/<planId>` inside. */
  workDir: string;
  /**
   * The folder the processes share (TRANSCODE_DIR), holding each one's `workDir`: what a peer made is
   * read there. Defaults to the parent of `workDir`.
   */
  sharedDir?: string;
  /** The other processes behind the same balancer (Redis); absent in a single process. */
  peers?: ConversionPeers;
  /** A file and plan by their ids, for what a peer asks this process to convert. */
  resolve?: (fileId: string, plan: string) => Promise<{ file: ConvertibleFile; plan: HlsPlan } | null>;
  limits: ConversionLimits;
  hardware: HardwareAcceleration;
  vaapiDevice?: string;
  /** A rendition nobody asked for this long is stopped and its files removed. */
  idleMs?: number;
  /** ffmpeg is paused when it is this many seconds ahead of the last segment asked for. */
  aheadSeconds?: number;
  /** A segment this far (seconds) past what is made restarts the conversion there. */
  restartGapSeconds?: number;
  /** Longest a request waits for its segment. */
  segmentTimeoutMs?: number;
  now?: () => number;
  log?: (level: 'info' | 'warn', message: string, details: Record<string, unknown>) => void;
}

interface Run {
  id: string;
  process: ChildProcess;
  /** First chunk this run writes. */
  fromChunk: number;
  /** Chunks it finished (from its own playlist). */
  done: Set<number>;
  exited: boolean;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Stopped by this server (a restart, the idle sweep), not by a failure. */
  stopped: boolean;
  stderr: string;
  paused: boolean;
  /** Settles when the process has closed (listened for from its start: a close is never missed). */
  closed: Promise<void>;
}

interface Rendition {
  key: string;
  file: ConvertibleFile;
  plan: HlsPlan;
  dir: string;
  viewer: string;
  segments: Segment[];
  run: Run | null;
  lastRequestAt: number;
  /** The last segment a viewer asked for (pauses ffmpeg when it runs far ahead). */
  lastSegment: number;
  /** Chunks complete on disk, from any run. */
  chunks: Set<number>;
  init: string | null;
  waiters: Set<() => void>;
  watcher: FSWatcher | null;
  starting: Promise<void> | null;
}

const isTranscode = (plan: HlsPlan) => plan.video !== 'copy';

/** Thrown to a request whose segment the conversion could not make. */
const conversionFailed = (detail: string) =>
  new AppError(502, 'conversion_failed', `The server could not convert this file (${detail})`);

export class HlsConversions {
  private readonly renditions = new Map<string, Rendition>();
  /** Renditions being set up: concurrent first requests (init and a segment) share one. */
  private readonly opening = new Map<string, Promise<Rendition>>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly renewer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly now: () => number;
  private warnedUnshared = false;

  constructor(private readonly o: HlsConversionsOptions) {
    this.now = o.now ?? Date.now;
    this.sweeper = setInterval(() => void this.sweep(), Math.min(10_000, this.idleMs / 2));
    this.sweeper.unref();
    const peers = o.peers;
    if (peers) {
      peers.serve((request) => this.answer(request));
      // Leases live while this process runs their renditions; the folder's time says it is in use.
      this.renewer = setInterval(() => {
        void peers.renew([...this.renditions.keys()]);
        const now = new Date();
        void utimes(o.workDir, now, now).catch(() => undefined);
      }, 5_000);
      this.renewer.unref();
    }
  }

  private get sharedDir() {
    return this.o.sharedDir ?? path.dirname(this.o.workDir);
  }

  private get idleMs() {
    return this.o.idleMs ?? 45_000;
  }

  /** The segments of a rendition (for its playlist). Copied video needs the file's keyframes. */
  async segments(file: ConvertibleFile, plan: HlsPlan): Promise<Segment[]> {
    const duration = file.info.duration ?? 0;
    if (duration <= 0) throw conversionFailed('unknown duration');
    const keyframes = plan.video === 'copy' ? await this.o.keyframes(file) : null;
    return segmentsOf(plan, duration, keyframes);
  }

  /** What runs now (admin page, tests). */
  active(): { fileId: string; plan: string; viewer: string; running: boolean; transcode: boolean }[] {
    return [...this.renditions.values()].map((r) => ({
      fileId: r.file.id,
      plan: planId(r.plan),
      viewer: r.viewer,
      running: r.run !== null && !r.run.exited,
      transcode: isTranscode(r.plan),
    }));
  }

  /** Path of the rendition's init segment, once a run (of this process or a peer) has written it. */
  async initSegment(file: ConvertibleFile, plan: HlsPlan, viewer: string): Promise<string> {
    const shared = await this.fromPeer(file, plan, 'init', viewer);
    return shared ? shared[0]! : this.localInit(file, plan, viewer);
  }

  /** The bytes of segment `index`: its chunks, converted now if need be (here or by a peer). */
  async segment(file: ConvertibleFile, plan: HlsPlan, index: number, viewer: string): Promise<Buffer> {
    const files =
      (await this.fromPeer(file, plan, index, viewer)) ??
      (await this.localSegment(file, plan, index, viewer));
    return joinChunks(await Promise.all(files.map((f) => readFile(f))));
  }

  private async localInit(file: ConvertibleFile, plan: HlsPlan, viewer: string): Promise<string> {
    const rendition = await this.rendition(file, plan, viewer);
    rendition.lastRequestAt = this.now();
    if (rendition.init) return rendition.init;
    if (!rendition.run || rendition.run.exited) await this.start(rendition, rendition.lastSegment);
    await this.waitFor(rendition, () => rendition.init !== null);
    return rendition.init!;
  }

  /** The files of segment `index` (its chunks), converted here now if need be. */
  private async localSegment(
    file: ConvertibleFile,
    plan: HlsPlan,
    index: number,
    viewer: string,
  ): Promise<string[]> {
    const rendition = await this.rendition(file, plan, viewer);
    const segment = rendition.segments[index];
    if (!segment) throw new AppError(404, 'file_not_found', 'No such segment');
    rendition.lastRequestAt = this.now();
    rendition.lastSegment = index;
    const wanted = chunksOf(segment);
    const ready = () => wanted.every((c) => rendition.chunks.has(c));
    if (!ready()) {
      const run = rendition.run;
      const madeUpTo = run ? Math.max(run.fromChunk - 1, ...run.done) : -1;
      const aheadOfRun =
        run && !run.exited && segment.firstChunk >= run.fromChunk
          ? segment.start - (rendition.segments.find((s) => s.firstChunk > madeUpTo)?.start ?? 0)
          : Infinity;
      if (aheadOfRun > (this.o.restartGapSeconds ?? 20)) await this.start(rendition, index);
    }
    this.resume(rendition);
    try {
      await this.waitFor(rendition, ready);
    } catch (error) {
      // ffmpeg ended without this segment (killed from outside, a crash): one fresh start there.
      if (!(error instanceof AppError) || error.code !== 'conversion_failed' || ready()) throw error;
      await this.start(rendition, index);
      await this.waitFor(rendition, ready);
    }
    this.throttle(rendition);
    return wanted.map((c) => path.join(rendition.dir, `${c}.m4s`));
  }

  /**
   * What a peer runs for us: null when this process runs the rendition (or takes it now, or the peers
   * share no folder), else the files of what was asked, made by the process that runs it.
   */
  private async fromPeer(
    file: ConvertibleFile,
    plan: HlsPlan,
    what: PeerRequest['what'],
    viewer: string,
  ): Promise<string[] | null> {
    const peers = this.o.peers;
    const key = keyOf(file, plan);
    if (!peers || this.closed || this.renditions.has(key) || this.opening.has(key)) return null;
    // A peer found gone gives its lease up: the second claim takes it.
    for (let attempt = 0; attempt < 2; attempt++) {
      const owner = await peers.claim(key);
      if (owner === null) return null;
      let answer: PeerAnswer;
      try {
        answer = await peers.ask(owner, { key, fileId: file.id, plan: planId(plan), what, viewer });
      } catch (error) {
        if (error instanceof PeerGone) continue;
        throw new AppError(503, 'server_busy', 'The conversion is too slow on this server right now', {
          retryAfterSeconds: 10,
          cause: error,
        });
      }
      if ('error' in answer) {
        const { status, code, message } = answer.error;
        const known = status === 404 || status === 502 || status === 503;
        throw new AppError(known ? status : 502, known ? (code as ErrorCode) : 'conversion_failed', message, {
          ...(status === 503 ? { retryAfterSeconds: 10 } : {}),
        });
      }
      const files = answer.files.map((f) => path.resolve(this.sharedDir, f));
      const inside = files.every((f) => !path.relative(this.sharedDir, f).startsWith('..'));
      if (inside && files.length > 0 && (await Promise.all(files.map(exists))).every(Boolean)) return files;
      // The peer's files are not in our folder: TRANSCODE_DIR is not shared. Convert here instead.
      if (!this.warnedUnshared)
        this.o.log?.(
          'warn',
          'library: TRANSCODE_DIR is not shared between the servers; each converts alone',
          {
            sharedDir: this.sharedDir,
          },
        );
      this.warnedUnshared = true;
      return null;
    }
    return null;
  }

  /** Makes what a peer asks for (this process runs the rendition); paths relative to the shared folder. */
  private async answer(request: PeerRequest): Promise<PeerAnswer> {
    try {
      const found = this.o.resolve ? await this.o.resolve(request.fileId, request.plan) : null;
      if (!found || keyOf(found.file, found.plan) !== request.key)
        throw new AppError(404, 'file_not_found', 'No such media file');
      const files =
        request.what === 'init'
          ? [await this.localInit(found.file, found.plan, request.viewer)]
          : await this.localSegment(found.file, found.plan, request.what, request.viewer);
      return { files: files.map((f) => path.relative(this.sharedDir, f)) };
    } catch (error) {
      if (error instanceof AppError)
        return { error: { status: error.status, code: error.code, message: error.message } };
      return {
        error: { status: 502, code: 'conversion_failed', message: 'The server could not convert this file' },
      };
    }
  }

  /** Stops every conversion and removes their files (server shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    if (this.renewer) clearInterval(this.renewer);
    await Promise.all([...this.renditions.values()].map((r) => this.drop(r)));
  }

  private async rendition(file: ConvertibleFile, plan: HlsPlan, viewer: string): Promise<Rendition> {
    if (this.closed) throw new AppError(503, 'server_busy', 'The server is shutting down');
    const key = keyOf(file, plan);
    const known = this.renditions.get(key);
    if (known && known.file.path === file.path) {
      known.viewer = viewer;
      return known;
    }
    let opening = this.opening.get(key);
    if (!opening) {
      opening = this.open(key, file, plan, viewer, known).finally(() => this.opening.delete(key));
      this.opening.set(key, opening);
    }
    return opening;
  }

  private async open(
    key: string,
    file: ConvertibleFile,
    plan: HlsPlan,
    viewer: string,
    known: Rendition | undefined,
  ): Promise<Rendition> {
    if (known) await this.drop(known);
    // Peers ask this process for it from now on (a lease another process holds is left to lapse).
    await this.o.peers?.claim(key);
    const dir = path.join(this.o.workDir, file.id, planId(plan));
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const rendition: Rendition = {
      key,
      file,
      plan,
      dir,
      viewer,
      segments: await this.segments(file, plan),
      run: null,
      lastRequestAt: this.now(),
      lastSegment: 0,
      chunks: new Set(),
      init: null,
      waiters: new Set(),
      watcher: null,
      starting: null,
    };
    // Chunks appear by rename (temp_file); the run's playlist says which are complete.
    rendition.watcher = watch(dir, () => void this.refresh(rendition));
    rendition.watcher.on('error', () => {});
    this.renditions.set(key, rendition);
    return rendition;
  }

  /** Makes room for a new run: this viewer's oldest other conversion, then the server's limit. */
  private async admit(rendition: Rendition): Promise<void> {
    const transcode = isTranscode(rendition.plan);
    const running = [...this.renditions.values()].filter(
      (r) => r !== rendition && r.run !== null && !r.run.exited,
    );
    const mine = running
      .filter((r) => r.viewer === rendition.viewer)
      .sort((a, b) => a.lastRequestAt - b.lastRequestAt);
    while (mine.length >= this.o.limits.perViewer) await this.stop(mine.shift()!);
    const sameKind = running.filter((r) => isTranscode(r.plan) === transcode && r.run && !r.run.exited);
    const limit = transcode ? this.o.limits.maxTranscodes : this.o.limits.maxRemuxes;
    if (sameKind.length >= limit) {
      // Runs nobody asked for lately (a viewer who left) give way first.
      const stale = sameKind.filter((r) => this.now() - r.lastRequestAt > 15_000);
      if (stale.length) await this.stop(stale[0]!);
      else
        throw new AppError(
          503,
          'server_busy',
          'This server is busy converting other videos; try again in a minute',
          { retryAfterSeconds: 30 },
        );
    }
  }

  /** (Re)starts ffmpeg at segment `index`. */
  private async start(rendition: Rendition, index: number): Promise<void> {
    if (rendition.starting) return rendition.starting;
    rendition.starting = (async () => {
      if (rendition.run && !rendition.run.exited) await this.stopRun(rendition.run);
      await this.admit(rendition);
      const segment = rendition.segments[Math.min(index, rendition.segments.length - 1)]!;
      const id = randomUUID().slice(0, 8);
      const args = conversionArgs({
        input: rendition.file.path,
        info: rendition.file.info,
        plan: rendition.plan,
        startAt: segment.start,
        firstChunk: segment.firstChunk,
        dir: rendition.dir,
        run: id,
        hardware: this.o.hardware,
        ...(this.o.vaapiDevice ? { vaapiDevice: this.o.vaapiDevice } : {}),
      });
      const child = spawn(this.o.ffmpeg, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
      const run: Run = {
        id,
        process: child,
        fromChunk: segment.firstChunk,
        done: new Set(),
        exited: false,
        exitCode: null,
        signal: null,
        stopped: false,
        stderr: '',
        paused: false,
        closed,
      };
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (text: string) => {
        if (run.stderr.length < 4000) run.stderr += text;
      });
      child.on('error', (error) => {
        run.stderr += String(error);
      });
      child.on('close', (code, signal) => {
        // What it finished is read before the run counts as ended, so no waiter sees an ended run
        // whose last chunks are not counted yet.
        void this.refresh(rendition).then(() => {
          run.exited = true;
          run.exitCode = code;
          run.signal = signal;
          if (code !== 0 && run === rendition.run && !this.closed && !run.stopped)
            this.o.log?.('warn', 'library: a conversion failed', {
              file: rendition.file.path,
              plan: planId(rendition.plan),
              code,
              signal,
              stderr: run.stderr.slice(0, 1000),
            });
          this.wake(rendition);
        });
      });
      rendition.run = run;
      this.o.log?.('info', 'library: conversion started', {
        fileId: rendition.file.id,
        plan: planId(rendition.plan),
        at: segment.start,
      });
    })().finally(() => {
      rendition.starting = null;
    });
    return rendition.starting;
  }

  /** Reads which chunks are complete (the run's playlist lists a chunk once it is renamed in place). */
  private async refresh(rendition: Rendition): Promise<void> {
    const run = rendition.run;
    const names = await readdir(rendition.dir).catch(() => [] as string[]);
    if (!rendition.init) {
      const init = names.find((n) => /^init-[a-z0-9]+\.mp4$/.test(n));
      if (init && (await isComplete(path.join(rendition.dir, init))))
        rendition.init = path.join(rendition.dir, init);
    }
    if (run) {
      const listed = await readFile(path.join(rendition.dir, `run-${run.id}.m3u8`), 'utf8').catch(() => '');
      for (const match of listed.matchAll(/^(\d+)\.m4s$/gm)) {
        const chunk = Number(match[1]);
        run.done.add(chunk);
        rendition.chunks.add(chunk);
      }
    }
    this.wake(rendition);
  }

  private wake(rendition: Rendition) {
    for (const waiter of [...rendition.waiters]) waiter();
  }

  /** Resolves when `ready()` holds; rejects when the run ended without it, or after the timeout. */
  private waitFor(rendition: Rendition, ready: () => boolean): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(
        () =>
          finish(
            new AppError(503, 'server_busy', 'The conversion is too slow on this server right now', {
              retryAfterSeconds: 10,
            }),
          ),
        this.o.segmentTimeoutMs ?? 30_000,
      );
      // The watcher can miss a rename on some file systems: look again now and then.
      const poll = setInterval(() => void this.refresh(rendition), 500);
      const finish = (error?: AppError) => {
        clearTimeout(timeout);
        clearInterval(poll);
        rendition.waiters.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const check = () => {
        if (ready()) return finish();
        const run = rendition.run;
        if (!rendition.starting && (!run || run.exited)) {
          const why =
            run?.exitCode === 0 ? 'the file ended early' : (run?.stderr.split('\n')[0] ?? 'not running');
          finish(conversionFailed(why.slice(0, 200)));
        }
      };
      rendition.waiters.add(check);
      void this.refresh(rendition);
    });
  }

  /** Pauses ffmpeg (SIGSTOP) when it is far ahead of what the viewer asked for; `resume` lets it go on. */
  private throttle(rendition: Rendition) {
    const run = rendition.run;
    if (!run || run.exited || run.paused) return;
    const made = Math.max(...run.done, -1);
    const madeUpTo = rendition.segments.findLast((s) => s.firstChunk <= made);
    const asked = rendition.segments[rendition.lastSegment];
    if (madeUpTo && asked && madeUpTo.start - asked.start > (this.o.aheadSeconds ?? 90)) {
      run.paused = run.process.kill('SIGSTOP');
    }
  }

  private resume(rendition: Rendition) {
    const run = rendition.run;
    if (run?.paused && !run.exited) {
      run.process.kill('SIGCONT');
      run.paused = false;
    }
  }

  private async stopRun(run: Run): Promise<void> {
    if (run.exited) return;
    run.stopped = true;
    // `exited` is set a moment after the close (once its last chunks are counted): a process that
    // closed in between is not waited for again (the close event does not come twice).
    if (run.paused) run.process.kill('SIGCONT');
    run.process.kill('SIGKILL');
    await run.closed;
  }

  private async stop(rendition: Rendition): Promise<void> {
    if (rendition.run) await this.stopRun(rendition.run);
  }

  private async drop(rendition: Rendition): Promise<void> {
    this.renditions.delete(rendition.key);
    void this.o.peers?.release(rendition.key);
    rendition.watcher?.close();
    await this.stop(rendition);
    this.wake(rendition);
    await rm(rendition.dir, { recursive: true, force: true });
  }

  /** Stops and removes what nobody asked for within the idle time. */
  private async sweep(): Promise<void> {
    const now = this.now();
    for (const rendition of [...this.renditions.values()]) {
      if (now - rendition.lastRequestAt > this.idleMs) await this.drop(rendition);
    }
  }
}

const keyOf = (file: ConvertibleFile, plan: HlsPlan) => `${file.id}/${planId(plan)}`;

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

function chunksOf(segment: Segment): number[] {
  return Array.from({ length: segment.chunks }, (_, i) => segment.firstChunk + i);
}

/** Whether an init segment is whole (ffmpeg writes it once, before the first chunk). */
async function isComplete(file: string): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return false;
  try {
    const { size } = await handle.stat();
    if (size < 16) return false;
    const buffer = Buffer.alloc(Math.min(size, 64 * 1024));
    await handle.read(buffer, 0, buffer.length, 0);
    let offset = 0;
    while (offset + 8 <= size) {
      const boxSize = buffer.readUInt32BE(offset);
      const type = buffer.toString('latin1', offset + 4, offset + 8);
      if (boxSize < 8) return false;
      if (type === 'moov') return offset + boxSize <= size;
      offset += boxSize;
      if (offset + 8 > buffer.length) return false;
    }
    return false;
  } finally {
    await handle.close();
  }
}

/**
 * One segment from its chunks: ffmpeg starts every chunk with `styp` (and `sidx`) boxes; the segment keeps
 * the first chunk's and only the `moof`/`mdat` pairs of the others.
 */
export function joinChunks(chunks: readonly Buffer[]): Buffer {
  if (chunks.length === 1) return chunks[0]!;
  const parts: Buffer[] = [chunks[0]!];
  for (const chunk of chunks.slice(1)) {
    let offset = 0;
    while (offset + 8 <= chunk.length) {
      const size = chunk.readUInt32BE(offset);
      const type = chunk.toString('latin1', offset + 4, offset + 8);
      if (size < 8) break;
      if (type !== 'styp' && type !== 'sidx') parts.push(chunk.subarray(offset, offset + size));
      offset += size;
    }
  }
  return Buffer.concat(parts);
}
