import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** Top-level sections of the English catalog that only lazily loaded screens use (they add them on load). */
export const LAZY_CATALOG_SECTIONS = [
  'player',
  'onboarding',
  // The account screens' sections (src/lib/account-catalog.ts).
  'settings',
  'customer',
  'membership',
  'accountSettings',
  'landing',
  'admin',
  // The info pages' sections (src/lib/info-catalog.ts).
  'about',
  'support',
  'jip',
  'dmca',
];

const ID = 'virtual:first-view-catalog';

/**
 * `virtual:first-view-catalog`: the English catalog without the lazy sections, so the first view
 * does not carry the player's and onboarding's texts (they stay in en.json, the one catalog).
 */
export function firstViewCatalog(): Plugin {
  const file = path.resolve(import.meta.dirname, 'src/locales/en.json');
  return {
    name: 'marquee-first-view-catalog',
    resolveId: (id) => (id === ID ? `\0${ID}` : null),
    load(id) {
      if (id !== `\0${ID}`) return null;
      this.addWatchFile(file);
      const catalog = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      for (const key of LAZY_CATALOG_SECTIONS) delete catalog[key];
      return `export default ${JSON.stringify(catalog)};`;
    },
  };
}
