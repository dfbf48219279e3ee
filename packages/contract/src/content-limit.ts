import { z } from './z.ts';
import { CONTENT_RATING_REGIONS } from './content-ratings.ts';

/**
 * A kids' profile's limit: titles rated for `maxAge` or younger in `region`; titles with no rating there
 * or in the US are hidden unless `showUnrated`.
 */
export const ContentLimit = z.object({
  region: z.enum(CONTENT_RATING_REGIONS),
  maxAge: z.number().int().min(0).max(18),
  showUnrated: z.boolean().default(false),
});
export type ContentLimit = z.infer<typeof ContentLimit>;
