import { describe, expect, it } from 'vitest';
import { ScrapeQuery } from './sources.ts';

describe('scrape query ids', () => {
  it("accepts the embedded catalog's long season and episode ids", () => {
    const query = {
      type: 'show',
      title: 'Breaking Bad',
      tmdbId: '1396',
      seasonNumber: '1',
      seasonTmdbId: '1001396001',
      episodeNumber: '1',
      episodeTmdbId: '1001396001001',
    };
    expect(ScrapeQuery.safeParse(query).success).toBe(true);
    expect(ScrapeQuery.safeParse({ ...query, episodeTmdbId: 'x1' }).success).toBe(false);
    expect(ScrapeQuery.safeParse({ ...query, tmdbId: '12345678901' }).success).toBe(false);
  });
});
