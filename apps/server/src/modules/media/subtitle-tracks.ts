import { execFile } from 'node:child_process';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { AppError } from '../../errors.ts';
import { subtitleArgs } from './ffmpeg.ts';

const run = promisify(execFile);

/**
 * Text subtitles inside a file (SRT, ASS/SSA, mov_text, WebVTT) and ASS/SSA files beside it, turned into
 * WebVTT once by ffmpeg and kept, so the player's own caption renderer shows them like any other; and
 * ASS/SSA as ASS scripts, for the player's styled renderer (docs/decisions/085-library-pipeline.md).
 */
export class SubtitleTracks {
  private readonly pending = new Map<string, Promise<string>>();

  constructor(private readonly o: { ffmpeg: string; workDir: string; timeoutMs?: number }) {}

  /**
   * The WebVTT file of a subtitle stream (`streamIndex`) of `input`, or of the whole subtitle file when
   * `streamIndex` is null. `key` names the result: it must change when the file changes.
   */
  async vtt(key: string, input: string, streamIndex: number | null): Promise<string> {
    return this.made(key, 'vtt', (partial) => subtitleArgs(input, streamIndex, partial, 'vtt'));
  }

  /**
   * The ASS script of an ASS/SSA stream (`streamIndex`) of `input`, or of a whole ASS/SSA file when
   * `streamIndex` is null, in UTF-8 with its own styles, for a renderer that draws them (JASSUB).
   */
  async ass(key: string, input: string, streamIndex: number | null): Promise<string> {
    return this.made(key, 'ass', (partial) => subtitleArgs(input, streamIndex, partial, 'ass'));
  }

  /** The converted file `key`.`extension`, made once by ffmpeg with `args` (writing to a partial file). */
  private async made(key: string, extension: string, args: (partial: string) => string[]): Promise<string> {
    const name = `${key.replace(/[^A-Za-z0-9_-]/g, '_')}.${extension}`;
    const output = path.join(this.o.workDir, 'subtitles', name);
    if (
      await stat(output).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return output;
    let job = this.pending.get(output);
    if (!job) {
      job = this.convert(args, output, extension).finally(() => this.pending.delete(output));
      this.pending.set(output, job);
    }
    return job;
  }

  private async convert(
    args: (partial: string) => string[],
    output: string,
    extension: string,
  ): Promise<string> {
    await mkdir(path.dirname(output), { recursive: true });
    const partial = `${output}.${process.pid}.part.${extension}`;
    try {
      await run(this.o.ffmpeg, args(partial), {
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
