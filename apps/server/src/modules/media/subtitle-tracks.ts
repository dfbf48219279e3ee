import { execFile } from 'node:child_process';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { AppError } from '../../errors.ts';
import { subtitleArgs } from './ffmpeg.ts';

const run = promisify(execFile);

/**
 * Text subtitles inside a file (SRT, ASS/SSA, mov_text, WebVTT) and ASS/SSA files beside it, turned into
 * WebVTT once by ffmpeg and kept, so the player's own caption renderer shows them like any other.
 */
export class SubtitleTracks {
  private readonly pending = new Map<string, Promise<string>>();

  constructor(private readonly o: { ffmpeg: string; workDir: string; timeoutMs?: number }) {}

  /**
   * The WebVTT file of a subtitle stream (`streamIndex`) of `input`, or of the whole subtitle file when
   * `streamIndex` is null. `key` names the result: it must change when the file changes.
   */
  async vtt(key: string, input: string, streamIndex: number | null): Promise<string> {
    const output = path.join(this.o.workDir, 'subtitles', `${key.replace(/[^A-Za-z0-9_-]/g, '_')}.vtt`);
    if (
      await stat(output).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return output;
    let job = this.pending.get(output);
    if (!job) {
      job = this.convert(input, streamIndex, output).finally(() => this.pending.delete(output));
      this.pending.set(output, job);
    }
    return job;
  }

  private async convert(input: string, streamIndex: number | null, output: string): Promise<string> {
    await mkdir(path.dirname(output), { recursive: true });
    const partial = `${output}.${process.pid}.part.vtt`;
    try {
      await run(this.o.ffmpeg, subtitleArgs(input, streamIndex, partial), {
        timeout: this.o.timeoutMs ?? 5 * 60_000,
        killSignal: 'SIGKILL',
        maxBuffer: 1024 * 1024,
      });
      await rename(partial, output);
      return output;
    } catch (error) {
      await rm(partial, { force: true });
      throw new AppError(502, 'conversion_failed', 'The subtitles of this file could not be read', {
        cause: error,
      });
    }
  }
}
