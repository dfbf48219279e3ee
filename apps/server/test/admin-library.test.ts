import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LibraryStatusResponse, SelfTestResponse } from '@marquee/contract';
import { SAMPLES_DIR } from '../src/paths.ts';
import { signUp, TEST_PASSWORD_COST, type Customer } from './customer-harness.ts';
import { startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

// Decision 085: the admin page's media library section — the scanner's status and "Scan now" — and what the
// self-test says about ffmpeg/ffprobe.

const tmp = mkdtempSync(path.join(tmpdir(), 'marquee-admin-library-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const library = path.join(tmp, 'library');
const put = (relative: string, content?: string) => {
  const full = path.join(library, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  if (content === undefined) copyFileSync(path.join(SAMPLES_DIR, 'mp4', 'sample-360p.mp4'), full);
  else writeFileSync(full, content);
};
put('Movies/The Matrix (1999) [tmdbid-603].mp4');
put('Movies/The Matrix (1999) [tmdbid-603].en.srt', '1\n00:00:01,000 --> 00:00:02,000\nWake up, Neo\n');
put('TV/Breaking Bad (2008) [tmdbid-1396]/Season 01/Breaking Bad S01E01.mp4');
put('TV/Breaking Bad (2008) [tmdbid-1396]/Season 01/Breaking Bad S01E02.avi', 'not a video\n');

const ADMIN = 'ops@example.org';
const env = {
  VARIANT: 'subscription',
  ALLOW_SIMULATED_PAYMENTS: 'true',
  AUTH_METHODS: 'email',
  ADMIN_EMAILS: ADMIN,
  LIBRARY_WATCH: 'false',
};
const deps = { accounts: { rateLimits: false as const, passwordCost: TEST_PASSWORD_COST } };
const selfTestCheck = (report: SelfTestResponse, id: string) => report.checks.find((c) => c.id === id)!;

describe(`admin: the media library (${testDialect})`, () => {
  let t: SyncTestApp;
  let admin: Customer;
  const status = async () => {
    const res = await t.server.inject({ method: 'GET', url: '/api/admin/library', headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as LibraryStatusResponse;
  };
  beforeAll(async () => {
    t = await startSyncApp({ env: { ...env, MEDIA_LIBRARY_DIR: library }, deps });
    admin = await signUp(t.server, { email: ADMIN });
  });
  afterAll(async () => t.close());

  it('shows the scan the server started when it became ready: counts, times, what ffprobe skipped', async () => {
    await vi.waitFor(async () => expect((await status()).finishedAt).not.toBeNull(), { timeout: 15_000 });
    const s = await status();
    expect(s).toMatchObject({
      configured: true,
      scanning: false,
      videos: 2,
      movies: 1,
      shows: 1,
      subtitles: 1,
      checked: 4,
      probing: true,
      watching: false,
      skippedCount: 1,
      skipped: [
        {
          path: path.join(library, 'TV/Breaking Bad (2008) [tmdbid-1396]/Season 01/Breaking Bad S01E02.avi'),
          reason: 'not_video',
          detail: 'Invalid data found when processing input',
        },
      ],
    });
    expect(Date.parse(s.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(s.startedAt!));
    expect(s.lastDurationMs).toBeGreaterThanOrEqual(0);
  });

  it('scans now on request (202), once however often it is asked, and probes nothing unchanged', async () => {
    put('Movies/Inception (2010) [tmdbid-27205].mp4');
    const res = await t.server.inject({
      method: 'POST',
      url: '/api/admin/library/scan',
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(202);
    const again = await t.server.inject({
      method: 'POST',
      url: '/api/admin/library/scan',
      headers: admin.headers,
    });
    expect(again.statusCode).toBe(202);
    // The test clock stands still: the new file tells the scans apart.
    await vi.waitFor(async () => expect(await status()).toMatchObject({ scanning: false, videos: 3 }), {
      timeout: 15_000,
    });
    expect(await status()).toMatchObject({ videos: 3, movies: 2, checked: 5, probed: 1 });
  });

  it('is for admins only: 401 anonymous, 403 others', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/library'],
      ['POST', '/api/admin/library/scan'],
    ] as const) {
      expect((await t.server.inject({ method, url })).statusCode).toBe(401);
      const viewer = await signUp(t.server);
      const refused = await t.server.inject({ method, url, headers: viewer.headers });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('forbidden');
    }
  });

  it('says in the self-test that ffprobe and ffmpeg run and what they add', async () => {
    const res = await t.server.inject({ method: 'GET', url: '/api/admin/self-test', headers: admin.headers });
    const report = res.json() as SelfTestResponse;
    expect(selfTestCheck(report, 'ffmpeg')).toMatchObject({
      status: 'pass',
      reason: expect.stringMatching(
        /^ffprobe version .*; ffmpeg version .*every container ffmpeg reads is indexed/,
      ),
    });
    expect(report.config).toMatchObject({
      ffprobePath: 'ffprobe',
      ffmpegPath: 'ffmpeg',
      libraryWatch: false,
    });
  });
});

describe(`admin: without a media library, or without ffmpeg (${testDialect})`, () => {
  it('answers an empty status and starts nothing', async () => {
    const t = await startSyncApp({ env, deps });
    try {
      const admin = await signUp(t.server, { email: ADMIN });
      const res = await t.server.inject({
        method: 'POST',
        url: '/api/admin/library/scan',
        headers: admin.headers,
      });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toMatchObject({ configured: false, scanning: false, videos: 0, startedAt: null });
      const report = (
        await t.server.inject({ method: 'GET', url: '/api/admin/self-test', headers: admin.headers })
      ).json() as SelfTestResponse;
      expect(selfTestCheck(report, 'ffmpeg').status).toBe('pass');
    } finally {
      await t.close();
    }
  });

  it('fails the self-test check when the library has no ffprobe/ffmpeg (skips it without a library)', async () => {
    const missing = { FFPROBE_PATH: path.join(tmp, 'no-ffprobe'), FFMPEG_PATH: path.join(tmp, 'no-ffmpeg') };
    for (const withLibrary of [true, false]) {
      const t = await startSyncApp({
        env: { ...env, ...missing, ...(withLibrary ? { MEDIA_LIBRARY_DIR: library } : {}) },
        deps,
      });
      try {
        const admin = await signUp(t.server, { email: ADMIN });
        const report = (
          await t.server.inject({ method: 'GET', url: '/api/admin/self-test', headers: admin.headers })
        ).json() as SelfTestResponse;
        expect(selfTestCheck(report, 'ffmpeg')).toMatchObject({
          status: withLibrary ? 'fail' : 'skip',
          reason: expect.stringMatching(/ffprobe not found .*only MP4 and Matroska files are indexed/),
        });
        if (withLibrary) {
          // Without ffprobe the library still works, by the files' first bytes.
          await vi.waitFor(async () => {
            const res = await t.server.inject({
              method: 'GET',
              url: '/api/admin/library',
              headers: admin.headers,
            });
            expect(res.json()).toMatchObject({ probing: false, scanning: false, videos: 3 });
          });
        }
      } finally {
        await t.close();
      }
    }
  });
});
