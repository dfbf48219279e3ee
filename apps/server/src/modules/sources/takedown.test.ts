import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { normalizeTakedownId, TakedownList } from './takedown.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'marquee-takedown-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('TakedownList', () => {
  it('normalises ids: bare numbers cover both types, typed ones only theirs', async () => {
    expect(['603', 'Movie-1', 'show-2', 'series-3', 'tv-4', 'film-5', ''].map(normalizeTakedownId)).toEqual([
      '603',
      'movie-1',
      'tv-2',
      'tv-3',
      'tv-4',
      null,
      null,
    ]);
    const list = new TakedownList(['603', 'tv-1396']);
    expect(await list.isRemoved('movie', '603')).toBe(true);
    expect(await list.isRemoved('show', '603')).toBe(true);
    expect(await list.isRemoved('show', '1396')).toBe(true);
    expect(await list.isRemoved('movie', '1396')).toBe(false);
  });

  it('reads the file (comments, commas, spaces), rereads it when it changes, and treats a missing file as empty', async () => {
    const file = path.join(dir, 'takedown.txt');
    const list = new TakedownList([], file);
    expect(await list.isRemoved('movie', '11')).toBe(false);
    writeFileSync(file, '# DMCA notices\n11, movie-12  # second notice\n\ntv-13\n');
    expect(await list.isRemoved('movie', '11')).toBe(true);
    expect(await list.isRemoved('movie', '12')).toBe(true);
    expect(await list.isRemoved('show', '13')).toBe(true);
    writeFileSync(file, '14\n');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(await list.isRemoved('movie', '11')).toBe(false);
    expect(await list.isRemoved('movie', '14')).toBe(true);
  });
});
