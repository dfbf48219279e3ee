import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  customerPaths,
  libraryMediaOf,
  librarySegmentsPath,
  scrapeQuery,
  type LibraryStatusResponse,
  type Segment,
  type SegmentsResponse,
} from '@marquee/contract';
import { SegmentsRepository } from '../src/modules/segments/segments.repository.ts';
import { signUp, TEST_PASSWORD_COST, type Customer } from './customer-harness.ts';
import { makeSegmentsShow, type SegmentsShow, type ShowEpisode } from './segments-fixture.ts';
import { register, startSyncApp, type SignedIn, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

// Decision 111: the intro, recap and credits of library videos — from chapters, from detection on the
// library (a season's shared audio, black frames before the end) and from viewers' marks — read by
// whoever may play the video and refused as its media is. Real ffmpeg and fpcalc on a tiny show the
// fixture makes (cached between runs).

const ADMIN = 'segments-admin@example.org';
/** Small enough to reach here; each account's marks are counted apart. */
const MARKS_PER_HOUR = 12;
const TOLERANCE_S = 1.5;

let tmp: string;
let library: string;
let show: SegmentsShow;
let t: SyncTestApp;

const seasonDir = () => path.join(library, 'Breaking Bad (2008) [tmdbid-1396]', 'Season 01');
const episodeFile = (e: ShowEpisode) => path.join(seasonDir(), path.basename(e.path));
const get = (url: string, headers: Record<string, string> = {}, app = t) =>
  app.server.inject({ method: 'GET', url, headers });
const codeOf = (res: { body: string }) => (JSON.parse(res.body) as { code?: string }).code;

/** The access token and file id of an episode, as a player gets them: from the library source's stream. */
async function mediaOf(e: ShowEpisode, headers: Record<string, string> = {}, app = t) {
  const query = scrapeQuery(
    {
      type: 'show',
      title: 'Breaking Bad',
      releaseYear: 2008,
      tmdbId: '1396',
      season: { number: 1, tmdbId: '3572' },
      episode: { number: e.episode, tmdbId: '62085' },
    },
    { id: 'library', codecs: ['h264', 'aac', 'mkv', 'mp4'] },
  );
  const res = await get(`/scrape/source?${new URLSearchParams(query)}`, headers, app);
  expect(res.statusCode, res.body).toBe(200);
  const completed = /event: completed\ndata: (.*)/.exec(res.body);
  expect(completed, res.body).not.toBeNull();
  const found = libraryMediaOf(completed![1]!);
  expect(found).not.toBeNull();
  return found!;
}

const segmentsOf = async (
  m: { access: string; fileId: string },
  headers: Record<string, string> = {},
  app = t,
) => {
  const res = await get(librarySegmentsPath(m.access, m.fileId), headers, app);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SegmentsResponse;
};

/** Waits for detection of the file to end (its job runs on the queue) and answers its segments. */
async function detected(m: { access: string; fileId: string }): Promise<SegmentsResponse> {
  await expect
    .poll(async () => (await segmentsOf(m)).detection, { timeout: 150_000, interval: 200 })
    .toBe('done');
  return segmentsOf(m);
}

const segment = (answer: SegmentsResponse, type: Segment['type']) =>
  answer.segments.find((s) => s.type === type);

function expectNear(
  found: Segment | undefined,
  truth: { start: number; end: number },
  source: Segment['source'],
) {
  expect(found, JSON.stringify(truth)).toBeDefined();
  expect(found!.source).toBe(source);
  expect(Math.abs(found!.start - truth.start), `start ${found!.start} vs ${truth.start}`).toBeLessThanOrEqual(
    TOLERANCE_S,
  );
  expect(Math.abs(found!.end - truth.end), `end ${found!.end} vs ${truth.end}`).toBeLessThanOrEqual(
    TOLERANCE_S,
  );
}

const mark = (
  m: { access: string; fileId: string },
  type: string,
  who: { headers: Record<string, string> },
  body?: object,
) =>
  t.server.inject({
    method: body === undefined ? 'DELETE' : 'PUT',
    url: `${librarySegmentsPath(m.access, m.fileId)}/${type}`,
    headers: who.headers,
    ...(body === undefined ? {} : { payload: body }),
  });

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'marquee-segments-'));
  library = path.join(tmp, 'library');
  show = await makeSegmentsShow(path.join(tmpdir(), 'marquee-segments-show'));
  await mkdir(seasonDir(), { recursive: true });
  for (const e of show.episodes.slice(0, 3)) await copyFile(e.path, episodeFile(e));
  t = await startSyncApp({
    env: {
      MEDIA_LIBRARY_DIR: library,
      LIBRARY_WATCH: 'false',
      DATA_DIR: path.join(tmp, 'data'),
      TAKEDOWN_FILE: path.join(tmp, 'takedown.txt'),
      ADMIN_EMAILS: ADMIN,
    },
    deps: {
      accounts: {
        passwordCost: TEST_PASSWORD_COST,
        rateLimits: { segment_marks: { points: MARKS_PER_HOUR, durationMs: 60 * 60_000 } },
      },
    },
  });
}, 180_000);

afterAll(async () => {
  await t?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe(`segments of library videos (${testDialect})`, () => {
  let e1: { access: string; fileId: string };
  let e2: { access: string; fileId: string };
  let e3: { access: string; fileId: string };
  let alice: SignedIn;
  let bob: SignedIn;

  beforeAll(async () => {
    [e1, e2, e3] = [
      await mediaOf(show.episodes[0]!),
      await mediaOf(show.episodes[1]!),
      await mediaOf(show.episodes[2]!),
    ];
    alice = await register(t.server);
    bob = await register(t.server);
  }, 60_000);

  it('detects the intro the season’s episodes share, wherever each has it, and the credits over black', async () => {
    for (const [m, e] of [
      [e1, show.episodes[0]!],
      [e2, show.episodes[1]!],
    ] as const) {
      const answer = await detected(m);
      expect(answer.duration).toBeCloseTo(e.duration, 0);
      expectNear(segment(answer, 'intro'), e.intro, 'detected');
      expectNear(segment(answer, 'credits'), e.credits, 'detected');
      expect(answer.mine).toEqual([]);
    }
  }, 180_000);

  it('answers the chapters where the file has them, detection still running on it for the others', async () => {
    const e = show.episodes[2]!;
    const answer = await detected(e3);
    const [, intro, , credits] = e.chapters;
    expect(segment(answer, 'intro')).toEqual({
      type: 'intro',
      start: intro!.start,
      end: intro!.end,
      source: 'chapters',
    });
    expect(segment(answer, 'credits')).toEqual({
      type: 'credits',
      start: credits!.start,
      end: credits!.end,
      source: 'chapters',
    });
    // What detection found in it is kept (and helped the others): the truth, not the chapters' bounds.
    const stored = (await new SegmentsRepository(t.db.db).detections([e3.fileId])).get(e3.fileId)!;
    expect(Math.abs(stored.intro!.startMs / 1000 - e.intro.start)).toBeLessThanOrEqual(TOLERANCE_S);
    expect(Math.abs(stored.intro!.endMs / 1000 - e.intro.end)).toBeLessThanOrEqual(TOLERANCE_S);
  }, 180_000);

  it('shares viewers’ marks on the instance: the mark most agree with, below chapters and detection', async () => {
    const e = show.episodes[1]!;
    await detected(e2);
    const put = await mark(e2, 'recap', alice, { start: 1, end: 11 });
    expect(put.statusCode, put.body).toBe(200);
    expect(segment(put.json() as SegmentsResponse, 'recap')).toEqual({
      type: 'recap',
      start: 1,
      end: 11,
      source: 'viewers',
      votes: 1,
    });
    expect((put.json() as SegmentsResponse).mine).toEqual([{ type: 'recap', start: 1, end: 11 }]);
    // Another account, and a viewer signed out, see it; only its author has it as theirs.
    const forBob = await segmentsOf(e2, bob.headers);
    expect(segment(forBob, 'recap')).toMatchObject({ start: 1, end: 11, source: 'viewers' });
    expect(forBob.mine).toEqual([]);
    expect(segment(await segmentsOf(e2), 'recap')).toMatchObject({ start: 1, end: 11 });
    // Bob agrees (within 2 s), a third viewer does not: the agreed mark wins, the newest of the two.
    const carol = await register(t.server);
    t.clock.advance(1_000);
    expect((await mark(e2, 'recap', bob, { start: 1.5, end: 11.5 })).statusCode).toBe(200);
    t.clock.advance(1_000);
    expect((await mark(e2, 'recap', carol, { start: 30, end: 40 })).statusCode).toBe(200);
    expect(segment(await segmentsOf(e2), 'recap')).toEqual({
      type: 'recap',
      start: 1.5,
      end: 11.5,
      source: 'viewers',
      votes: 2,
    });
    // A mark of what detection found does not replace it; the credits end is the runtime's at most.
    expect((await mark(e2, 'intro', alice, { start: 40, end: 60 })).statusCode).toBe(200);
    expect(segment(await segmentsOf(e2), 'intro')!.source).toBe('detected');
    const preview = (
      await mark(e2, 'preview', alice, { start: e.duration - 5, end: e.duration + 0.5 })
    ).json() as SegmentsResponse;
    expect(segment(preview, 'preview')!.end).toBeCloseTo(preview.duration!, 3);
    // Taken back: the others' marks stay, and with no agreement left the newest one is answered.
    const deleted = await mark(e2, 'recap', alice);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((deleted.json() as SegmentsResponse).mine.map((m) => m.type).sort()).toEqual(['intro', 'preview']);
    expect(segment(deleted.json() as SegmentsResponse, 'recap')).toMatchObject({ start: 30, votes: 1 });
    expect((await mark(e2, 'recap', alice)).statusCode).toBe(200);
  });

  it('refuses marks that do not fit the video, with a code, and writes nothing', async () => {
    const e = show.episodes[0]!;
    const before = await segmentsOf(e1, alice.headers);
    for (const [body, code] of [
      [{ start: 10, end: 12 }, 'segment_invalid'], // shorter than 3 s
      [{ start: 20, end: 10 }, 'segment_invalid'],
      [{ start: 10, end: 10 }, 'segment_invalid'],
      [{ start: e.duration - 10, end: e.duration + 5 }, 'segment_invalid'], // past the end
      [{ start: 0, end: 400 }, 'segment_invalid'], // an intro of more than 5 minutes
      [{ start: -1, end: 10 }, 'validation_failed'],
      [{ start: '0', end: 10 }, 'validation_failed'],
      [{ start: 0 }, 'validation_failed'],
    ] as const) {
      const res = await mark(e1, 'intro', alice, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(codeOf(res), JSON.stringify(body)).toBe(code);
    }
    const wrongType = await mark(e1, 'outro', alice, { start: 0, end: 10 });
    expect([wrongType.statusCode, codeOf(wrongType)]).toEqual([400, 'validation_failed']);
    expect(await segmentsOf(e1, alice.headers)).toEqual(before);
  });

  it('lets only signed-in grown-ups mark, a few times an hour each', async () => {
    const signedOut = await mark(e1, 'recap', { headers: {} }, { start: 1, end: 11 });
    expect([signedOut.statusCode, codeOf(signedOut)]).toEqual([401, 'unauthorized']);
    // A kids' profile may watch and read segments, not mark them for everyone (decision 106).
    const parent: Customer = await signUp(t.server);
    const made = await t.server.inject({
      method: 'POST',
      url: `/customers/${parent.user.id}/profiles`,
      headers: parent.headers,
      payload: { fullname: 'Kid', icon: 'cat', kids: { region: 'US', maxAge: 18, showUnrated: true } },
    });
    expect(made.statusCode, made.body).toBe(200);
    const kid = {
      ...parent.headers,
      'x-profile-id': (made.json() as { profile: { _id: string } }).profile._id,
    };
    const refused = await mark(e1, 'recap', { headers: kid }, { start: 1, end: 11 });
    expect([refused.statusCode, codeOf(refused)]).toEqual([403, 'kids_profile']);
    expect((await get(librarySegmentsPath(e1.access, e1.fileId), kid)).statusCode).toBe(200);
    // Marks and takebacks count against the viewer's bucket.
    const dave = await register(t.server);
    for (let i = 0; i < MARKS_PER_HOUR; i++)
      expect((await mark(e1, 'recap', dave, i % 2 ? undefined : { start: 1, end: 11 })).statusCode).toBe(200);
    const limited = await mark(e1, 'recap', dave, { start: 1, end: 11 });
    expect([limited.statusCode, codeOf(limited)]).toEqual([429, 'rate_limited']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await mark(e1, 'recap', bob, { start: 1, end: 11 })).statusCode).toBe(200);
  });

  it('detects the season again when it gets a new episode, reading only that one', async () => {
    const analysed = () =>
      t.db.db
        .selectFrom('media_segment_analyses')
        .select(['file_id', 'kind', 'made_at'])
        .orderBy('file_id')
        .orderBy('kind')
        .execute();
    const groupOf = async (fileId: string) =>
      (await new SegmentsRepository(t.db.db).detections([fileId])).get(fileId)!.groupKey;
    const before = await analysed();
    const group = await groupOf(e1.fileId);
    const e4 = show.episodes[3]!;
    await copyFile(e4.path, episodeFile(e4));
    const admin = await signUp(t.server, { email: ADMIN });
    const scan = await t.server.inject({
      method: 'POST',
      url: customerPaths.adminLibraryScan,
      headers: admin.headers,
    });
    expect(scan.statusCode, scan.body).toBeLessThan(300);
    await expect
      .poll(
        async () =>
          ((await get(customerPaths.adminLibrary, admin.headers)).json() as LibraryStatusResponse).videos,
      )
      .toBe(4);
    const m4 = await mediaOf(e4);
    const answer = await detected(m4);
    expectNear(segment(answer, 'intro'), e4.intro, 'detected');
    expectNear(segment(answer, 'credits'), e4.credits, 'detected');
    await expect.poll(() => groupOf(e1.fileId)).not.toBe(group);
    expect((await detected(e1)).segments.find((s) => s.type === 'intro')!.source).toBe('detected');
    const after = await analysed();
    expect(after.filter((a) => a.file_id !== m4.fileId)).toEqual(before);
    expect(after.filter((a) => a.file_id === m4.fileId).map((a) => a.kind)).toEqual([
      'black',
      'credits-print',
      'intro-print',
    ]);
  }, 240_000);

  it('refuses whoever cannot play the video exactly as its media is refused', async () => {
    const erin = await register(t.server);
    const both = async (access: string, fileId: string) => {
      const segments = await get(librarySegmentsPath(access, fileId));
      const media = await get(`/api/sources/library/${access}/${fileId}/video.mkv`);
      const put = await mark({ access, fileId }, 'recap', erin, { start: 1, end: 11 });
      return {
        segments: [segments.statusCode, codeOf(segments)],
        media: [media.statusCode, codeOf(media)],
        put: [put.statusCode, codeOf(put)],
      };
    };
    const same = (status: number, code: string) => ({
      segments: [status, code],
      media: [status, code],
      put: [status, code],
    });
    // Another file's token, a made-up one, a token changed to another viewer.
    expect(await both(e1.access, e2.fileId)).toEqual(same(403, 'media_url_invalid'));
    expect(await both('garbage', e2.fileId)).toEqual(same(403, 'media_url_invalid'));
    const [expiry, title, , signature] = e2.access.split('.');
    expect(await both(`${expiry}.${title}.${alice.user.id}.${signature}`, e2.fileId)).toEqual(
      same(403, 'media_url_invalid'),
    );
    // Taken down since the token was handed out.
    await writeFile(path.join(tmp, 'takedown.txt'), 'tv-1396\n');
    expect(await both(e2.access, e2.fileId)).toEqual(same(451, 'media_removed'));
    await writeFile(path.join(tmp, 'takedown.txt'), '# nothing\n');
    expect((await get(librarySegmentsPath(e2.access, e2.fileId))).statusCode).toBe(200);
    // Expired (the player asks the scrape API for a new one).
    t.clock.advance(5 * 60 * 60_000);
    expect(await both(e2.access, e2.fileId)).toEqual(same(403, 'media_url_expired'));
  });
});

describe(`segments on a subscription site (${testDialect})`, () => {
  let site: SyncTestApp;
  let member: Customer;
  let other: Customer;
  let endsAt: number;
  const on = (method: 'GET' | 'PUT', url: string, headers: Record<string, string> = {}, payload?: object) =>
    site.server.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    site = await startSyncApp({
      env: {
        VARIANT: 'subscription',
        ALLOW_SIMULATED_PAYMENTS: 'true',
        AUTH_METHODS: 'email,passphrase',
        MEDIA_LIBRARY_DIR: library,
        LIBRARY_WATCH: 'false',
        DATA_DIR: path.join(tmp, 'site-data'),
        // This server cannot detect: the chapters still answer.
        FPCALC_PATH: path.join(tmp, 'no-fpcalc'),
      },
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
    });
    member = await signUp(site.server);
    other = await signUp(site.server);
    const request = await site.server.inject({
      method: 'POST',
      url: `/customers/${member.user.id}/suscription`,
      headers: member.headers,
      payload: { planId: 2, criptoName: 'BTC', code: null },
    });
    const paid = await site.server.inject({
      method: 'POST',
      url: `/api/payments/${request.json().payment.id}/simulate-paid`,
      headers: member.headers,
    });
    endsAt = Date.parse(paid.json().membership.endSubcriptionDate);
  }, 60_000);
  afterAll(async () => site?.close());

  it('gives a member the chapters (detection is off here), refuses a lapsed membership as the media does', async () => {
    const e = show.episodes[2]!;
    const m = await mediaOf(e, member.headers, site);
    const answer = await segmentsOf(m, member.headers, site);
    expect(answer.detection).toBe('off');
    expect(answer.segments.map((s) => [s.type, s.source])).toEqual([
      ['intro', 'chapters'],
      ['credits', 'chapters'],
    ]);
    // Someone else's link is not theirs to mark with, though it plays (it is a bearer link).
    const foreign = await on('PUT', `${librarySegmentsPath(m.access, m.fileId)}/recap`, other.headers, {
      start: 1,
      end: 11,
    });
    expect([foreign.statusCode, codeOf(foreign)]).toEqual([403, 'media_url_invalid']);
    expect(
      (
        await on('PUT', `${librarySegmentsPath(m.access, m.fileId)}/recap`, member.headers, {
          start: 1,
          end: 11,
        })
      ).statusCode,
    ).toBe(200);
    // The membership ends while the token is still valid: both answer 402 at once.
    site.clock.advance(15 * 24 * 60 * 60_000);
    expect((await on('GET', '/customers', member.headers)).statusCode).toBe(200);
    site.clock.ms = endsAt - 60 * 60_000;
    const fresh = await mediaOf(e, member.headers, site);
    site.clock.advance(2 * 60 * 60_000);
    const segments = await on('GET', librarySegmentsPath(fresh.access, fresh.fileId));
    const media = await on('GET', `/api/sources/library/${fresh.access}/${fresh.fileId}/video.mkv`);
    expect([segments.statusCode, codeOf(segments)]).toEqual([402, 'membership_required']);
    expect([media.statusCode, codeOf(media)]).toEqual([402, 'membership_required']);
  }, 120_000);
});
