import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { LAYOUT_NAMESPACES } from './src/locales/namespaces.ts';

const INDEX = 'virtual:catalogs';
const LANGUAGE = 'virtual:catalogs/';

/**
 * The UI catalogs as chunks (docs/decisions/077). `virtual:catalogs` maps each language to a loader of
 * `virtual:catalogs/<language>`: one chunk per language that holds the layout's namespaces
 * (LAYOUT_NAMESPACES, needed before the first render) and a loader per other namespace, each its own
 * chunk. So the first view in any language costs one request beside the app's code, the app's own
 * chunk carries 40 loaders rather than one per file, and a screen's namespaces load when it opens.
 */
export function catalogs(): Plugin {
  const root = path.resolve(import.meta.dirname, 'src/locales');
  const languages = () =>
    readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(path.join(root, d.name, 'global.json')))
      .map((d) => d.name)
      .sort();
  const namespaces = () =>
    readdirSync(path.join(root, 'en'))
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -'.json'.length))
      .sort();
  const file = (language: string, ns: string) => JSON.stringify(path.join(root, language, `${ns}.json`));
  return {
    name: 'marquee-catalogs',
    resolveId: (id) => (id === INDEX || id.startsWith(LANGUAGE) ? `\0${id}` : null),
    load(id) {
      if (id === `\0${INDEX}`) {
        const loaders = languages().map(
          (l) => `  ${JSON.stringify(l)}: () => import(${JSON.stringify(LANGUAGE + l)}),`,
        );
        return [
          `export const namespaces = ${JSON.stringify(namespaces())};`,
          `export default {\n${loaders.join('\n')}\n};`,
        ].join('\n');
      }
      if (!id.startsWith(`\0${LANGUAGE}`)) return null;
      const language = id.slice(`\0${LANGUAGE}`.length);
      const bundled: readonly string[] = LAYOUT_NAMESPACES;
      const lines = bundled.map((ns, i) => `import ns${i} from ${file(language, ns)};`);
      lines.push(
        `export const bundled = { ${bundled.map((ns, i) => `${JSON.stringify(ns)}: ns${i}`).join(', ')} };`,
      );
      const lazy = namespaces().filter((ns) => !bundled.includes(ns));
      lines.push(
        `export const lazy = {\n${lazy.map((ns) => `  ${JSON.stringify(ns)}: () => import(${file(language, ns)}),`).join('\n')}\n};`,
      );
      return lines.join('\n');
    },
  };
}
