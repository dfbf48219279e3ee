import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { firstViewHints } from './first-view-hints.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
/** A build folder holding `content` as its first-view.json (none when undefined). */
function dist(content?: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'marquee-first-view-'));
  dirs.push(dir);
  if (content !== undefined) writeFileSync(path.join(dir, 'first-view.json'), content);
  return dir;
}
const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);

const landing = JSON.stringify({
  layout: { en: 'assets/en-1.js' },
  pages: [
    {
      path: '/',
      prefix: false,
      variant: 'subscription',
      code: ['assets/landing-page-1.js'],
      catalogs: { en: ['assets/landing-en.js'] },
    },
  ],
});

describe('the first view hints', () => {
  it("name a page kept for one kind of site only on that kind: the subscription site's landing", () => {
    const hints = firstViewHints(dist(landing));
    expect(hrefs(hints('/', 'subscription', 'en'))).toEqual([
      '/assets/en-1.js',
      '/assets/landing-page-1.js',
      '/assets/landing-en.js',
    ]);
    expect(hrefs(hints('/', 'discovery', 'en'))).toEqual(['/assets/en-1.js']);
    // A language the build has no catalog for names nothing of it.
    expect(hrefs(hints('/', 'subscription', 'de'))).toEqual(['/assets/landing-page-1.js']);
  });

  it('are none without a build, or with a file that is not what the build writes', () => {
    for (const folder of [dist(), dist('{"layout": 3}'), dist('not json')])
      expect(firstViewHints(folder)('/', 'subscription', 'en')).toBe('');
  });
});
