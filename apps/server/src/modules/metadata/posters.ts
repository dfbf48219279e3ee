import { createHash } from 'node:crypto';
import { COMPOSE, color, escapeXml, type Scene } from './poster-art.ts';
import { PALETTES, styleOf, type Palette } from './poster-styles.ts';
import { titleBlock, type Placement } from './poster-title.ts';

/**
 * Artwork drawn for the titles of the embedded catalog (no image host is reachable offline). The title's
 * genres choose a style — composition, palette, typeface — and a hash of the title varies everything
 * within it (shape sizes and positions, hue, where the title sits, serif or sans, case), so two dramas do
 * not look alike. Pure and deterministic: the same title gives the same bytes, which the image cache and
 * the browser's `immutable` cache rely on. The only words are the title and the year: the image is the
 * same for viewers of every language.
 */

export interface ArtInput {
  title: string;
  year: number | null;
  kind: 'movie' | 'tv';
  /** TMDB genre ids, most telling first or not: the style picks by its own precedence. */
  genres?: readonly number[];
}

export const POSTER_WIDTH = 342;
export const POSTER_HEIGHT = 513;
export const BACKDROP_WIDTH = 1280;
export const BACKDROP_HEIGHT = 720;

/** mulberry32: a tiny seeded generator, so every choice below follows from the title's hash. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Everything a drawing of `input` decides from its hash. A poster and a backdrop of one title draw the
 * same choices in the same order, so the backdrop is the poster's artwork, wider and without the title.
 */
function scene(input: ArtInput, w: number, h: number) {
  const hash = createHash('sha1')
    .update(`${input.kind}:${input.title}:${input.year ?? ''}`)
    .digest();
  const rnd = generator(hash.readUInt32LE(0));
  const style = styleOf(input.genres ?? [], rnd());
  const place = (['bottom', 'bottom', 'top', 'middle'] as const)[Math.floor(rnd() * 4)] as Placement;
  const palettes = PALETTES[style];
  const p = palettes[Math.floor(rnd() * palettes.length)] as Palette;
  // Bright styles take any hue near theirs; the dark ones keep close to the colours that say their genre.
  const shift = (rnd() - 0.5) * (style === 'comedy' || style === 'animation' || style === 'music' ? 80 : 28);
  const prefix = `a${hash.toString('hex').slice(0, 6)}`;
  const between = (lo: number, hi: number) => lo + rnd() * (hi - lo);
  // The main shape sits where the poster's title is not.
  const focusY =
    place === 'top'
      ? h * between(0.52, 0.62)
      : place === 'bottom'
        ? h * between(0.26, 0.38)
        : h * between(0.24, 0.34);
  const s: Scene = {
    w,
    h,
    u: h * (POSTER_WIDTH / POSTER_HEIGHT),
    rnd,
    between,
    p,
    c: (hsl) => color(hsl, shift),
    id: (name) => `${prefix}${name}`,
    focus: { x: w * between(0.3, 0.7), y: focusY },
    defs: [],
  };
  return { s, style, place };
}

const svg = (size: [number, number], view: [number, number], label: string, defs: string[], body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size[0]}" height="${size[1]}" viewBox="0 0 ${view[0]} ${view[1]}" role="img" aria-label="${escapeXml(label)}">` +
  (defs.length ? `<defs>${defs.join('')}</defs>` : '') +
  body +
  `</svg>`;

/** A title's poster (342×513, TMDB's w342 shape): its genre's artwork with the title and year set on it. */
export function renderPoster(input: ArtInput): string {
  const { s, style, place } = scene(input, POSTER_WIDTH, POSTER_HEIGHT);
  const art = COMPOSE[style](s);
  const title = titleBlock(s, input, style, place);
  const size: [number, number] = [POSTER_WIDTH, POSTER_HEIGHT];
  return svg(size, size, input.title, s.defs, art + title);
}

/** A title's backdrop (1280×720, TMDB's w1280 shape): the same artwork as its poster, wide, without words. */
export function renderBackdrop(input: ArtInput): string {
  // Drawn on a canvas as tall as a poster, so strokes and stars keep the poster's weights when scaled up.
  const view: [number, number] = [
    Math.round((POSTER_HEIGHT * BACKDROP_WIDTH) / BACKDROP_HEIGHT),
    POSTER_HEIGHT,
  ];
  const { s, style } = scene(input, view[0], view[1]);
  return svg([BACKDROP_WIDTH, BACKDROP_HEIGHT], view, input.title, s.defs, COMPOSE[style](s));
}
