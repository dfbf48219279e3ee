import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';
import type { FirstViewFiles } from '../../packages/contract/src/first-view.ts';
import { FIRST_VIEW_NAMESPACES, FIRST_VIEW_PAGES } from './src/app/first-view-pages.ts';
import { LAYOUT_NAMESPACES } from './src/locales/namespaces.ts';

const CATALOG = '\0virtual:catalogs/';

/**
 * Writes `first-view.json` beside the built app: for each page of FIRST_VIEW_PAGES and each language,
 * the files that page loads on demand before it can show (decision 093). The server puts them in the
 * page as `<link rel="modulepreload">`, so they come beside the app's code, not after it has run.
 */
export function firstViewHints(): Plugin {
  let root = '';
  return {
    name: 'marquee-first-view-hints',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const byModule = new Map(chunks.flatMap((c) => (c.facadeModuleId ? [[c.facadeModuleId, c]] : [])));
      // What the page's own <script> brings: never named again.
      const loaded = new Set<string>();
      const addLoaded = (file: string) => {
        if (loaded.has(file)) return;
        loaded.add(file);
        for (const i of byFile.get(file)?.imports ?? []) addLoaded(i);
      };
      for (const c of chunks) if (c.isEntry) addLoaded(c.fileName);
      const withImports = (file: string, into = new Set<string>()) => {
        if (loaded.has(file) || into.has(file)) return into;
        into.add(file);
        for (const i of byFile.get(file)?.imports ?? []) withImports(i, into);
        return into;
      };
      const chunkOf = (id: string) => {
        const chunk = byModule.get(id);
        if (!chunk) this.error(`first view: no chunk for ${id}`);
        return chunk.fileName;
      };
      const languages = [...byModule.keys()]
        .filter((id) => id.startsWith(CATALOG))
        .map((id) => id.slice(CATALOG.length))
        .sort();
      const files: FirstViewFiles = {
        layout: Object.fromEntries(languages.map((l) => [l, chunkOf(CATALOG + l)])),
        pages: Object.entries(FIRST_VIEW_PAGES).map(([name, page]) => ({
          path: page.path,
          prefix: page.prefix === true,
          variant: page.variant ?? null,
          code: [...new Set(page.modules.flatMap((m) => [...withImports(chunkOf(path.join(root, m)))]))],
          catalogs: Object.fromEntries(
            languages.map((l) => [
              l,
              FIRST_VIEW_NAMESPACES[name as keyof typeof FIRST_VIEW_NAMESPACES]
                // The layout's are in its chunk (catalogs-plugin.ts).
                .filter((ns) => !(LAYOUT_NAMESPACES as readonly string[]).includes(ns))
                .map((ns) => chunkOf(path.join(root, 'src/locales', l, `${ns}.json`))),
            ]),
          ),
        })),
      };
      this.emitFile({ type: 'asset', fileName: 'first-view.json', source: JSON.stringify(files) });
    },
  };
}
