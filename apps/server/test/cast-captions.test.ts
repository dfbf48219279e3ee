import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAST_CAPTION_MAX_BYTES,
  CAST_CAPTION_TTL_MS,
  castPaths,
  type CastCaptionHosted,
} from '@marquee/contract';
import { startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { createTestDatabase, testDialect, testRedisUrl } from './test-database.ts';

/* The caption relay for casting (decision 113): upload as WebVTT, read back by a Chromecast's receiver. */

const VTT = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello, <i>world</i> — ça va ?\n';
const codeOf = (res: { statusCode: number; body: string }) =>
  `${res.statusCode} ${(JSON.parse(res.body) as { code?: string }).code ?? ''}`.trim();

const upload = (t: SyncTestApp, body: unknown, headers: Record<string, string> = {}) =>
  t.server.inject({ method: 'POST', url: castPaths.captions, payload: body as object, headers });
const read = (t: SyncTestApp, url: string) => t.server.inject({ method: 'GET', url: new URL(url).pathname });

/** A WebVTT text of at least `bytes` UTF-8 bytes. */
function vttOf(bytes: number): string {
  const cue = (i: number) => `\n${i}\n00:00:01.000 --> 00:00:02.000\n${'é'.repeat(200)}\n`;
  const parts = ['WEBVTT\n'];
  for (let i = 0, size = 7; size < bytes; i++) {
    parts.push(cue(i));
    size += Buffer.byteLength(parts[parts.length - 1]!);
  }
  return parts.join('');
}

describe(`the caption relay for casting (${testDialect})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({ env: { PUBLIC_URL: 'https://watch.example/' } });
  });
  afterAll(async () => t.close());

  it('answers an absolute, unguessable URL that gives the same WebVTT back to any origin', async () => {
    const res = await upload(t, { vtt: VTT });
    expect(res.statusCode, res.body).toBe(200);
    const hosted = res.json() as CastCaptionHosted;
    expect(hosted.url).toMatch(/^https:\/\/watch\.example\/api\/cast\/captions\/[A-Za-z0-9_-]{22}$/);
    expect(hosted.expiresAt).toBe(t.clock.ms + CAST_CAPTION_TTL_MS);
    expect(res.headers['cache-control']).toBe('no-store');

    const caption = await read(t, hosted.url);
    expect(caption.statusCode).toBe(200);
    expect(caption.body).toBe(VTT);
    expect(caption.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(caption.headers['access-control-allow-origin']).toBe('*');
    expect(caption.headers['cache-control']).toBe(`private, max-age=${CAST_CAPTION_TTL_MS / 1000}`);
    // Another upload of the same text is another caption.
    const again = (await upload(t, { vtt: VTT })).json() as CastCaptionHosted;
    expect(again.url).not.toBe(hosted.url);
  });

  it('refuses what is not WebVTT, or no caption at all, with 400 validation_failed', async () => {
    for (const body of [
      { vtt: '1\n00:00:01,000 --> 00:00:02,000\nAn SRT\n' },
      { vtt: 'WEBVTTX\n' },
      { vtt: '' },
      { vtt: 42 },
      { text: VTT },
      [VTT],
    ])
      expect(codeOf(await upload(t, body)), JSON.stringify(body)).toBe('400 validation_failed');
    const bom = await upload(t, { vtt: `\uFEFFWEBVTT - with a header\r\n\r\n` });
    expect(bom.statusCode, bom.body).toBe(200);
  });

  it('refuses a caption over its size with 413 payload_too_large, and a body over its own bound too', async () => {
    const justFits = vttOf(CAST_CAPTION_MAX_BYTES - 300);
    expect((await upload(t, { vtt: justFits })).statusCode).toBe(200);
    // Over the caption's bound, within the route's body limit (JSON escapes are counted there).
    expect(codeOf(await upload(t, { vtt: vttOf(CAST_CAPTION_MAX_BYTES + 1) }))).toBe('413 payload_too_large');
    expect(codeOf(await upload(t, { vtt: vttOf(3 * CAST_CAPTION_MAX_BYTES) }))).toBe('413 payload_too_large');
  });

  it('answers 404 not_found, readable from any origin, for an unknown, malformed or expired caption', async () => {
    const hosted = (await upload(t, { vtt: VTT })).json() as CastCaptionHosted;
    for (const id of ['A'.repeat(22), 'short', '..%2F..%2Fetc', 'A'.repeat(23)]) {
      const res = await t.server.inject({ method: 'GET', url: `/api/cast/captions/${id}` });
      expect(codeOf(res), id).toBe('404 not_found');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    t.clock.advance(CAST_CAPTION_TTL_MS - 1_000);
    const late = await read(t, hosted.url);
    expect(late.body).toBe(VTT);
    expect(late.headers['cache-control']).toBe('private, max-age=1');
    t.clock.advance(1_000);
    expect(codeOf(await read(t, hosted.url))).toBe('404 not_found');
  });
});

describe('the caption relay: who may use it, and how often', () => {
  it('takes uploads from signed-out viewers, counted per address (429 with Retry-After)', async () => {
    const t = await startSyncApp({
      deps: { accounts: { rateLimits: { cast_caption_upload: { points: 2, durationMs: 60_000 } } } },
    });
    try {
      expect((await upload(t, { vtt: VTT })).statusCode).toBe(200);
      expect((await upload(t, { vtt: VTT })).statusCode).toBe(200);
      const refused = await upload(t, { vtt: VTT });
      expect(codeOf(refused)).toBe('429 rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another address has its own count.
      const other = await t.server.inject({
        method: 'POST',
        url: castPaths.captions,
        payload: { vtt: VTT },
        remoteAddress: '192.0.2.7',
      });
      expect(other.statusCode, other.body).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('gives the URL of the address it was asked at when PUBLIC_URL is not set, and it loads as given', async () => {
    const t = await startSyncApp();
    try {
      const base = await t.server.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${base}${castPaths.captions}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ vtt: VTT }),
      });
      const hosted = (await res.json()) as CastCaptionHosted;
      expect(hosted.url.startsWith(`${base}/api/cast/captions/`)).toBe(true);
      const caption = await fetch(hosted.url, { headers: { origin: 'https://www.gstatic.com' } });
      expect(caption.status).toBe(200);
      expect(caption.headers.get('access-control-allow-origin')).toBe('*');
      expect(await caption.text()).toBe(VTT);
    } finally {
      t.server.server.closeAllConnections();
      await t.close();
    }
  });
});

describe('the caption relay across two server processes on one Redis', () => {
  it('answers a caption uploaded through one process from the other, until it expires', async () => {
    const db = await createTestDatabase();
    const env = {
      REDIS_URL: testRedisUrl ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `test-${randomBytes(6).toString('hex')}:`,
    };
    const one = await startSyncApp({ env, db });
    const two = await startSyncApp({ env, db });
    try {
      const hosted = (await upload(one, { vtt: VTT })).json() as CastCaptionHosted;
      const fromTwo = await read(two, hosted.url);
      expect(fromTwo.statusCode, fromTwo.body).toBe(200);
      expect(fromTwo.body).toBe(VTT);
      expect(fromTwo.headers['access-control-allow-origin']).toBe('*');
      // Each process checks the expiry kept with the caption against its own clock.
      two.clock.advance(CAST_CAPTION_TTL_MS);
      expect(codeOf(await read(two, hosted.url))).toBe('404 not_found');
      expect((await read(one, hosted.url)).body).toBe(VTT);
    } finally {
      await one.close();
      await two.close();
      await db.destroy();
    }
  });
});

describe('the caption relay when Redis does not answer', () => {
  it('answers 503 database_unavailable with Retry-After, never a 500', async () => {
    const db = await createTestDatabase();
    // Nothing listens on port 1: every Redis command fails.
    const t = await startSyncApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' }, db });
    try {
      const res = await upload(t, { vtt: VTT });
      expect(codeOf(res)).toBe('503 database_unavailable');
      expect(res.headers['retry-after']).toBe('5');
      const missing = await t.server.inject({
        method: 'GET',
        url: `${castPaths.captions}/${'A'.repeat(22)}`,
      });
      expect(codeOf(missing)).toBe('503 database_unavailable');
    } finally {
      await t.close();
      await db.destroy();
    }
  });
});
