import { createHash } from 'node:crypto';
import { z } from 'zod';
import { JobFile } from '../media/job-file.ts';
import type { LibraryIndex, LibraryVideo } from '../sources/library-index.ts';

/*
 * What segment detection compares (decision 111): the episodes of one season of a show, in episode
 * order — or a file on its own (a film, a lone episode), whose credits only can be found. A group's key
 * names its files and their versions, so a season that gets a new (or replaced) episode is another
 * group, detected again.
 */

/** One version of a library video, as detection reads it (all of it from the server's own index). */
export const DetectionFile = JobFile.extend({
  /** The audio stream fingerprinted (the default one), or null: the file has none. */
  audioIndex: z.number().int().min(0).max(10_000).nullable(),
});
export type DetectionFile = z.infer<typeof DetectionFile>;

/** A detection job's data (it may sit in Redis: checked again before anything runs). */
export const DetectionGroup = z.object({
  key: z.string().regex(/^[a-f0-9]{40}$/),
  files: z.array(DetectionFile).min(1).max(5_000),
});
export type DetectionGroup = z.infer<typeof DetectionGroup>;

/** Which version of a file: a replaced or rewritten file is another (`<size>-<mtime ms>`). */
export const fileVersion = (file: { size: number; mtime: number }) => `${file.size}-${file.mtime}`;

/** A library video as detection reads it; null when its runtime is unknown (no ffprobe). */
export function detectionFileOf(video: LibraryVideo): DetectionFile | null {
  const duration = video.info?.duration ?? 0;
  if (!video.info || !(duration > 0)) return null;
  const audio = video.info.audio.find((a) => a.isDefault) ?? video.info.audio[0];
  return {
    fileId: video.id,
    path: video.path,
    size: video.size,
    mtime: Math.round(video.mtimeMs),
    duration,
    audioIndex: audio?.index ?? null,
  };
}

export function groupOf(files: DetectionFile[]): DetectionGroup {
  const names = files.map((f) => `${f.fileId}:${fileVersion(f)}`).join('|');
  return { key: createHash('sha256').update(names).digest('hex').slice(0, 40), files };
}

/** Every season of every show in the index as a group, its episodes in order (each file once). */
export function seasonGroups(index: Pick<LibraryIndex, 'shows'>): DetectionGroup[] {
  const groups: DetectionGroup[] = [];
  for (const show of index.shows) {
    const seasons = new Map<number, { episode: number; video: LibraryVideo }[]>();
    for (const [key, videos] of show.episodes) {
      const [season, episode] = key.split(':').map(Number) as [number, number];
      const list = seasons.get(season) ?? [];
      for (const video of videos) list.push({ episode, video });
      seasons.set(season, list);
    }
    for (const [, list] of [...seasons].sort(([a], [b]) => a - b)) {
      list.sort((a, b) => a.episode - b.episode || a.video.name.localeCompare(b.video.name));
      const seen = new Set<string>();
      const files: DetectionFile[] = [];
      for (const { video } of list) {
        if (seen.has(video.id)) continue;
        seen.add(video.id);
        const file = detectionFileOf(video);
        if (file) files.push(file);
      }
      if (files.length > 0) groups.push(groupOf(files));
    }
  }
  return groups;
}
