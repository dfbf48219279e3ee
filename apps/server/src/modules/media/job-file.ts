import path from 'node:path';
import { z } from 'zod';

/**
 * A library video as a background job gets it (thumbnails, segment detection): from the server's own
 * index, but the job's data may sit in Redis, so it is checked again before anything reads the file.
 */
export const JobFile = z.object({
  fileId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  path: z
    .string()
    .min(2)
    .max(4096)
    .refine((p) => path.isAbsolute(p) && !p.includes('\0'), 'an absolute path'),
  size: z.number().int().min(0),
  /** Whole milliseconds. */
  mtime: z.number().int().min(0),
  /** Seconds (the probe's). */
  duration: z.number().positive().max(1e7),
});
