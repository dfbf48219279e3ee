import { escapeXml, linear, n, type Scene } from './poster-art.ts';
import { FONT_STACK, FONT_WIDTH, TYPE, type Font, type Style } from './poster-styles.ts';

/** A title set on drawn artwork: as large as it fits, on at most four lines, readable over any art. */

const CJK = /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;

/** A character's advance in ems, erring wide so a line never runs off the poster whatever the font. */
function advance(ch: string): number {
  if (CJK.test(ch)) return 1.02;
  if (ch === ' ') return 0.3;
  if (/[iljtf.,:;'!|]/.test(ch)) return 0.34;
  if (/[MWmw@]/.test(ch)) return 0.92;
  if (/[0-9]/.test(ch)) return 0.62;
  if (ch !== ch.toLowerCase()) return 0.72;
  return 0.58;
}

const measure = (text: string, spacing: number, font: Font) =>
  [...text].reduce((sum, ch) => sum + advance(ch) * FONT_WIDTH[font] + spacing, 0);

/** Break opportunities: spaces, and between any two CJK characters (those scripts use no spaces). */
function tokens(text: string): { word: string; space: boolean }[] {
  const out: { word: string; space: boolean }[] = [];
  let space = false;
  let open = false;
  for (const ch of text) {
    if (/\s/.test(ch)) {
      space = out.length > 0;
      open = false;
    } else if (CJK.test(ch) || !open) {
      out.push({ word: ch, space });
      space = false;
      open = !CJK.test(ch);
    } else (out[out.length - 1] as { word: string }).word += ch;
  }
  return out;
}

/** Greedy lines of at most `width` ems; `split` tells that a word longer than a line had to be broken. */
function wrap(text: string, width: number, spacing: number, font: Font): { lines: string[]; split: boolean } {
  const lines: string[] = [];
  let line = '';
  let split = false;
  for (const { word, space } of tokens(text)) {
    const candidate = line ? line + (space ? ' ' : '') + word : word;
    if (measure(candidate, spacing, font) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    for (const ch of word) {
      if (line && measure(line + ch, spacing, font) > width) {
        lines.push(line);
        line = '';
        split = true;
      }
      line += ch;
    }
  }
  if (line) lines.push(line);
  return { lines, split };
}

export const MAX_TITLE_LINES = 4;

/**
 * The largest size (from `maxSize` down) at which the title fits in `width` px on at most four lines
 * and a block no taller than `maxHeight`; at the smallest size a title still too long ends in "…".
 */
export function setTitle(
  title: string,
  {
    width,
    maxHeight,
    maxSize,
    spacing = 0,
    font = 'sans',
  }: { width: number; maxHeight: number; maxSize: number; spacing?: number; font?: Font },
): { lines: string[]; size: number; truncated: boolean } {
  const minSize = 20;
  for (let size = maxSize; size >= minSize; size -= 2) {
    const { lines, split } = wrap(title, width / size, spacing, font);
    if (!split && lines.length <= MAX_TITLE_LINES && lines.length * size * 1.08 <= maxHeight) {
      return { lines, size, truncated: false };
    }
  }
  const { lines } = wrap(title, width / minSize, spacing, font);
  if (lines.length <= MAX_TITLE_LINES) return { lines, size: minSize, truncated: false };
  const kept = lines.slice(0, MAX_TITLE_LINES);
  let last = kept[MAX_TITLE_LINES - 1] as string;
  while (last && measure(`${last}…`, spacing, font) > width / minSize) last = [...last].slice(0, -1).join('');
  kept[MAX_TITLE_LINES - 1] = `${last.trimEnd()}…`;
  return { lines: kept, size: minSize, truncated: true };
}

export type Placement = 'top' | 'middle' | 'bottom';

/** The title block, with what keeps it readable behind it (scrim gradient or a solid band). */
export function titleBlock(
  s: Scene,
  input: { title: string; year: number | null },
  style: Style,
  place: Placement,
): string {
  const type = TYPE[style];
  const font = type.fonts[Math.floor(s.rnd() * type.fonts.length)] as Font;
  const rtl = RTL.test(input.title);
  const capitals = s.rnd() < type.upper && !CJK.test(input.title);
  // Capitals set light and spaced read as a different poster from heavy lower case of the same genre.
  const light = s.rnd() < 0.3;
  const margin = s.w * 0.09;
  const band = type.backing === 'band';
  const pad = band ? 22 : 0;
  const set = (upper: boolean) => {
    const spacing = upper ? (light ? 0.12 : 0.04) : 0;
    const text = upper ? input.title.toUpperCase() : input.title;
    const fit = setTitle(text, {
      width: s.w - margin * 2 - pad * 2,
      maxHeight: s.h * 0.36,
      maxSize: light ? 44 : 56,
      spacing,
      font,
    });
    return { ...fit, spacing };
  };
  // A title too long for capitals gets more of itself on the poster in lower case.
  let setting = set(capitals);
  if (setting.truncated && capitals) setting = set(false);
  const { lines, size, spacing } = setting;
  const lead = size * 1.08;
  const yearSize = Math.max(14, Math.round(size * 0.36));
  const yearGap = input.year ? yearSize * 1.9 : 0;
  const blockH = lines.length * lead + yearGap;
  const edge = s.h * 0.08;
  const top =
    place === 'top' ? edge + pad : place === 'bottom' ? s.h - edge - pad - blockH : (s.h - blockH) / 2;
  const align = rtl || band || s.rnd() < 0.55 ? 'middle' : 'start';
  const x = align === 'middle' ? s.w / 2 : margin + pad;
  const ink = s.c(s.p.ink);

  let backing: string;
  if (band) {
    const tilt = style === 'comedy' ? n(s.between(-4, 4)) : 0;
    backing = `<rect x="${n(margin * 0.6)}" y="${n(top - pad)}" width="${n(s.w - margin * 1.2)}" height="${n(blockH + pad * 2 - lead * 0.08)}" rx="${style === 'documentary' ? 0 : 16}" fill="${ink}"${tilt ? ` transform="rotate(${tilt} ${n(s.w / 2)} ${n(top + blockH / 2)})"` : ''}/>`;
  } else if (place === 'middle') {
    const reach = blockH + 150;
    const edgeStop = n(70 / reach);
    const fill = linear(s, 'scrim', [
      [0, ink, 0],
      [edgeStop, ink, 0.8],
      [1 - edgeStop, ink, 0.8],
      [1, ink, 0],
    ]);
    backing = `<rect y="${n(top - 75)}" width="${s.w}" height="${n(reach)}" fill="${fill}"/>`;
  } else {
    // Solid over the block, fading out beyond it: the art shows, the letters keep their contrast.
    const reach = blockH + edge + 90;
    const solid = n((blockH + edge + 16) / reach);
    const fill = linear(
      s,
      'scrim',
      place === 'top'
        ? [
            [0, ink, 0.88],
            [solid, ink, 0.78],
            [1, ink, 0],
          ]
        : [
            [0, ink, 0],
            [1 - solid, ink, 0.78],
            [1, ink, 0.88],
          ],
    );
    backing = `<rect y="${place === 'top' ? 0 : n(s.h - reach)}" width="${s.w}" height="${n(reach)}" fill="${fill}"/>`;
  }

  const first = top + size * 0.84;
  const rows = lines
    .map((line, i) => `<text x="${n(x)}" y="${n(first + i * lead)}">${escapeXml(line)}</text>`)
    .join('');
  const year = input.year
    ? `<text x="${n(x)}" y="${n(top + lines.length * lead + yearSize * 1.3)}" font-size="${yearSize}" font-weight="500" font-style="normal" letter-spacing="${n(yearSize * 0.25)}" opacity=".8">${input.year}</text>`
    : '';
  return (
    backing +
    `<g fill="${s.c(s.p.text)}" font-family="${FONT_STACK[font]}" font-size="${size}" font-weight="${light ? 400 : 700}"${type.italic && !light ? ' font-style="italic"' : ''}${spacing ? ` letter-spacing="${n(size * spacing)}"` : ''} text-anchor="${align}">${rows}${year}</g>`
  );
}
