/**
 * Draws the installed app's icons from the app's mark (public/favicon.svg's "M" on the accent square) and
 * writes them to public/: `node --import tsx apps/web/src/pwa/make-icons.ts`. Run once when the mark
 * changes; the PNGs are committed, so builds need no image tools. Chromium renders the SVGs (Debian's,
 * as the e2e suite uses; no image library in the repository draws SVG).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const ACCENT = '#7c3aed';
/** The "M" of favicon.svg, in its 64-unit box: x 16–48, y 18–46. */
const MARK = 'M16 46V18l16 16 16-16v28';

/** `inset`: share of the side the 64-unit drawing takes, centred; `rounded`: the favicon's corners (transparent outside). */
function iconSvg(size: number, { inset, rounded }: { inset: number; rounded: boolean }): string {
  const scale = (size * inset) / 64;
  const offset = (size * (1 - inset)) / 2;
  const background = rounded
    ? `<rect width="${size}" height="${size}" rx="${(size * 14) / 64}" fill="${ACCENT}"/>`
    : `<rect width="${size}" height="${size}" fill="${ACCENT}"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    background +
    `<g transform="translate(${offset} ${offset}) scale(${scale})">` +
    `<path d="${MARK}" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>` +
    `</g></svg>`
  );
}

const ICONS = [
  // "any": the favicon as it is, corners left transparent.
  { file: 'pwa-192.png', size: 192, inset: 1, rounded: true },
  { file: 'pwa-512.png', size: 512, inset: 1, rounded: true },
  // "maskable": the platform cuts its own shape, so the square is full and the mark stays inside the
  // central circle every mask keeps (80% of the side).
  { file: 'pwa-maskable-512.png', size: 512, inset: 0.7, rounded: false },
  // iOS rounds the corners itself and shows transparency as black.
  { file: 'apple-touch-icon.png', size: 180, inset: 0.85, rounded: false },
];

const publicDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../public');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  for (const icon of ICONS) {
    await page.setViewportSize({ width: icon.size, height: icon.size });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${iconSvg(icon.size, icon)}</body></html>`,
    );
    const png = await page.locator('svg').screenshot({ omitBackground: true });
    writeFileSync(path.join(publicDir, icon.file), png);
    console.log(`${icon.file}: ${icon.size}×${icon.size}, ${png.length} bytes`);
  }
} finally {
  await browser.close();
}
