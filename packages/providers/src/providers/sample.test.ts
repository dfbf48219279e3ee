import { describe, expect, it } from 'vitest';
import { makeProviders } from '../controls.ts';
import type { Fetcher } from '../fetchers/types.ts';
import { isValidStream } from '../streams.ts';
import { makeSampleEmbeds, makeSampleSource, sampleAssets } from './sample.ts';

const noFetch: Fetcher = async () => {
  throw new Error('the sample never fetches');
};
const assetsUrl = 'https://marquee.example/api/sources/sample/';
const controls = () =>
  makeProviders({
    sources: [makeSampleSource({ assetsUrl })],
    embeds: makeSampleEmbeds({ assetsUrl }),
    fetcher: noFetch,
    target: 'browser',
  });

describe('sample source', () => {
  it('plays the looping HLS sample for any title, labelled as a sample, with captions in several languages', async () => {
    const output = await controls().runAll({
      media: { type: 'movie', title: 'Anything', releaseYear: 2020, tmdbId: '1' },
    });
    expect(output).toMatchObject({ sourceId: 'sample', embedId: 'sample-hls' });
    const stream = output!.stream;
    expect(isValidStream(stream)).toBe(true);
    expect(stream).toMatchObject({
      type: 'hls',
      playlist: 'https://marquee.example/api/sources/sample/hls/master.m3u8',
      isSample: true,
    });
    expect(new Set(stream.captions.map((c) => c.language)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(stream.captions.map((c) => c.type))).toEqual(new Set(['vtt', 'srt']));
  });

  it('also offers the MP4 files by quality through the file embed', async () => {
    const { stream } = await controls().runEmbedScraper({ id: 'sample-file', url: assetsUrl });
    expect(stream[0]).toMatchObject({ type: 'file', isSample: true });
    const files = stream[0]!.type === 'file' ? stream[0]!.qualities : {};
    expect(Object.keys(files).sort()).toEqual(['360', '480', '720']);
    expect(files['720']).toEqual({
      type: 'mp4',
      url: `https://marquee.example/api/sources/sample/${sampleAssets.files['720']}`,
    });
  });

  it('embeds refuse URLs outside the sample folder', async () => {
    await expect(
      controls().runEmbedScraper({ id: 'sample-hls', url: 'https://elsewhere.example/x.m3u8' }),
    ).rejects.toThrow('not a sample playlist');
    await expect(
      controls().runEmbedScraper({ id: 'sample-file', url: 'https://elsewhere.example/' }),
    ).rejects.toThrow('not the sample folder');
  });

  it('is a fallback: another source that has the title goes first', () => {
    expect(makeSampleSource({ assetsUrl }).isFallback).toBe(true);
  });
});
