import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LinksFile } from './links-file.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'marquee-links-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};
const matrix = { type: 'movie' as const, title: 'The Matrix', releaseYear: 1999, tmdbId: '603' };

describe('LinksFile', () => {
  it('reads `{links: [...]}` or a bare array, numeric ids and `tv` as show', async () => {
    const file = write('a.json', {
      links: [
        { tmdbId: 603, url: 'https://cdn.example/matrix.m3u8' },
        {
          type: 'tv',
          tmdbId: '1396',
          season: 1,
          episode: 2,
          qualities: { '720': 'https://cdn.example/bb.mp4' },
        },
      ],
    });
    const links = new LinksFile(file);
    expect(await links.find(matrix)).toEqual([
      { type: 'movie', tmdbId: '603', url: 'https://cdn.example/matrix.m3u8' },
    ]);
    expect((await links.entries())[1]).toMatchObject({ type: 'show', tmdbId: '1396', season: 1, episode: 2 });
    expect(
      await new LinksFile(write('b.json', [{ tmdbId: '1', url: 'https://x.example/a.mp4' }])).entries(),
    ).toHaveLength(1);
  });

  it('says what is wrong with a broken file', async () => {
    await expect(new LinksFile(write('c.json', '{nope')).entries()).rejects.toThrow(/not valid JSON/);
    await expect(
      new LinksFile(write('d.json', [{ tmdbId: '1', url: 'javascript:alert(1)' }])).entries(),
    ).rejects.toThrow(/url/);
    await expect(
      new LinksFile(
        write('e.json', [{ type: 'show', tmdbId: '1', url: 'https://x.example/a.mp4' }]),
      ).entries(),
    ).rejects.toThrow(/season/);
    await expect(new LinksFile(write('f.json', [{ tmdbId: '1' }])).entries()).rejects.toThrow(
      /needs `url` or `qualities`/,
    );
    await expect(new LinksFile(path.join(dir, 'none.json')).entries()).rejects.toThrow(/not found/);
  });

  it('rereads the file after the operator edits it', async () => {
    const file = write('g.json', [{ tmdbId: '603', url: 'https://cdn.example/old.mp4' }]);
    const links = new LinksFile(file);
    expect((await links.find(matrix))[0]?.url).toBe('https://cdn.example/old.mp4');
    writeFileSync(file, JSON.stringify([{ tmdbId: '603', url: 'https://cdn.example/new-and-longer.mp4' }]));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect((await links.find(matrix))[0]?.url).toBe('https://cdn.example/new-and-longer.mp4');
  });
});
