import { z } from './z.ts';
import { Variant } from './runtime-config.ts';

/**
 * `first-view.json`, which the web build writes (apps/web/first-view-hints-plugin.ts) and the server reads
 * (apps/server/src/modules/web/first-view-hints.ts): per page and language, the files a first visit loads
 * on demand before the page can show (decision 093).
 */
export const FirstViewFiles = z.object({
  /** Per language, the chunk with the layout's catalogs: every page needs it before its first render. */
  layout: z.record(z.string(), z.string()),
  pages: z.array(
    z.object({
      path: z.string(),
      /** Every address under `path`, not only `path`. */
      prefix: z.boolean(),
      /** Only on this kind of site; null on both. */
      variant: Variant.nullable(),
      /** The page's lazy code and what it imports, but not the app's own chunks (the page loads those). */
      code: z.array(z.string()),
      /** Per language, the chunks of the page's catalog namespaces. */
      catalogs: z.record(z.string(), z.array(z.string())),
    }),
  ),
});
export type FirstViewFiles = z.infer<typeof FirstViewFiles>;
