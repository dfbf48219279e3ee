import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Times (seconds) of the keyframes of a file's first video stream, read from packet flags: ffprobe only
 * demuxes (no decoding), about a second per few GB. A copied video's HLS segments start on them.
 */
export async function readKeyframes(ffprobe: string, file: string, timeoutMs = 120_000): Promise<number[]> {
  const { stdout } = await run(
    ffprobe,
    [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'packet=pts_time,dts_time,flags',
      '-of',
      'csv=p=0',
      file,
    ],
    { timeout: timeoutMs, maxBuffer: 512 * 1024 * 1024, killSignal: 'SIGKILL' },
  );
  const times: number[] = [];
  for (const line of stdout.split('\n')) {
    const [pts, dts, flags] = line.split(',');
    if (!flags?.includes('K')) continue;
    const time = Number(pts !== 'N/A' && pts ? pts : dts);
    if (Number.isFinite(time)) times.push(time);
  }
  times.sort((a, b) => a - b);
  // Duplicate timestamps (broken muxes) would make empty segments.
  return times.filter((t, i) => i === 0 || t - times[i - 1]! > 0.01);
}
