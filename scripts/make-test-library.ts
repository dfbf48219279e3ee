/**
 * Makes the small test media library (apps/server/test/media-library-fixture.ts) in a folder: ten short
 * files in the containers and codecs people keep, named the Jellyfin way after catalog titles. For
 * operators trying a library source, and for the e2e suite. Needs ffmpeg (FFMPEG_PATH to pick one).
 *
 *   node --import tsx scripts/make-test-library.ts <dir> [--duration <seconds>]
 *
 * Keep the folder out of git (a temp dir, or `.tmp/…`). Running it again on a complete library of the same
 * version and duration returns at once.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makeTestMediaLibrary } from '../apps/server/test/media-library-fixture.ts';

const USAGE = 'usage: node --import tsx scripts/make-test-library.ts <dir> [--duration <seconds>]';

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { duration: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  const durationSeconds = values.duration === undefined ? undefined : Number(values.duration);
  if (durationSeconds !== undefined && !Number.isFinite(durationSeconds)) {
    console.error(`--duration must be a number of seconds\n${USAGE}`);
    return 2;
  }

  const started = performance.now();
  const library = await makeTestMediaLibrary(positionals[0]!, { durationSeconds });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  let bytes = 0;
  for (const entry of library.entries) {
    const size = (await stat(entry.path)).size;
    bytes += size;
    const streams = [entry.expects.videoCodec, ...entry.expects.audioCodecs, ...entry.expects.subtitleCodecs];
    console.log(
      `${entry.key.padEnd(22)} ${(size / 1024).toFixed(0).padStart(5)} kB  ${streams.join('+').padEnd(34)} ` +
        path.relative(library.dir, entry.path),
    );
  }
  console.log(
    `${library.entries.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MB in ${library.dir} (${seconds} s)`,
  );
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  },
);
