import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FirstViewFiles, type Variant } from '@marquee/contract';

/** The build's file, or null when it is not what the build writes (the page then goes without hints). */
function readFiles(file: string): FirstViewFiles | null {
  try {
    const parsed = FirstViewFiles.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A built file's name as the build wrote it (never anything to escape in a page). */
const ASSET = /^assets\/[\w.-]+\.js$/;

/**
 * The `<link rel="modulepreload">`s for a page the server is about to send (decision 093): the layout's
 * catalogs in the language the app will start in, and, for the pages a first visit usually opens, their
 * code and catalogs. The browser fetches them while it fetches the app's code, instead of once that
 * code has run and asked for them: a round trip less before a phone shows the page. They are asked for
 * at low priority: nothing of them is needed before the app's code has come and run, so they must not
 * compete with it, nor with the stylesheet the first paint waits for.
 * Without a build (or a build without the file) there are no hints.
 */
export function firstViewHints(
  distDir: string,
): (pathname: string, variant: Variant, language: string) => string {
  const file = path.join(distDir, 'first-view.json');
  const files = existsSync(file) ? readFiles(file) : null;
  if (!files) return () => '';
  return (pathname, variant, language) => {
    const page = files.pages.find(
      (p) =>
        (p.variant === null || p.variant === variant) &&
        (p.prefix ? pathname.startsWith(p.path) : pathname === p.path),
    );
    const names = [files.layout[language], ...(page?.code ?? []), ...(page?.catalogs[language] ?? [])];
    return names
      .filter((name): name is string => name !== undefined && ASSET.test(name))
      .map((name) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="/${name}">`)
      .join('');
  };
}
