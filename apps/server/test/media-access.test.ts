import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiErrorBody,
  mediaUrlExpiry,
  scrapeQuery,
  type ScrapeAllEventData,
  type ScrapeMediaParams,
} from '@marquee/contract';
import { SAMPLES_DIR } from '../src/paths.ts';
import { MEDIA_URL_TTL_MS } from '../src/modules/sources/sources.module.ts';
import { signUp, TEST_PASSWORD_COST, type Customer } from './customer-harness.ts';
import { startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

// Decision 071: sample and library URLs carry a signed, expiring access token, checked on every request;
// on the subscription site the viewer's membership is checked on every request too; the library serves
// only media files whose real path stays inside its folders.

const tmp = mkdtempSync(path.join(tmpdir(), 'marquee-media-access-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sampleMp4 = path.join(SAMPLES_DIR, 'mp4', 'sample-360p.mp4');
const sampleBytes = readFileSync(sampleMp4);
const library = path.join(tmp, 'library');
const outside = path.join(tmp, 'outside');
const put = (full: string, content?: string) => {
  mkdirSync(path.dirname(full), { recursive: true });
  if (content === undefined) copyFileSync(sampleMp4, full);
  else writeFileSync(full, content);
  return full;
};
const inLibrary = (relative: string, content?: string) => put(path.join(library, relative), content);

inLibrary('Movies/The Matrix (1999) [tmdbid-603].mp4');
inLibrary('Movies/The Matrix (1999) [tmdbid-603].en.srt', '1\n00:00:01,000 --> 00:00:02,000\nWake up, Neo\n');
inLibrary('Movies/Inception (2010) [tmdbid-27205].mp4');
const show = 'TV/Breaking Bad (2008) [tmdbid-1396]/Season 01';
inLibrary(`${show}/Breaking Bad S01E01.mp4`);
// The probe's findings: a symlink named like an episode pointing at /etc/passwd, a text file named like
// one, and a real video outside the library linked in. A link to a file inside the library is fine.
symlinkSync('/etc/passwd', path.join(library, show, 'Breaking Bad S01E02.mp4'));
inLibrary(`${show}/x S01E03.mp4`, 'root:x:0:0:root:/root:/bin/bash\n');
put(path.join(outside, 'Breaking Bad S01E04.mp4'));
symlinkSync(
  path.join(outside, 'Breaking Bad S01E04.mp4'),
  path.join(library, show, 'Breaking Bad S01E04.mp4'),
);
inLibrary('.store/episode-5');
symlinkSync(path.join(library, '.store/episode-5'), path.join(library, show, 'Breaking Bad S01E05.mp4'));

const matrix: ScrapeMediaParams = { type: 'movie', title: 'The Matrix', releaseYear: 1999, tmdbId: '603' };
const inception: ScrapeMediaParams = {
  type: 'movie',
  title: 'Inception',
  releaseYear: 2010,
  tmdbId: '27205',
};
/** A released title the metadata (the embedded catalog) has, not in the library: the sample plays it. */
const nowhere: ScrapeMediaParams = {
  type: 'movie',
  title: 'Forrest Gump',
  releaseYear: 1994,
  tmdbId: '13',
};
const episode = (number: number): ScrapeMediaParams => ({
  type: 'show',
  title: 'Breaking Bad',
  releaseYear: 2008,
  tmdbId: '1396',
  season: { number: 1, tmdbId: '3572' },
  episode: { number, tmdbId: `6208${number}` },
});

type Output = ScrapeAllEventData['completed'];

/** The `completed` output of a full scrape (or the error status when the scrape is refused). */
async function scrape(t: SyncTestApp, media: ScrapeMediaParams, headers: Record<string, string> = {}) {
  const res = await t.server.inject({
    method: 'GET',
    url: `/scrape?${new URLSearchParams(scrapeQuery(media))}`,
    headers,
  });
  if (res.statusCode !== 200) return { status: res.statusCode, output: null };
  const block = res.body.split('\n\n').find((b) => b.includes('\nevent: completed\n'));
  const data = block?.split('\n').find((l) => l.startsWith('data: '));
  return { status: 200, output: data ? (JSON.parse(data.slice(6)) as Output) : null };
}

/** The path (with its access token) of the file a scrape found, and of its first caption. */
function fileOf(output: Output | null): { video: string; caption: string | null; sourceId: string } {
  if (!output || output.stream.type !== 'file')
    throw new Error(`expected a file stream, got ${JSON.stringify(output)}`);
  const file = Object.values(output.stream.qualities)[0]!;
  const caption = output.stream.captions[0]?.url ?? null;
  return {
    video: new URL(file.url).pathname,
    caption: caption === null ? null : new URL(caption).pathname,
    sourceId: output.sourceId,
  };
}

/** The signed sample folder's path from a sample HLS stream. */
function samplePrefix(output: Output | null): string {
  if (!output || output.stream.type !== 'hls') throw new Error('expected the sample HLS stream');
  return new URL(output.stream.playlist).pathname.replace(/\/hls\/master\.m3u8$/, '');
}

const get = (t: SyncTestApp, url: string, headers: Record<string, string> = {}) =>
  t.server.inject({ method: 'GET', url, headers });
const codeOf = (res: { body: string }) => ApiErrorBody.parse(JSON.parse(res.body)).code;

/** `/api/sources/library/<access>/<id>/<name>` → its parts. */
function parts(libraryPath: string) {
  const [, , , , access, fileId, name] = libraryPath.split('/') as string[];
  return { access: access!, fileId: fileId!, name: name! };
}
const libraryPath = (p: { access: string; fileId: string; name: string }) =>
  `/api/sources/library/${p.access}/${p.fileId}/${p.name}`;

describe(`signed media URLs on an open instance (${testDialect})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({ env: { MEDIA_LIBRARY_DIR: library } });
  });
  afterAll(async () => t.close());

  it('serves a library file by its signed URL with range requests, each one checked', async () => {
    const { video, caption } = fileOf((await scrape(t, matrix)).output);
    for (const [from, to] of [
      [0, 1023],
      [50_000, 60_000],
      [sampleBytes.length - 100, sampleBytes.length - 1],
    ] as const) {
      const res = await get(t, video, { range: `bytes=${from}-${to}` });
      expect(res.statusCode).toBe(206);
      expect(res.headers['content-type']).toBe('video/mp4');
      expect(res.headers['content-range']).toBe(`bytes ${from}-${to}/${sampleBytes.length}`);
      expect(res.rawPayload.equals(sampleBytes.subarray(from, to + 1))).toBe(true);
    }
    const head = await t.server.inject({ method: 'HEAD', url: video });
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toBe('private, max-age=3600');
    expect((await get(t, caption!)).body).toContain('Wake up, Neo');
  });

  it('answers conditional and odd range requests of a library file as HTTP says', async () => {
    const { video } = fileOf((await scrape(t, matrix)).output);
    const size = sampleBytes.length;
    const whole = await get(t, video);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(sampleBytes)).toBe(true);
    const etag = String(whole.headers.etag);
    expect((await get(t, video, { 'if-none-match': etag })).statusCode).toBe(304);
    const suffix = await get(t, video, { range: 'bytes=-100' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.headers['content-range']).toBe(`bytes ${size - 100}-${size - 1}/${size}`);
    const open = await get(t, video, { range: `bytes=${size - 10}-` });
    expect(open.rawPayload.equals(sampleBytes.subarray(size - 10))).toBe(true);
    const beyond = await get(t, video, { range: `bytes=${size}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${size}`);
    // A range for another version of the file (If-Range) gets the whole file.
    expect((await get(t, video, { range: 'bytes=0-9', 'if-range': 'W/"other"' })).statusCode).toBe(200);
    expect((await get(t, video, { range: 'bytes=0-9', 'if-range': etag })).statusCode).toBe(206);
  });

  it('refuses a library URL without a valid signature: none, tampered, for another file, or another viewer', async () => {
    const { video, caption } = fileOf((await scrape(t, matrix)).output);
    const p = parts(video);
    const [expiry, title, viewer, signature] = p.access.split('.') as [string, string, string, string];
    const other = parts(fileOf((await scrape(t, inception)).output).video);
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const refused = [
      libraryPath({ ...p, access: 'x' }),
      libraryPath({ ...p, access: `${expiry}.${title}.${viewer}.${flipped}` }),
      // Longer life, another title, another viewer: the signature no longer matches.
      libraryPath({
        ...p,
        access: `${(parseInt(expiry, 36) + 86_400).toString(36)}.${title}.${viewer}.${signature}`,
      }),
      libraryPath({ ...p, access: `${expiry}.m27205.${viewer}.${signature}` }),
      libraryPath({ ...p, access: `${expiry}.${title}.someoneelse1.${signature}` }),
      // One file's token does not open another (the subtitle, the other movie).
      libraryPath({ ...parts(caption!), access: p.access }),
      libraryPath({ ...other, access: p.access }),
    ];
    for (const url of refused) {
      const res = await get(t, url, { range: 'bytes=0-99' });
      expect(res.statusCode, url).toBe(403);
      expect(codeOf(res), url).toBe('media_url_invalid');
    }
    // The path alone (as the probe computed it from the file name) is no route at all.
    const bare = await get(t, `/api/sources/library/${p.fileId}/${p.name}`);
    expect(bare.statusCode).toBe(404);
    expect(bare.body).not.toContain('ftyp');
  });

  it('signs the sample folder as a prefix: the playlist, its segments and captions, until the URL expires', async () => {
    const prefix = samplePrefix((await scrape(t, nowhere)).output);
    const master = await get(t, `${prefix}/hls/master.m3u8`);
    expect(master.statusCode).toBe(200);
    const ladder = master.body.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(ladder).toEqual(['360p.m3u8', '480p.m3u8', '720p.m3u8']);
    const media = await get(t, `${prefix}/hls/${ladder[0]}`);
    const segment = media.body.split('\n').find((l) => l.endsWith('.ts'))!;
    expect((await get(t, `${prefix}/hls/${segment}`)).statusCode).toBe(200);
    expect((await get(t, `${prefix}/captions/sample.en.vtt`)).statusCode).toBe(200);
    // Unsigned (the old public path) or with another token: refused.
    const signature = prefix.slice(prefix.lastIndexOf('.') + 1);
    const tampered = `${prefix.slice(0, prefix.lastIndexOf('.') + 1)}${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    for (const url of ['/api/sources/sample/hls/master.m3u8', `${tampered}/hls/master.m3u8`]) {
      const res = await get(t, url);
      expect(res.statusCode, url).toBe(403);
      expect(codeOf(res)).toBe('media_url_invalid');
    }
    t.clock.advance(MEDIA_URL_TTL_MS);
    for (const url of [`${prefix}/hls/master.m3u8`, `${prefix}/hls/${segment}`]) {
      const res = await get(t, url);
      expect(res.statusCode, url).toBe(403);
      expect(codeOf(res)).toBe('media_url_expired');
    }
  });

  it('refuses an expired library URL, range requests included, and a fresh scrape gives one that works', async () => {
    const { video } = fileOf((await scrape(t, matrix)).output);
    expect(mediaUrlExpiry(`http://x${video}`)).toBe(t.clock.ms + MEDIA_URL_TTL_MS);
    t.clock.advance(MEDIA_URL_TTL_MS - 1000);
    expect((await get(t, video, { range: 'bytes=0-9' })).statusCode).toBe(206);
    t.clock.advance(1000);
    const expired = await get(t, video, { range: 'bytes=0-9' });
    expect(expired.statusCode).toBe(403);
    expect(codeOf(expired)).toBe('media_url_expired');
    const renewed = fileOf((await scrape(t, matrix)).output).video;
    expect((await get(t, renewed, { range: 'bytes=0-9' })).statusCode).toBe(206);
  });

  it('never indexes a link leading outside the library or a text file named like an episode', async () => {
    expect(fileOf((await scrape(t, episode(1))).output).sourceId).toBe('library');
    // A link inside the library resolves to a file inside it: served.
    const linked = fileOf((await scrape(t, episode(5))).output);
    expect(linked.sourceId).toBe('library');
    expect(
      (await get(t, linked.video, { range: 'bytes=0-3' })).rawPayload.equals(sampleBytes.subarray(0, 4)),
    ).toBe(true);
    // /etc/passwd behind an episode name, a text file, a video outside: not in the library (the sample plays).
    for (const number of [2, 3, 4]) {
      const { output } = await scrape(t, episode(number));
      expect(output?.sourceId, `episode ${number}`).toBe('sample');
      expect(JSON.stringify(output)).not.toContain('/api/sources/library/');
    }
  });
});

describe(`media behind the membership (${testDialect})`, () => {
  let t: SyncTestApp;
  let member: Customer;
  let viewer: Customer;
  let admin: Customer;
  let endsAt: number;
  beforeAll(async () => {
    t = await startSyncApp({
      env: {
        VARIANT: 'subscription',
        ALLOW_SIMULATED_PAYMENTS: 'true',
        AUTH_METHODS: 'email,passphrase',
        FREE_MOVIE_TMDB_ID: '603',
        ADMIN_EMAILS: 'root@example.org',
        MEDIA_LIBRARY_DIR: library,
      },
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
    });
    member = await signUp(t.server);
    viewer = await signUp(t.server);
    admin = await signUp(t.server, { email: 'root@example.org' });
    const sub = await t.server.inject({
      method: 'POST',
      url: `/customers/${member.user.id}/suscription`,
      headers: member.headers,
      payload: { planId: 2, criptoName: 'BTC', code: null },
    });
    const paid = await t.server.inject({
      method: 'POST',
      url: `/api/payments/${sub.json().payment.id}/simulate-paid`,
      headers: member.headers,
    });
    endsAt = Date.parse(paid.json().membership.endSubcriptionDate);
  });
  afterAll(async () => t.close());

  it('binds a member’s URLs to the member: they play, and changed to another viewer they do not', async () => {
    const { video } = fileOf((await scrape(t, inception, member.headers)).output);
    const p = parts(video);
    expect(p.access.split('.')[2]).toBe(member.user.id);
    expect((await get(t, video, { range: 'bytes=0-99' })).statusCode).toBe(206);
    const [expiry, title, , signature] = p.access.split('.');
    for (const other of [viewer.user.id, admin.user.id, '~']) {
      const res = await get(t, libraryPath({ ...p, access: `${expiry}.${title}.${other}.${signature}` }));
      expect(res.statusCode, other).toBe(403);
      expect(codeOf(res)).toBe('media_url_invalid');
    }
    // Non-members get no URL at all for this title (the scrape gate, decision 041).
    expect((await scrape(t, inception, viewer.headers)).status).toBe(402);
    expect((await scrape(t, inception)).status).toBe(401);
  });

  it('opens the free movie to anyone, signed in or not', async () => {
    const { video } = fileOf((await scrape(t, matrix)).output);
    expect(parts(video).access.split('.')[2]).toBe('~');
    expect((await get(t, video, { range: 'bytes=0-99' })).statusCode).toBe(206);
  });

  it('lets admins play without a membership', async () => {
    const { video } = fileOf((await scrape(t, inception, admin.headers)).output);
    expect(parts(video).access.split('.')[2]).toBe(admin.user.id);
    expect((await get(t, video, { range: 'bytes=0-99' })).statusCode).toBe(206);
  });

  it('refuses a member’s still-valid URLs as soon as the membership ends (402), the sample’s too', async () => {
    // Keep the session alive (21 days without use), then stand an hour before the membership ends.
    t.clock.advance(15 * 24 * 60 * 60_000);
    expect((await get(t, '/customers', member.headers)).statusCode).toBe(200);
    t.clock.ms = endsAt - 60 * 60_000;
    const { video } = fileOf((await scrape(t, inception, member.headers)).output);
    const sample = samplePrefix((await scrape(t, nowhere, member.headers)).output);
    expect((await get(t, video, { range: 'bytes=0-99' })).statusCode).toBe(206);
    expect((await get(t, `${sample}/hls/master.m3u8`)).statusCode).toBe(200);

    t.clock.advance(2 * 60 * 60_000);
    expect(mediaUrlExpiry(`http://x${video}`)).toBeGreaterThan(t.clock.ms);
    for (const url of [video, `${sample}/hls/master.m3u8`, `${sample}/hls/360p/seg-0.ts`]) {
      const res = await get(t, url, { range: 'bytes=0-99' });
      expect(res.statusCode, url).toBe(402);
      expect(codeOf(res)).toBe('membership_required');
    }
    // The free movie's URLs keep working for anyone.
    const free = fileOf((await scrape(t, matrix)).output).video;
    expect((await get(t, free, { range: 'bytes=0-99' })).statusCode).toBe(206);
  });
});
