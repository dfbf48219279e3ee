import { describe, expect, it } from 'vitest';
import { MOVIE_GENRES, TV_GENRES } from './catalog/catalog.ts';
import { setTitle } from './poster-title.ts';
import { renderBackdrop, renderPoster, type ArtInput } from './posters.ts';

const movie = (title: string, genres: number[], year: number | null = 1999): ArtInput => ({
  title,
  year,
  kind: 'movie',
  genres,
});

/**
 * Checks what an image decoder needs of the XML: every tag closed in order, attribute values quoted,
 * no bare `<` or `&` in text. Returns the problem, or null.
 */
function xmlProblem(svg: string): string | null {
  const open: string[] = [];
  const tag = /<(\/?)([a-zA-Z][\w-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/y;
  let at = 0;
  while (at < svg.length) {
    const lt = svg.indexOf('<', at);
    const text = svg.slice(at, lt === -1 ? svg.length : lt);
    if (/&(?!(amp|lt|gt|quot|apos);)/.test(text)) return `bare & in "${text}"`;
    if (lt === -1) break;
    tag.lastIndex = lt;
    const m = tag.exec(svg);
    if (!m) return `malformed tag at ${svg.slice(lt, lt + 40)}`;
    const [, closing, name, attrs, selfClosing] = m;
    if (/&(?!(amp|lt|gt|quot|apos);)/.test(attrs ?? '')) return `bare & in attributes of <${name}>`;
    if (closing) {
      if (open.pop() !== name) return `</${name}> closes nothing open`;
    } else if (!selfClosing) open.push(name as string);
    at = tag.lastIndex;
  }
  return open.length ? `<${open.join('>, <')}> never closed` : null;
}

/** The lines of the title (the year is the one <text> with its own font size). */
const titleLines = (svg: string) =>
  [...svg.matchAll(/<text x="[^"]*" y="[^"]*">([^<]*)<\/text>/g)].map((m) => m[1] as string);

/** Lightness (%) of the colour the background gradient starts with. */
const skyLightness = (svg: string) =>
  Number(
    /<linearGradient id="\w+sky"[^>]*><stop offset="0" stop-color="hsl\(\d+,\d+%,(\d+)%\)"/.exec(svg)?.[1],
  );

/** The artwork without the title block: what tells one composition from another. */
const art = (svg: string) => svg.replace(/<g fill="[^"]*" font-family=.*$/, '');

/** The drawing's element names in order: two compositions differ in these, not only in numbers. */
const shapes = (svg: string) => [...art(svg).matchAll(/<(\w+)/g)].map((m) => m[1]).join(' ');

describe('renderPoster', () => {
  it('draws the same bytes for the same title, every time', () => {
    const input = movie('The Matrix', [28, 878]);
    expect(renderPoster(input)).toBe(renderPoster({ ...input, genres: [...(input.genres ?? [])] }));
    expect(renderPoster(input)).not.toBe(renderPoster(movie('The Matrix Reloaded', [28, 878])));
  });

  it('is a well-formed 342×513 SVG image named by its title, small, for every genre of the catalog', () => {
    for (const { id, name } of [...MOVIE_GENRES, ...TV_GENRES, { id: 1, name: 'Unknown' }]) {
      for (const title of [name ?? 'Untitled', `The ${name} of Tomorrow`, 'A']) {
        const svg = renderPoster({ title, year: 2001, kind: id > 10000 ? 'tv' : 'movie', genres: [id] });
        expect(xmlProblem(svg), `${name}: ${title}`).toBeNull();
        expect(svg).not.toMatch(/NaN|undefined|Infinity/);
        expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="342" height="513" /);
        expect(svg).toContain(`role="img" aria-label="${title.replace('&', '&amp;')}"`);
        expect(svg.length).toBeLessThan(6 * 1024);
        // No webfont, no linked image: nothing leaves the server.
        expect(svg).not.toMatch(/href=|@import|url\((?!#)/);
      }
    }
  });

  it('has no words but the title and the year', () => {
    const svg = renderPoster(movie('Heat', [80, 18, 53], 1995));
    const words = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]?.toLowerCase());
    expect(words).toEqual(['heat', '1995']);
    expect(renderPoster(movie('Heat', [80], null))).not.toMatch(/<text[^>]*font-size="\d+"[^>]*>/);
  });

  it('escapes the title in the text and in its label', () => {
    const svg = renderPoster(movie(`Tom & Jerry's <"Big"> Day`, [16, 35]));
    expect(xmlProblem(svg)).toBeNull();
    expect(svg).toContain('aria-label="Tom &amp; Jerry&apos;s &lt;&quot;Big&quot;&gt; Day"');
    expect(svg).not.toContain('<"Big">');
    expect(titleLines(svg).join(' ').toLowerCase()).toContain('tom &amp; jerry');
  });

  it('gives each genre its own palette: horror dark, comedy and animation bright', () => {
    const titles = ['Night Shift', 'The Visitor', 'Ashes', 'Last Call', 'Open Water', 'Paper Moon'];
    for (const title of titles) {
      expect(skyLightness(renderPoster(movie(title, [27]))), title).toBeLessThan(20);
      expect(skyLightness(renderPoster(movie(title, [35]))), title).toBeGreaterThan(45);
      expect(skyLightness(renderPoster(movie(title, [16]))), title).toBeGreaterThan(70);
    }
  });

  it('draws one title differently in different genres', () => {
    const genres = [27, 35, 878, 18, 16, 80, 10749, 99, 37, 10752, 14, 28, 10402, 9648, 36];
    const drawings = genres.map((g) => art(renderPoster(movie('The Long Road', [g]))));
    expect(new Set(drawings).size).toBe(genres.length);
    expect(new Set(drawings.map((d) => shapes(d))).size).toBeGreaterThanOrEqual(12);
  });

  it('lets the most telling genre decide: drama with science fiction is science fiction', () => {
    const title = 'Far Away';
    expect(art(renderPoster(movie(title, [18, 878])))).toBe(art(renderPoster(movie(title, [878]))));
    expect(art(renderPoster(movie(title, [35, 18])))).toBe(art(renderPoster(movie(title, [35]))));
  });

  it('varies composition, placement and type between titles of one genre', () => {
    const titles = Array.from({ length: 24 }, (_, i) => `Drama Number ${i + 1}`);
    const posters = titles.map((t) => renderPoster(movie(t, [18])));
    expect(new Set(posters.map(shapes)).size).toBeGreaterThanOrEqual(3);
    const firstLineY = posters.map((p) => Number(/<text x="[^"]*" y="([\d.]+)">/.exec(p)?.[1]));
    expect(Math.min(...firstLineY)).toBeLessThan(150);
    expect(Math.max(...firstLineY)).toBeGreaterThan(350);
    const fonts = new Set(posters.map((p) => /font-family="([^"]*)"/.exec(p)?.[1]));
    expect(fonts.size).toBeGreaterThanOrEqual(2);
    const capitals = posters.filter((p, i) => titleLines(p).join(' ') === titles[i]?.toUpperCase());
    expect(capitals.length).toBeGreaterThan(0);
    expect(capitals.length).toBeLessThan(titles.length);
  });

  it('wraps a long title onto at most four lines, keeping every word when they fit', () => {
    const long = 'Dr. Strangelove or: How I Learned to Stop Worrying and Love the Bomb';
    const lines = titleLines(renderPoster(movie(long, [35, 10752], 1964)));
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.length).toBeLessThanOrEqual(4);
    expect(lines.join(' ').toLowerCase()).toBe(long.toLowerCase());

    const endless = Array.from({ length: 40 }, () => 'Again').join(' ');
    const cut = titleLines(renderPoster(movie(endless, [18])));
    expect(cut).toHaveLength(4);
    expect(cut[3]).toMatch(/…$/);
  });

  it('sets CJK titles, breaking between characters, and Arabic ones centred', () => {
    const cjk = renderPoster(movie('千と千尋の神隠しと不思議な町の長い長い物語', [16]));
    expect(xmlProblem(cjk)).toBeNull();
    const lines = titleLines(cjk);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('')).toBe('千と千尋の神隠しと不思議な町の長い長い物語');

    const arabic = renderPoster(movie('الرسالة', [36, 18], 1976));
    expect(titleLines(arabic)).toEqual(['الرسالة']);
    expect(arabic).toContain('text-anchor="middle"');
  });
});

describe('setTitle', () => {
  it('shrinks a word too long for the line instead of breaking it', () => {
    const { lines, size } = setTitle('Supercalifragilistic', { width: 280, maxHeight: 200, maxSize: 56 });
    expect(lines).toEqual(['Supercalifragilistic']);
    expect(size).toBeLessThan(30);
  });

  it('sets a short title large', () => {
    expect(setTitle('Up', { width: 280, maxHeight: 200, maxSize: 56 })).toMatchObject({
      lines: ['Up'],
      size: 56,
    });
  });
});

describe('renderBackdrop', () => {
  it("is the poster's artwork at 1280×720, without any words", () => {
    const input = movie('Interstellar', [12, 18, 878], 2014);
    const backdrop = renderBackdrop(input);
    expect(backdrop).toBe(renderBackdrop(input));
    expect(xmlProblem(backdrop)).toBeNull();
    expect(backdrop).toMatch(/^<svg [^>]*width="1280" height="720"/);
    expect(backdrop).not.toContain('<text');
    expect(backdrop.length).toBeLessThan(8 * 1024);
    const sky = (svg: string) => /<linearGradient id="\w+sky".*?<\/linearGradient>/.exec(svg)?.[0];
    expect(sky(backdrop)).toBe(sky(renderPoster(input)));
  });
});
