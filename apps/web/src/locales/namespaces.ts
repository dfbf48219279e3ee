import type { Namespace } from './resources.ts';

/**
 * What every page shows (the header with its search, footer, account menu, banners, errors, the
 * library's notices) and the home page's cards: loaded before the first render.
 */
export const LAYOUT_NAMESPACES = [
  'global',
  'navigation',
  'footer',
  'account',
  'errors',
  'library',
  'screens',
  'home',
  'media',
] as const satisfies readonly Namespace[];
