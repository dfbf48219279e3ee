import { describe, expect, it } from 'vitest';
import { TmdbStats } from './tmdb-stats.ts';

const AT = Date.parse('2025-03-01T12:00:00Z');

describe('TmdbStats', () => {
  it('says nothing was called before the first call', () => {
    expect(new TmdbStats().summary()).toEqual({
      calls: 0,
      p50Ms: null,
      p95Ms: null,
      fallbackAnswers: 0,
      errors: {},
      lastError: null,
    });
  });

  it('gives the median and 95th percentile of the durations (nearest rank)', () => {
    const stats = new TmdbStats();
    // 1..100 ms in shuffled order.
    for (let i = 0; i < 100; i++) stats.record({ at: AT, durationMs: ((i * 37) % 100) + 1, host: 'primary' });
    expect(stats.summary()).toMatchObject({ calls: 100, p50Ms: 50, p95Ms: 95 });
  });

  it('counts errors by code, fallback answers, and keeps the last error', () => {
    const stats = new TmdbStats();
    stats.record({ at: AT, durationMs: 10, host: 'fallback' });
    stats.record({
      at: AT + 1000,
      durationMs: 3000,
      host: null,
      errorCode: 'metadata_unavailable',
      errorMessage: '/movie/603: primary: timed out after 3000 ms',
    });
    stats.record({
      at: AT + 2000,
      durationMs: 5,
      host: null,
      errorCode: 'metadata_rate_limited',
      errorMessage: '/search/multi: primary: HTTP 429 (TMDB code 25), Retry-After 30 s',
    });
    stats.record({ at: AT + 3000, durationMs: 20, host: 'primary' });
    expect(stats.summary()).toEqual({
      calls: 4,
      p50Ms: 10,
      p95Ms: 3000,
      fallbackAnswers: 1,
      errors: { metadata_unavailable: 1, metadata_rate_limited: 1 },
      lastError: {
        at: '2025-03-01T12:00:02.000Z',
        code: 'metadata_rate_limited',
        message: '/search/multi: primary: HTTP 429 (TMDB code 25), Retry-After 30 s',
      },
    });
  });

  it('keeps only the most recent calls, but remembers the last error beyond them', () => {
    const stats = new TmdbStats(3);
    stats.record({
      at: AT,
      durationMs: 900,
      host: null,
      errorCode: 'metadata_unavailable',
      errorMessage: 'x',
    });
    for (let i = 1; i <= 4; i++) stats.record({ at: AT + i, durationMs: i, host: 'primary' });
    const summary = stats.summary();
    expect(summary).toMatchObject({ calls: 3, p50Ms: 3, p95Ms: 4, errors: {} });
    expect(summary.lastError?.code).toBe('metadata_unavailable');
  });
});
