import { createHash } from 'node:crypto';

const escapeXml = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] as string,
  );

/** Splits a title into at most `maxLines` lines of about `width` characters. */
export function wrapTitle(title: string, width = 14, maxLines = 4): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of title.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (candidate.length <= width || !line) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${(kept[maxLines - 1] as string).slice(0, width - 1)}…`;
    return kept;
  }
  return lines;
}

/**
 * A poster drawn for a title of the embedded catalog (no image host is reachable offline): a gradient
 * whose colours derive from the title, the title set large, and the year. 2:3 like TMDB's posters.
 */
export function renderPoster(input: { title: string; year: number | null; kind: 'movie' | 'tv' }): string {
  const hash = createHash('sha1').update(`${input.kind}:${input.title}`).digest();
  const hue = ((hash[0] as number) * 360) / 256;
  const hue2 = (hue + 40 + ((hash[1] as number) % 80)) % 360;
  const lines = wrapTitle(input.title);
  const fontSize = lines.some((l) => l.length > 11) ? 30 : 36;
  const startY = 260 - ((lines.length - 1) * fontSize * 1.15) / 2;
  const text = lines
    .map((l, i) => `<text x="171" y="${(startY + i * fontSize * 1.15).toFixed(1)}">${escapeXml(l)}</text>`)
    .join('');
  // No words beside the title: the poster is the same image for viewers of every language (the card under
  // it says "Movie" or "Show" in theirs). A film strip or a screen marks the kind instead.
  const mark =
    input.kind === 'movie'
      ? '<g fill="rgba(255,255,255,.55)"><rect x="151" y="42" width="40" height="28" rx="3"/><rect x="145" y="46" width="4" height="4"/><rect x="145" y="54" width="4" height="4"/><rect x="145" y="62" width="4" height="4"/><rect x="193" y="46" width="4" height="4"/><rect x="193" y="54" width="4" height="4"/><rect x="193" y="62" width="4" height="4"/></g>'
      : '<g fill="none" stroke="rgba(255,255,255,.55)" stroke-width="3"><rect x="149" y="42" width="44" height="28" rx="3"/><path d="M163 76h16"/></g>';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="342" height="513" viewBox="0 0 342 513" role="img" aria-label="${escapeXml(input.title)}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue.toFixed(0)},55%,32%)"/><stop offset="1" stop-color="hsl(${hue2.toFixed(0)},60%,12%)"/></linearGradient></defs>` +
    `<rect width="342" height="513" fill="url(#g)"/>` +
    `<rect x="16" y="16" width="310" height="481" fill="none" stroke="rgba(255,255,255,.25)" stroke-width="2"/>` +
    `<g fill="#fff" font-family="system-ui,sans-serif" font-weight="700" font-size="${fontSize}" text-anchor="middle">${text}</g>` +
    `<text x="171" y="450" fill="rgba(255,255,255,.75)" font-family="system-ui,sans-serif" font-size="22" text-anchor="middle">${input.year ?? ''}</text>` +
    mark +
    `</svg>`
  );
}
