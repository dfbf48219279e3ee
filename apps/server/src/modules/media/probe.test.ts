import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaInfo } from './media-info.ts';
import { mediaInfoFromProbe, probeArguments, probeMedia, probeMediaFile, ProbeFailure } from './probe.ts';

// Real ffprobe output of tiny files ffmpeg makes here (2 s, 160x90): ffmpeg is installed wherever the
// tests run (README, .ci/run).

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'marquee-probe-'));
const file = (name: string) => path.join(dir, name);
const options = { ffprobePath: 'ffprobe', timeoutMs: 20_000 };

const ffmpeg = (...args: string[]) => run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
const picture = ['-f', 'lavfi', '-i', 'testsrc2=s=160x90:d=2:r=10'];
const tone = (layout = 'stereo') => ['-f', 'lavfi', '-i', `sine=f=440:d=2,aformat=channel_layouts=${layout}`];

/** ffprobe's JSON as the server asks for it. */
async function probeJson(name: string): Promise<unknown> {
  const { stdout } = await run('ffprobe', probeArguments(file(name)));
  return JSON.parse(stdout) as unknown;
}

beforeAll(async () => {
  writeFileSync(file('en.srt'), '1\n00:00:00,500 --> 00:00:01,500\nHello\n');
  writeFileSync(file('de.srt'), '1\n00:00:00,500 --> 00:00:01,500\nHallo\n');
  writeFileSync(file('notes.mkv'), 'root:x:0:0:root:/root:/bin/bash\n');
  writeFileSync(
    file('chapters.txt'),
    ';FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=1000\ntitle=Opening\n' +
      '[CHAPTER]\nTIMEBASE=1/1000\nSTART=1000\nEND=2000\ntitle=Ending\n',
  );
  await Promise.all([
    // H.264 + AC3 5.1 in French + SubRip in English (default) and German (forced, for the hard of hearing).
    ffmpeg(
      ...picture,
      ...tone('5.1'),
      '-i',
      file('en.srt'),
      '-i',
      file('de.srt'),
      '-map',
      '0',
      '-map',
      '1',
      '-map',
      '2',
      '-map',
      '3',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'ac3',
      '-c:s',
      'srt',
      '-metadata:s:a:0',
      'language=fra',
      '-metadata:s:a:0',
      'title=Français 5.1',
      '-metadata:s:s:0',
      'language=eng',
      '-metadata:s:s:1',
      'language=ger',
      '-disposition:a:0',
      'default',
      '-disposition:s:0',
      'default',
      '-disposition:s:1',
      'forced+hearing_impaired',
      file('h264-ac3.mkv'),
    ),
    // HEVC Main 10 with HDR10 signalling, AAC stereo.
    ffmpeg(
      ...picture,
      ...tone(),
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p10le',
      '-x265-params',
      'log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc',
      '-tag:v',
      'hvc1',
      '-c:a',
      'aac',
      file('hevc10.mp4'),
    ),
    ffmpeg('-f', 'lavfi', '-i', 'color=red:s=64x64:d=0.1', '-frames:v', '1', file('cover.png')),
  ]);
  await Promise.all([
    // Chapters from an ffmetadata file.
    ffmpeg(
      '-i',
      file('h264-ac3.mkv'),
      '-i',
      file('chapters.txt'),
      '-map',
      '0',
      '-map_chapters',
      '1',
      '-c',
      'copy',
      file('chapters.mkv'),
    ),
    // A film with its cover: attached to an MKV, and as an MP4's cover picture (`covr`).
    ffmpeg(
      '-i',
      file('h264-ac3.mkv'),
      '-attach',
      file('cover.png'),
      '-metadata:s:t',
      'mimetype=image/png',
      '-map',
      '0',
      '-c',
      'copy',
      file('film-with-cover.mkv'),
    ),
    ffmpeg(
      '-i',
      file('cover.png'),
      '-i',
      file('hevc10.mp4'),
      '-map',
      '0',
      '-map',
      '1',
      '-c',
      'copy',
      '-disposition:v:0',
      'attached_pic',
      file('film-with-cover.mp4'),
    ),
    // Music with its cover attached: no film at all.
    ffmpeg(
      ...tone(),
      '-attach',
      file('cover.png'),
      '-metadata:s:t',
      'mimetype=image/png',
      '-c:a',
      'libopus',
      file('music-with-cover.mkv'),
    ),
  ]);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('mediaInfoFromProbe on real ffprobe output', () => {
  it('reads an MKV with H.264, AC3 5.1 and SubRip tracks: codecs, languages, titles, dispositions', async () => {
    const info = mediaInfoFromProbe(await probeJson('h264-ac3.mkv'))!;
    expect(info.formatName).toBe('matroska,webm');
    expect(info.duration).toBeGreaterThan(1.9);
    expect(info.duration).toBeLessThan(2.2);
    expect(info.bitRate).toBeGreaterThan(0);
    expect(info.video).toMatchObject({
      index: 0,
      codec: 'h264',
      pixelFormat: 'yuv420p',
      bitDepth: 8,
      width: 160,
      height: 90,
      frameRate: 10,
      dynamicRange: 'sdr',
    });
    expect(info.video!.profile).toMatch(/Baseline|High|Main/);
    expect(info.video!.level).toBeGreaterThan(0);
    expect(info.audio).toEqual([
      {
        index: 1,
        codec: 'ac3',
        profile: null,
        channels: 6,
        channelLayout: expect.stringMatching(/^5\.1/) as unknown as string,
        sampleRate: 44100,
        language: 'fra',
        title: 'Français 5.1',
        isDefault: true,
        bitRate: 448000,
      },
    ]);
    expect(info.subtitles).toEqual([
      {
        index: 2,
        codec: 'subrip',
        kind: 'text',
        language: 'eng',
        title: null,
        isDefault: true,
        isForced: false,
        isHearingImpaired: false,
      },
      {
        index: 3,
        codec: 'subrip',
        kind: 'text',
        language: 'ger',
        title: null,
        isDefault: false,
        isForced: true,
        isHearingImpaired: true,
      },
    ]);
    expect(info.chapters).toEqual([]);
  });

  it('reads an MP4 with HEVC Main 10: bit depth 10 and HDR10 from the transfer function', async () => {
    const info = mediaInfoFromProbe(await probeJson('hevc10.mp4'))!;
    expect(info.formatName).toContain('mp4');
    expect(info.video).toMatchObject({
      codec: 'hevc',
      profile: 'Main 10',
      pixelFormat: 'yuv420p10le',
      bitDepth: 10,
      dynamicRange: 'hdr10',
      width: 160,
      height: 90,
    });
    expect(info.video!.bitRate).toBeGreaterThan(0);
    expect(info.audio).toEqual([
      expect.objectContaining({ codec: 'aac', profile: 'LC', channels: 2, language: 'und', title: null }),
    ]);
  });

  it('reads chapters with their titles', async () => {
    const info = mediaInfoFromProbe(await probeJson('chapters.mkv'))!;
    expect(info.chapters).toEqual([
      { start: 0, end: 1, title: 'Opening' },
      { start: 1, end: 2, title: 'Ending' },
    ]);
  });

  it('never takes attached cover art for the film', async () => {
    const mkv = (await probeJson('film-with-cover.mkv')) as { streams: { codec_name: string }[] };
    expect(mkv.streams.map((s) => s.codec_name)).toContain('png');
    expect(mediaInfoFromProbe(mkv)!.video).toMatchObject({ index: 0, codec: 'h264' });
    const mp4 = mediaInfoFromProbe(await probeJson('film-with-cover.mp4'))!;
    expect(mp4.video).toMatchObject({ codec: 'hevc', width: 160 });
    const music = mediaInfoFromProbe(await probeJson('music-with-cover.mkv'))!;
    expect(music.video).toBeNull();
    expect(music.audio).toEqual([expect.objectContaining({ codec: 'opus', index: 0 })]);
    // Whatever the order of the streams.
    const coverFirst = mediaInfoFromProbe({
      format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2' },
      streams: [
        {
          index: 0,
          codec_type: 'video',
          codec_name: 'mjpeg',
          width: 600,
          height: 600,
          disposition: { attached_pic: 1 },
        },
        { index: 1, codec_type: 'video', codec_name: 'h264', width: 1280, height: 720 },
      ],
    })!;
    expect(coverFirst.video).toMatchObject({ index: 1, codec: 'h264' });
  });

  it('maps what ffprobe leaves out or marks unknown to null, and reads flags from track names', () => {
    const info = mediaInfoFromProbe({
      format: { format_name: 'avi', duration: 'N/A' },
      streams: [
        {
          index: 0,
          codec_type: 'video',
          codec_name: 'vp9',
          level: -99,
          width: 1920,
          height: 1080,
          avg_frame_rate: '0/0',
          r_frame_rate: '24000/1001',
          pix_fmt: 'yuv420p',
          color_transfer: 'arib-std-b67',
          tags: { DURATION: '01:02:03.500000000', 'BPS-eng': '5000000' },
        },
        { index: 1, codec_type: 'audio', codec_name: 'dts', profile: 'DTS-HD MA', channels: 8 },
        {
          index: 2,
          codec_type: 'subtitle',
          codec_name: 'hdmv_pgs_subtitle',
          tags: { LANGUAGE: 'ENG', TITLE: 'English (Forced)' },
        },
        { index: 3, codec_type: 'subtitle', codec_name: 'ass', tags: { title: 'English SDH' } },
        { index: 4, codec_type: 'data' },
      ],
    })!;
    expect(info.duration).toBe(3723.5);
    expect(info.bitRate).toBeNull();
    expect(info.video).toMatchObject({
      codec: 'vp9',
      level: null,
      bitDepth: 8,
      dynamicRange: 'hlg',
      bitRate: 5_000_000,
    });
    expect(info.video!.frameRate).toBeCloseTo(23.976, 3);
    expect(info.audio[0]).toMatchObject({ channels: 8, sampleRate: null, language: 'und', isDefault: false });
    expect(info.subtitles.map((s) => [s.kind, s.language, s.isForced, s.isHearingImpaired])).toEqual([
      ['image', 'eng', true, false],
      ['text', 'und', false, true],
    ]);
  });

  it('recognises Dolby Vision by its configuration record', () => {
    const info = mediaInfoFromProbe({
      format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2' },
      streams: [
        {
          index: 0,
          codec_type: 'video',
          codec_name: 'hevc',
          width: 3840,
          height: 2160,
          pix_fmt: 'yuv420p10le',
          color_transfer: 'smpte2084',
          side_data_list: [{ side_data_type: 'DOVI configuration record', dv_profile: 8 }],
        },
      ],
    })!;
    expect(info.video).toMatchObject({ bitDepth: 10, dynamicRange: 'dolby-vision' });
  });

  it('answers null for anything that is not ffprobe output, and a picture file has no video', () => {
    expect(mediaInfoFromProbe(null)).toBeNull();
    expect(mediaInfoFromProbe('text')).toBeNull();
    expect(mediaInfoFromProbe({ streams: [] })).toBeNull();
    expect(mediaInfoFromProbe({ format: {} })).toBeNull();
    const png = mediaInfoFromProbe({
      format: { format_name: 'png_pipe' },
      streams: [{ index: 0, codec_type: 'video', codec_name: 'png', width: 64, height: 64 }],
    })!;
    expect(png.video).toBeNull();
  });
});

describe('probeMedia', () => {
  it('runs ffprobe and maps its answer', async () => {
    const info: MediaInfo | null = await probeMedia(file('hevc10.mp4'), options);
    expect(info?.video?.codec).toBe('hevc');
  });

  it('answers null (never throws) for a file that is not media, saying why', async () => {
    expect(await probeMedia(file('notes.mkv'), options)).toBeNull();
    expect(await probeMediaFile(file('notes.mkv'), options)).toEqual({
      info: null,
      error: 'Invalid data found when processing input',
    });
    expect((await probeMediaFile(file('missing.mkv'), options)).error).toMatch(/No such file/);
  });

  it('fails with a ProbeFailure when ffprobe is missing or too slow, and refuses relative paths', async () => {
    await expect(
      probeMedia(file('hevc10.mp4'), { ffprobePath: path.join(dir, 'no-ffprobe'), timeoutMs: 5_000 }),
    ).rejects.toThrow(ProbeFailure);
    await expect(probeMedia(file('hevc10.mp4'), { ffprobePath: 'ffprobe', timeoutMs: 1 })).rejects.toThrow(
      /no answer within/,
    );
    await expect(probeMedia('-version', options)).rejects.toThrow(/absolute path/);
  });
});
