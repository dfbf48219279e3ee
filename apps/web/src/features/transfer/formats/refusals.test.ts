import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { IMPORT_LIMITS, ImportRefused } from './model.ts';
import { parse, parseFile } from './parse.ts';
import { lines, textFile, zipBomb, zipFile } from './test-files.ts';
import { unzipSafely } from './zip.ts';

const MB = 1024 * 1024;

async function refusal(promise: Promise<unknown>): Promise<ImportRefused> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ImportRefused) return error;
    throw error;
  }
  throw new Error('the file was not refused');
}

describe('too_large', () => {
  it('refuses a file over 100 MB before reading it', async () => {
    const huge = {
      name: 'diary.csv',
      size: IMPORT_LIMITS.inputBytes + 1,
      arrayBuffer: () => Promise.reject(new Error('read')),
    } as unknown as File;
    expect(await refusal(parseFile(huge))).toMatchObject({ code: 'too_large', file: 'diary.csv' });
    const bytes = new Uint8Array(IMPORT_LIMITS.inputBytes + 1);
    expect((await refusal(parse({ name: 'big.csv', bytes }))).code).toBe('too_large');
  });

  it('stops a zip bomb (300 MB of zeros) early, without inflating it or trusting its headers', async () => {
    const bomb = zipBomb('diary.csv', 300);
    expect(bomb.length).toBeLessThan(MB);
    // Its headers claim the entry holds what it takes in the zip (a third of a megabyte).
    expect(new DataView(bomb.buffer).getUint32(22, true)).toBeLessThan(MB);
    // Refused at its first piece (8 KB in, about 8 MB out): the ratio is past 100:1 once past 1 MB.
    const refused = await refusal(parse({ name: 'letterboxd.zip', bytes: bomb }));
    expect(refused).toMatchObject({ code: 'too_large', file: 'diary.csv' });
  });

  it('refuses more than 2,000 entries', async () => {
    const entries = Object.fromEntries(Array.from({ length: 2_001 }, (_, i) => [`lists/l${i}.csv`, 'x']));
    expect((await refusal(parse(zipFile('many.zip', entries)))).code).toBe('too_large');
  });

  it('counts the inflated bytes of every entry and of each one', () => {
    // Text that compresses about 3:1 (under the ratio limit), 400 KB an entry.
    const text = Array.from({ length: 20_000 }, (_, i) => `${i * 7919},film ${i % 997}\n`).join('');
    const body = new TextEncoder().encode(text);
    const bytes = zipSync({ 'a.csv': body, 'b.csv': body, 'c.csv': body });
    const limits = { ...IMPORT_LIMITS, zipTotalBytes: 2 * body.length + 10 };
    expect(() => unzipSafely(bytes, 'x.zip', () => true, limits)).toThrow(
      expect.objectContaining({ code: 'too_large', file: 'c.csv' }),
    );
    const perEntry = { ...IMPORT_LIMITS, zipEntryBytes: body.length - 1 };
    expect(() => unzipSafely(bytes, 'x.zip', () => true, perEntry)).toThrow(
      expect.objectContaining({ code: 'too_large', file: 'a.csv' }),
    );
    expect(unzipSafely(bytes, 'x.zip', () => true)).toHaveLength(3);
  });
});

describe('unknown_format, missing_columns', () => {
  it('names the files it looked at', async () => {
    const csv = await refusal(parse(textFile('numbers.csv', lines('a,b', '1,2'))));
    expect(csv).toMatchObject({ code: 'unknown_format', files: ['numbers.csv'] });
    const zip = await refusal(
      parse(zipFile('export.zip', { 'profile.csv': lines('Date Joined,Username', '2019-10-03,someone') })),
    );
    expect(zip).toMatchObject({ code: 'unknown_format', files: ['profile.csv'] });
    expect((await refusal(parse(textFile('x.json', '{"hello": 1}')))).code).toBe('unknown_format');
  });

  it('lists the columns a recognisable file lacks', async () => {
    const diary = lines('Date,Title,Year,Letterboxd URI,Rating', '2024-01-01,Heat,1995,https://boxd.it/a,4');
    expect(await refusal(parse(textFile('ratings.csv', diary)))).toMatchObject({
      code: 'missing_columns',
      file: 'ratings.csv',
      columns: ['Name'],
    });
    const imdb = lines('Your Rating,Date Rated,Title,Title Type,IMDb Rating', '8,2024-01-01,Heat,Movie,8.3');
    expect(await refusal(parse(textFile('ratings.csv', imdb)))).toMatchObject({ columns: ['Const'] });
    const netflix = lines('Profile Name,Duration,Title,Supplemental Video Type', 'Ann,00:10:00,Heat,');
    expect(await refusal(parse(textFile('ViewingActivity.csv', netflix)))).toMatchObject({
      columns: ['Start Time'],
    });
  });
});

describe('not_text', () => {
  it('refuses binary junk and invalid UTF-8', async () => {
    let seed = 7;
    const junk = Uint8Array.from(
      { length: 4096 },
      () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff,
    );
    expect((await refusal(parse({ name: 'diary.csv', bytes: junk }))).code).toBe('not_text');
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect((await refusal(parse({ name: 'poster.csv', bytes: png }))).code).toBe('not_text');
    const zeros = new Uint8Array(1000);
    expect((await refusal(parse({ name: 'zeros.csv', bytes: zeros }))).code).toBe('not_text');
  });

  it('accepts UTF-8 with a BOM and UTF-16 (LE and BE) with a BOM, as Excel saves', async () => {
    const text = lines('Title,Date', 'Amélie,1/31/24', 'Crouching Tiger: Season 1: 卧虎藏龙,2/1/24');
    const utf8 = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    const le = new Uint8Array(2 + text.length * 2);
    const be = new Uint8Array(2 + text.length * 2);
    le.set([0xff, 0xfe]);
    be.set([0xfe, 0xff]);
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      le.set([code & 0xff, code >> 8], 2 + i * 2);
      be.set([code >> 8, code & 0xff], 2 + i * 2);
    }
    for (const bytes of [utf8, le, be]) {
      const result = await parse({ name: 'NetflixViewingHistory.csv', bytes });
      expect(result.format).toBe('netflix');
      expect(result.records.map((r) => r.title.title)).toEqual(['Amélie', 'Crouching Tiger']);
      expect(result.records[1]!.episode).toEqual({ season: 1, title: '卧虎藏龙' });
    }
  });
});

describe('formula_in_cell', () => {
  it.each([
    ['=HYPERLINK("http://evil.example","click")'],
    ["+cmd|' /C calc'!A0"],
    ["-2+3+cmd|' /C calc'!A0"],
    ["@SUM(1+1)*cmd|' /C calc'!A0"],
    ['  =1+1'],
  ])('refuses %s with its row and column', async (cell) => {
    const csv = lines('Title,Date', 'Heat,1/31/24', `"${cell.replace(/"/g, '""')}",2/1/24`);
    expect(await refusal(parse(textFile('NetflixViewingHistory.csv', csv)))).toMatchObject({
      code: 'formula_in_cell',
      file: 'NetflixViewingHistory.csv',
      row: 3,
      column: 'Title',
    });
  });

  it('lets titles that only look like one through', async () => {
    const csv = lines(
      'Title,Date',
      '+1,1/31/24',
      '-ism,1/31/24',
      '@home,1/31/24',
      '"Ocean\'s 8 (2018)",1/31/24',
    );
    const result = await parse(textFile('NetflixViewingHistory.csv', csv));
    expect(result.records.map((r) => r.title.title)).toEqual(['+1', '-ism', '@home', "Ocean's 8 (2018)"]);
  });
});

describe('too_many_rows, bad_json, bad_csv, bad_zip', () => {
  it('refuses more than 200,000 rows', async () => {
    const rows = Array.from({ length: IMPORT_LIMITS.records + 20 }, (_, i) => `Film ${i},1/31/24`);
    const csv = `Title,Date\n${rows.join('\n')}\n`;
    const refused = await refusal(parse(textFile('NetflixViewingHistory.csv', csv)));
    expect(refused.code).toBe('too_many_rows');
  });

  it('refuses more than 200,000 records from JSON', async () => {
    const play = (i: number) => ({
      id: i,
      watched_at: '2024-01-01T20:00:00.000Z',
      type: 'movie',
      movie: { title: 'Heat', ids: { trakt: 1 } },
    });
    const json = JSON.stringify(Array.from({ length: IMPORT_LIMITS.records + 1 }, (_, i) => play(i + 1)));
    expect((await refusal(parse(textFile('watched-history.json', json)))).code).toBe('too_many_rows');
  });

  it('refuses broken JSON', async () => {
    const refused = await refusal(parse(textFile('backup.json', '{"bookmarks": {"1": ')));
    expect(refused).toMatchObject({ code: 'bad_json', file: 'backup.json' });
  });

  it('refuses an unbalanced quote with its row', async () => {
    const csv = lines('Title,Date', 'Heat,1/31/24', '"Alien,2/1/24', 'Ran,2/2/24');
    expect(await refusal(parse(textFile('NetflixViewingHistory.csv', csv)))).toMatchObject({
      code: 'bad_csv',
      row: 3,
    });
  });

  it('refuses a broken zip', async () => {
    const text = Array.from({ length: 5000 }, (_, i) => `2024-01-01,Film ${i * 7919},${1900 + (i % 120)}`);
    const bytes = zipFile('x.zip', { 'diary.csv': text.join('\n') }).bytes;
    bytes.fill(0xff, 50, 400);
    expect((await refusal(parse({ name: 'x.zip', bytes }))).code).toBe('bad_zip');
  });
});
