import { describe, expect, it } from 'vitest';
import { makeProviders } from '../controls.ts';
import type { Fetcher } from '../fetchers/types.ts';
import type { ScrapeMedia } from '../media.ts';
import { formatOfUrl, linkMatches, makeLinksSource, streamFromLink, type LinkEntry } from './links.ts';

const noFetch: Fetcher = async () => {
  throw new Error('links never fetch');
};
const matrix: ScrapeMedia = { type: 'movie', title: 'The Matrix', releaseYear: 1999, tmdbId: '603' };
const episode = (season: number, number: number): ScrapeMedia => ({
  type: 'show',
  title: 'Show',
  releaseYear: 2008,
  tmdbId: '603',
  season: { number: season, tmdbId: '1' },
  episode: { number, tmdbId: '2' },
});

describe('links', () => {
  it('tells formats from URLs', () => {
    expect(formatOfUrl('https://cdn.example/a/master.m3u8?token=1')).toBe('hls');
    expect(formatOfUrl('https://cdn.example/a.MP4')).toBe('mp4');
    expect(formatOfUrl('https://cdn.example/a.webm#t=3')).toBe('webm');
    expect(formatOfUrl('https://cdn.example/stream')).toBeNull();
  });

  it('matches a movie by type and id, and a show entry only for its episode (same number, other type: no)', () => {
    const movieEntry: LinkEntry = { type: 'movie', tmdbId: '603', url: 'https://cdn.example/m.mp4' };
    const showEntry: LinkEntry = {
      type: 'show',
      tmdbId: '603',
      season: 1,
      episode: 2,
      url: 'https://cdn.example/e.mp4',
    };
    expect(linkMatches(movieEntry, matrix)).toBe(true);
    expect(linkMatches(movieEntry, episode(1, 2))).toBe(false);
    expect(linkMatches(showEntry, episode(1, 2))).toBe(true);
    expect(linkMatches(showEntry, episode(1, 3))).toBe(false);
  });

  it('turns an entry into an HLS or file stream with captions', () => {
    expect(
      streamFromLink({ type: 'movie', tmdbId: '1', url: 'https://cdn.example/x.m3u8' }, 's'),
    ).toMatchObject({
      type: 'hls',
      playlist: 'https://cdn.example/x.m3u8',
      flags: ['cors-allowed'],
    });
    const file = streamFromLink(
      {
        type: 'movie',
        tmdbId: '1',
        qualities: { '1080': 'https://cdn.example/1080.mp4', '480': 'https://cdn.example/480.webm' },
        captions: [
          { language: 'en', url: 'https://cdn.example/en.vtt' },
          { language: 'xx', url: 'https://cdn.example/notes.txt' },
        ],
        corsAllowed: false,
      },
      's',
    );
    expect(file).toEqual({
      id: 's',
      type: 'file',
      qualities: {
        '1080': { type: 'mp4', url: 'https://cdn.example/1080.mp4' },
        '480': { type: 'webm', url: 'https://cdn.example/480.webm' },
      },
      flags: [],
      captions: [
        {
          id: 's-caption-0',
          language: 'en',
          url: 'https://cdn.example/en.vtt',
          type: 'vtt',
          needsProxy: false,
          opensubtitles: false,
        },
      ],
    });
    expect(
      streamFromLink({ type: 'movie', tmdbId: '1', url: 'https://cdn.example/unknown' }, 's'),
    ).toBeNull();
  });

  it('is a source: the first usable entry of the title wins, none is notfound', async () => {
    const entries: LinkEntry[] = [
      { type: 'movie', tmdbId: '603', url: 'https://cdn.example/mystery' },
      { type: 'movie', tmdbId: '603', url: 'https://cdn.example/matrix.m3u8' },
    ];
    const controls = makeProviders({
      sources: [makeLinksSource({ find: () => entries })],
      embeds: [],
      fetcher: noFetch,
      target: 'browser',
    });
    expect((await controls.runAll({ media: matrix }))?.stream).toMatchObject({
      type: 'hls',
      playlist: 'https://cdn.example/matrix.m3u8',
    });
    expect(await controls.runAll({ media: { ...matrix, tmdbId: '604' } })).toBeNull();
  });
});
