import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import type { LinkEntry, LinksLookup, ScrapeMedia } from '@marquee/providers';

const httpUrl = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');
const Quality = z.enum(['4k', '1080', '720', '480', '360', 'unknown']);

const Entry = z
  .object({
    type: z.enum(['movie', 'show', 'tv']).default('movie'),
    tmdbId: z.union([z.string().regex(/^\d{1,10}$/), z.number().int().positive()]).transform(String),
    season: z.number().int().min(0).optional(),
    episode: z.number().int().min(0).optional(),
    url: httpUrl.optional(),
    qualities: z.partialRecord(Quality, httpUrl).optional(),
    format: z.enum(['hls', 'mp4', 'webm']).optional(),
    captions: z
      .array(
        z.object({ language: z.string().min(2).max(16), url: httpUrl, needsProxy: z.boolean().optional() }),
      )
      .optional(),
    corsAllowed: z.boolean().optional(),
    headers: z.record(z.string(), z.string()).optional(),
  })
  .transform((e) => ({ ...e, type: e.type === 'tv' ? ('show' as const) : e.type }))
  .refine(
    (e) => e.url !== undefined || (e.qualities !== undefined && Object.keys(e.qualities).length > 0),
    'needs `url` or `qualities`',
  )
  .refine(
    (e) => e.type === 'movie' || (e.season !== undefined && e.episode !== undefined),
    'a show link needs `season` and `episode`',
  );

/** The operator's file: `{"links": [...]}` or just the array. */
export const LinksFileSchema = z.union([
  z.array(Entry),
  z.object({ links: z.array(Entry) }).transform((f) => f.links),
]);

export class LinksFileError extends Error {
  constructor(file: string, problem: string) {
    super(`links file ${file}: ${problem}`);
    this.name = 'LinksFileError';
  }
}

/**
 * LINKS_FILE, read when first needed and again whenever it changes (the operator edits it without a
 * restart). A broken file makes the links source fail with the reason, visible in the scrape report.
 */
export class LinksFile implements LinksLookup {
  private cached: { mtimeMs: number; size: number; entries: LinkEntry[] } | null = null;

  constructor(readonly file: string) {}

  async entries(): Promise<LinkEntry[]> {
    const info = await stat(this.file).catch(() => null);
    if (!info) throw new LinksFileError(this.file, 'not found');
    if (this.cached && this.cached.mtimeMs === info.mtimeMs && this.cached.size === info.size)
      return this.cached.entries;
    let json: unknown;
    try {
      json = JSON.parse(await readFile(this.file, 'utf8'));
    } catch (error) {
      throw new LinksFileError(this.file, `not valid JSON (${(error as Error).message})`);
    }
    const parsed = LinksFileSchema.safeParse(json);
    if (!parsed.success) {
      const problem = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new LinksFileError(this.file, problem);
    }
    this.cached = { mtimeMs: info.mtimeMs, size: info.size, entries: parsed.data as LinkEntry[] };
    return this.cached.entries;
  }

  async find(media: ScrapeMedia): Promise<LinkEntry[]> {
    return (await this.entries()).filter((e) => e.tmdbId === media.tmdbId && e.type === media.type);
  }
}
