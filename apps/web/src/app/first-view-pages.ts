import type { Namespace } from '../locales/resources.ts';

/**
 * The pages a first visit usually opens, and what each loads beyond the app's own code before it can
 * show: its catalog namespaces (here, which the router and the home route load) and its lazy code
 * (FIRST_VIEW_PAGES). The build writes, per page and language, the files they become
 * (first-view-hints-plugin.ts), and the server names them in the page it sends, so a phone fetches them
 * beside the app's code instead of after it (decision 093). Two tables, so that the app's code carries
 * the namespaces only.
 */
export const FIRST_VIEW_NAMESPACES = {
  discover: ['discover'],
  media: ['player', 'auth', 'history', 'title'],
  landing: ['landing', 'membership', 'media'],
} as const satisfies Record<string, readonly Namespace[]>;

export interface FirstViewPage {
  /** The address, exactly, or every address under it with `prefix`. */
  path: string;
  prefix?: true;
  /** Only on this kind of site. */
  variant?: 'subscription';
  /** Source modules, as the bundler names them. */
  modules: readonly string[];
}

export const FIRST_VIEW_PAGES: Record<keyof typeof FIRST_VIEW_NAMESPACES, FirstViewPage> = {
  discover: { path: '/discover', modules: [] },
  media: { path: '/media/', prefix: true, modules: ['src/app/routes/media-route.tsx'] },
  landing: { path: '/', variant: 'subscription', modules: ['src/features/landing/landing-page.tsx'] },
};
