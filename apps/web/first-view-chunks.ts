import type { Rolldown } from 'vite';

type ModuleInfo = NonNullable<ReturnType<Rolldown.ChunkingContext['getModuleInfo']>>;

/**
 * A code-splitting group that puts every module the first view loads into one chunk (the entry's),
 * and leaves what only a lazy screen reaches to the bundler.
 *
 * Left to itself the bundler spreads the first view's modules over a dozen small shared chunks, and
 * on a throttled phone each extra request delays the first paint (Lighthouse mobile: 83–92 on
 * `/discover`, 95 with one file). A module is in the first view when a chain of static imports leads
 * to it from an entry.
 */
const isZod = (id: string) =>
  /[\\/]node_modules[\\/]zod[\\/]/.test(id) || /[\\/]packages[\\/]contract[\\/]src[\\/]z\.ts$/.test(id);

/**
 * zod (and the contract's `z.ts`, which sets it up) and the modules that use it at run time (the contract's
 * schemas, the lazy forms' rules) stay out of
 * the first view (lib/api/client.ts imports the contract's types only). The contract's barrel imports
 * every schema module, so the import chain alone would count them in as soon as a lazy screen uses one.
 */
const isSchema = (id: string, info: (id: string) => ModuleInfo | null): boolean =>
  isZod(id) || (info(id)?.importedIds.some(isZod) ?? false);

export function firstViewChunk(): Rolldown.CodeSplittingGroup {
  const known = new Map<string, boolean>();
  const reached = (id: string, info: (id: string) => ModuleInfo | null): boolean => {
    const cached = known.get(id);
    if (cached !== undefined) return cached;
    known.set(id, false); // a cycle is not a path from an entry
    const module = info(id);
    const result =
      !!module && (module.isEntry || module.importers.some((importer) => reached(importer, info)));
    known.set(id, result);
    return result;
  };
  return {
    debugName: 'first-view',
    name: (id, ctx) =>
      !isSchema(id, (m) => ctx.getModuleInfo(m)) && reached(id, (m) => ctx.getModuleInfo(m)) ? 'index' : null,
  };
}
