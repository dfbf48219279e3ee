import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api/index.ts';
import { loadSpriteThumbnails } from './thumbnails.ts';

const TRACK_URL = 'https://watch.example/api/sources/library/tok/abc/thumbnails/thumbnails.vtt';

describe("the server's seek thumbnails", () => {
  it('reject a track that is not there or not a thumbnail track, so the browser grabs frames instead', async () => {
    const added: number[] = [];
    const signal = new AbortController().signal;
    const missing = async () => {
      throw new ApiError(404, 'unknown', 'HTTP 404');
    };
    await expect(loadSpriteThumbnails(TRACK_URL, (at) => added.push(at), signal, missing)).rejects.toThrow(
      /404/,
    );
    const empty = async () => 'WEBVTT\n\n';
    await expect(loadSpriteThumbnails(TRACK_URL, (at) => added.push(at), signal, empty)).rejects.toThrow(
      /no cues/,
    );
    expect(added).toEqual([]);
  });
});
