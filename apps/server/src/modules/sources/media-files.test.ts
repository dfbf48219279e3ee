import { linkSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../../plugins/errors.ts';
import { parseRange, sendLibraryFile } from './media-files.ts';

// A library file is read from the file that was checked, never from what was put in its place after
// the check (docs/security.md): the request below is checked (inode recorded) and then the file is
// swapped before it is opened — the window an attacker with write access to the library raced.

const dir = mkdtempSync(path.join(tmpdir(), 'marquee-media-files-'));
const file = path.join(dir, 'movie.mp4');
const secret = path.join(dir, 'secret.txt');
let app: FastifyInstance;
/** What happens between the check and the open (the test's swap). */
let between: () => void = () => undefined;

beforeAll(async () => {
  writeFileSync(file, Buffer.alloc(1000, 7));
  writeFileSync(secret, 'root:x:0:0:root:/root:/bin/bash\n');
  app = Fastify();
  registerErrorHandling(app);
  app.get('/file', async (request, reply) => {
    const { ino } = statSync(file);
    between();
    return sendLibraryFile(request, reply, {
      path: file,
      ino,
      typeName: 'movie.mp4',
      cacheControl: 'private',
    });
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Puts `replacement` in the file's place for one request, then the file back. */
async function requestWith(replace: (kept: string) => void) {
  const kept = `${file}.kept`;
  between = () => {
    renameSync(file, kept);
    replace(kept);
  };
  try {
    return await app.inject({ url: '/file', headers: { range: 'bytes=0-99' } });
  } finally {
    between = () => undefined;
    rmSync(file, { force: true });
    renameSync(kept, file);
  }
}

describe('serving a checked library file', () => {
  it('serves the file that was checked', async () => {
    const res = await app.inject({ url: '/file', headers: { range: 'bytes=0-99' } });
    expect(res.statusCode).toBe(206);
    expect(res.rawPayload).toEqual(Buffer.alloc(100, 7));
  });

  it('refuses a link put in its place after the check', async () => {
    const res = await requestWith(() => symlinkSync(secret, file));
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('root:');
  });

  it('refuses another file (a hard link, a rename) put in its place after the check', async () => {
    const res = await requestWith(() => linkSync(secret, file));
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('root:');
  });
});

describe('byte ranges', () => {
  it('reads one range, suffix and open ranges; several ranges or other units mean the whole file', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=990-5000', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 1000)).toBeNull();
    expect(parseRange('items=0-1', 1000)).toBeNull();
    expect(parseRange('bytes=50-10', 1000)).toBeNull();
    expect(parseRange(undefined, 1000)).toBeNull();
  });
});
