import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubtitleTracks } from './subtitle-tracks.ts';

// ASS/SSA files beside a video, written as ASS scripts in UTF-8 with their styles for the player's ASS
// renderer (docs/decisions/085-library-pipeline.md). Real ffmpeg.

let dir: string;
let tracks: SubtitleTracks;

const SCRIPT = [
  '[Script Info]',
  'ScriptType: v4.00+',
  'PlayResX: 320',
  'PlayResY: 180',
  '',
  '[V4+ Styles]',
  'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
  'Style: Jaune,DejaVu Sans,16,&H0000FFFF,&H000000FF,&H00000000,&H80000000,-1,0,0,0,100,100,0,0,1,1.5,0.5,2,10,10,10,1',
  '',
  '[Events]',
  'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  'Dialogue: 0,0:00:01.00,0:00:02.50,Jaune,,0,0,0,,{\\i1}Réplique en italique',
  '',
].join('\r\n');

const SSA = [
  '[Script Info]',
  'ScriptType: v4.00',
  '',
  '[V4 Styles]',
  'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, TertiaryColour, BackColour, Bold, Italic, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, Encoding',
  'Style: Bleu,Arial,20,16711680,65535,0,0,0,0,1,2,0,2,10,10,10,0,1',
  '',
  '[Events]',
  'Format: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  'Dialogue: Marked=0,0:00:03.00,0:00:04.00,Bleu,,0000,0000,0000,,Ligne SSA',
  '',
].join('\r\n');

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'marquee-subtitle-tracks-'));
  tracks = new SubtitleTracks({ ffmpeg: 'ffmpeg', workDir: path.join(dir, 'work') });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ASS scripts for the styled renderer', () => {
  it('keeps an ASS file’s styles and events, in UTF-8 also when the file is UTF-16', async () => {
    const file = path.join(dir, 'film.fr.ass');
    await writeFile(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SCRIPT, 'utf16le')]));
    const out = await tracks.ass('film-fr', file, null);
    expect(path.basename(out)).toBe('film-fr.ass');
    const text = await readFile(out, 'utf8');
    expect(text).toMatch(/^Style: Jaune,DejaVu Sans,16,&H0000FFFF/m);
    expect(text).toContain('Dialogue: 0,0:00:01.00,0:00:02.50,Jaune,,0,0,0,,{\\i1}Réplique en italique');
    // Made once: asked again, the same file without ffmpeg.
    expect(await tracks.ass('film-fr', file, null)).toBe(out);
  });

  it('keeps an SSA (v4) file as it is (libass reads it), its style and text kept', async () => {
    const file = path.join(dir, 'film.fr.ssa');
    await writeFile(file, SSA);
    const text = await readFile(await tracks.ass('film-ssa', file, null), 'utf8');
    expect(text).toContain('[V4 Styles]');
    expect(text).toMatch(/^Style: Bleu,Arial,20,/m);
    expect(text).toMatch(/^Dialogue: Marked=0,0:00:03\.00,0:00:04\.00,Bleu,.*Ligne SSA/m);
  });

  it('answers 502 conversion_failed for a file ffmpeg cannot read', async () => {
    const file = path.join(dir, 'broken.ass');
    await writeFile(file, 'not a subtitle');
    await expect(tracks.ass('broken', file, null)).rejects.toMatchObject({
      status: 502,
      code: 'conversion_failed',
    });
  });
});
