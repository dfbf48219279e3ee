import type { Hsl, Palette, Style } from './poster-styles.ts';

/** The shapes of drawn artwork: one composition per style, and the SVG helpers they share. */

/** Short numbers keep the SVG small (a poster is a few KB). */
export const n = (v: number) => Math.round(v * 10) / 10;

export const color = ([h, s, l]: Hsl, shift = 0) => `hsl(${Math.round((h + shift + 360) % 360)},${s}%,${l}%)`;

export const escapeXml = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] as string,
  );

/** What a composition draws with. `focus` is where its main shape goes: away from the title. */
export interface Scene {
  w: number;
  h: number;
  /** The unit shapes are sized in: the width of a poster as tall as this drawing (the width on a poster). */
  u: number;
  rnd: () => number;
  /** A number in [lo, hi). */
  between: (lo: number, hi: number) => number;
  p: Palette;
  /** The palette's colours with this title's hue shift. */
  c: (hsl: Hsl) => string;
  id: (name: string) => string;
  focus: { x: number; y: number };
  /** Extra <defs> content. */
  defs: string[];
}

/** A circle; without `fill` it takes its group's. */
const circle = (x: number, y: number, r: number, fill?: string, extra = '') =>
  `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}"${fill ? ` fill="${fill}"` : ''}${extra}/>`;

const poly = (points: [number, number][], fill: string, extra = '') =>
  `<path d="M${points.map(([x, y]) => `${n(x)} ${n(y)}`).join('L')}Z" fill="${fill}"${extra}/>`;

/** A smooth band across the width whose top edge waves around `y`, filled down to `bottom`. */
function wave(s: Scene, y: number, amp: number, waves: number, bottom: number): string {
  const step = s.w / (waves * 2);
  let d = `M0 ${n(y)}Q${n(step / 2)} ${n(y - amp * (s.rnd() + 0.4))} ${n(step)} ${n(y)}`;
  for (let x = step * 2; x <= s.w + 0.5; x += step) d += `T${n(x)} ${n(y + (s.rnd() - 0.5) * amp * 0.6)}`;
  return `${d}V${n(bottom)}H0Z`;
}

/** A jagged ridge across the width around `y` (peaks up to `amp` above it), filled down to the bottom. */
function ridge(s: Scene, y: number, amp: number, peaks: number): [number, number][] {
  const points: [number, number][] = [[0, s.h]];
  for (let i = 0; i <= peaks * 2; i++) {
    const x = (s.w * i) / (peaks * 2) + (i % (peaks * 2) ? s.between(-0.3, 0.3) * (s.w / peaks / 2) : 0);
    points.push([x, i % 2 ? y - amp * s.between(0.45, 1) : y + amp * s.between(0, 0.25)]);
  }
  points.push([s.w, s.h]);
  return points;
}

/** A person seen from afar: head and long coat, `size` tall, standing on `(x, y)`. */
const figure = (x: number, y: number, size: number, fill: string) =>
  `<path d="M${n(x - size * 0.11)} ${n(y)}L${n(x - size * 0.16)} ${n(y - size * 0.62)}Q${n(x)} ${n(y - size * 0.86)} ${n(x + size * 0.16)} ${n(y - size * 0.62)}L${n(x + size * 0.11)} ${n(y)}Z" fill="${fill}"/>` +
  circle(x, y - size * 0.88, size * 0.11, fill);

export function linear(s: Scene, name: string, stops: [number, string, number?][], x2 = 0, y2 = 1): string {
  s.defs.push(
    `<linearGradient id="${s.id(name)}" x1="0" y1="0" x2="${x2}" y2="${y2}">` +
      stops
        .map(
          ([o, col, a]) =>
            `<stop offset="${n(o)}" stop-color="${col}"${a === undefined ? '' : ` stop-opacity="${a}"`}/>`,
        )
        .join('') +
      `</linearGradient>`,
  );
  return `url(#${s.id(name)})`;
}

function radial(s: Scene, name: string, stops: [number, string, number][], cx = 0.5, cy = 0.5, r = 0.5) {
  s.defs.push(
    `<radialGradient id="${s.id(name)}" cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}">` +
      stops
        .map(([o, col, a]) => `<stop offset="${n(o)}" stop-color="${col}" stop-opacity="${a}"/>`)
        .join('') +
      `</radialGradient>`,
  );
  return `url(#${s.id(name)})`;
}

/** A soft light: a disc of `colour` fading from `alpha` at its centre to nothing at its edge. */
const glow = (s: Scene, x: number, y: number, r: number, colour: string, alpha: number) =>
  circle(
    x,
    y,
    r,
    radial(s, 'g', [
      [0, colour, alpha],
      [1, colour, 0],
    ]),
  );

const sky = (s: Scene) =>
  `<rect width="${s.w}" height="${s.h}" fill="${linear(s, 'sky', [
    [0, s.c(s.p.sky[0])],
    [1, s.c(s.p.sky[1])],
  ])}"/>`;

const shape = (s: Scene, i: number) => s.c(s.p.shapes[i % s.p.shapes.length] as Hsl);

/** The compositions, one per style: each returns the art under the title. */
export const COMPOSE: Record<Style, (s: Scene) => string> = {
  horror(s) {
    const vignette = radial(
      s,
      'v',
      [
        [0.5, '#000', 0],
        [1, '#000', 0.9],
      ],
      0.5,
      0.45,
      0.75,
    );
    const variant = s.rnd();
    let art: string;
    if (variant < 0.4) {
      // A blood moon over a thicket of thorns.
      const r = s.u * s.between(0.2, 0.32);
      art =
        circle(s.focus.x, s.focus.y, r * 1.5, shape(s, 0), ' opacity=".18"') +
        circle(s.focus.x, s.focus.y, r, shape(s, 0)) +
        poly(ridge(s, s.h * s.between(0.7, 0.8), s.h * 0.22, Math.round(s.between(5, 9))), shape(s, 1)) +
        poly(ridge(s, s.h * s.between(0.82, 0.9), s.h * 0.3, Math.round(s.between(7, 13))), s.c(s.p.ink));
    } else if (variant < 0.7) {
      // Dripping from the top edge, and glass shattered around a point.
      let drips = `M0 0H${s.w}V${n(s.h * 0.06)}`;
      for (let x = s.w; x > 0;) {
        const wd = s.between(10, 26);
        const len = s.between(0.02, 0.3) * s.h;
        drips += `L${n(x - 2)} ${n(s.h * 0.06)}V${n(s.h * 0.06 + len)}a${n(wd / 2 - 2)} ${n(wd / 2 - 2)} 0 0 1 ${n(-(wd - 4))} 0V${n(s.h * 0.06)}`;
        x -= wd + s.between(4, 30);
      }
      drips += `L0 ${n(s.h * 0.06)}Z`;
      const cracks = Array.from({ length: 9 }, (_, i) => {
        const a = (i / 9) * Math.PI * 2 + s.rnd() * 0.4;
        const len = s.u * s.between(0.25, 0.7);
        const bend = s.between(-0.25, 0.25);
        return `M${n(s.focus.x)} ${n(s.focus.y)}L${n(s.focus.x + Math.cos(a) * len * 0.5)} ${n(s.focus.y + Math.sin(a) * len * 0.5)}L${n(s.focus.x + Math.cos(a + bend) * len)} ${n(s.focus.y + Math.sin(a + bend) * len)}`;
      }).join('');
      art =
        glow(s, s.focus.x, s.focus.y, s.u * 0.4, shape(s, 1), 0.9) +
        `<path d="${cracks}" fill="none" stroke="${shape(s, 2)}" stroke-width="1.3" opacity=".7"/>` +
        `<path d="${drips}" fill="${shape(s, 0)}"/>`;
    } else {
      // The house on the hill: one lit window, a dead tree.
      const hill = s.h * s.between(0.66, 0.74);
      const hx = s.between(s.w * 0.2, s.w * 0.55);
      const hw = s.u * s.between(0.22, 0.3);
      const roof = hill - hw * 0.9;
      const house =
        poly(
          [
            [hx, hill],
            [hx, roof + hw * 0.35],
            [hx + hw / 2, roof - hw * 0.15],
            [hx + hw, roof + hw * 0.35],
            [hx + hw, hill],
          ],
          s.c(s.p.ink),
        ) +
        `<rect x="${n(hx + hw * 0.4)}" y="${n(roof + hw * 0.45)}" width="${n(hw * 0.2)}" height="${n(hw * 0.24)}" fill="${shape(s, 2)}"/>`;
      const tx = hx + hw + s.between(20, s.w - hx - hw - 10);
      let tree = `M${n(tx)} ${n(hill)}V${n(hill - s.h * 0.22)}`;
      for (let i = 0; i < 5; i++) {
        const y = hill - s.h * s.between(0.08, 0.2);
        tree += `M${n(tx)} ${n(y)}l${n(s.between(-40, 40))} ${n(-s.between(15, 45))}`;
      }
      art =
        circle(
          s.w - s.focus.x,
          s.focus.y - s.h * 0.08,
          s.u * s.between(0.08, 0.13),
          shape(s, 2),
          ' opacity=".9"',
        ) +
        `<path d="${wave(s, hill, s.h * 0.03, 1, s.h)}" fill="${s.c(s.p.ink)}"/>` +
        house +
        `<path d="${tree}" stroke="${s.c(s.p.ink)}" stroke-width="3" stroke-linecap="round"/>`;
    }
    return sky(s) + art + `<rect width="${s.w}" height="${s.h}" fill="${vignette}"/>`;
  },

  comedy(s) {
    const big = circle(s.focus.x, s.focus.y, s.u * s.between(0.3, 0.46), shape(s, 0));
    const variant = s.rnd();
    if (variant < 0.4) {
      // Confetti: dots and rings of every size.
      const confetti = Array.from({ length: Math.round(s.between(10, 16)) }, (_, i) => {
        const r = s.u * s.between(0.015, 0.09);
        const x = s.between(0, s.w);
        const y = s.between(0, s.h);
        return i % 4 === 3
          ? circle(x, y, r, 'none', ` stroke="${shape(s, 1 + (i % 3))}" stroke-width="${n(r / 3)}"`)
          : circle(x, y, r, shape(s, 1 + (i % 3)));
      }).join('');
      return sky(s) + big + circle(s.focus.x, s.focus.y, s.u * 0.12, shape(s, 1)) + confetti;
    }
    if (variant < 0.7) {
      // Candy stripes with a ball bouncing on them.
      const gap = s.between(34, 56);
      let stripes = '';
      for (let x = -s.h; x < s.w + s.h; x += gap * 2)
        stripes += `M${n(x)} 0h${n(gap)}l${s.h} ${s.h}h${n(-gap)}Z`;
      return (
        sky(s) +
        `<path d="${stripes}" fill="${shape(s, 3)}" opacity=".35"/>` +
        big +
        circle(s.focus.x + s.u * 0.22, s.focus.y - s.u * 0.2, s.u * 0.1, shape(s, 1)) +
        circle(s.focus.x - s.u * 0.3, s.focus.y + s.u * 0.3, s.u * 0.06, shape(s, 2))
      );
    }
    // Polka dots (one tile of a pattern, a few bytes however many dots), a big one off-centre.
    const step = n(s.between(30, 44));
    const r = step * s.between(0.12, 0.22);
    s.defs.push(
      `<pattern id="${s.id('dots')}" width="${step}" height="${step}" patternUnits="userSpaceOnUse">` +
        circle(step / 4, step / 4, r, shape(s, 3)) +
        circle((step * 3) / 4, (step * 3) / 4, r, shape(s, 3)) +
        `</pattern>`,
    );
    return (
      sky(s) +
      `<rect width="${s.w}" height="${s.h}" fill="url(#${s.id('dots')})" opacity=".5"/>` +
      big +
      circle(s.focus.x + s.u * 0.15, s.focus.y + s.u * 0.12, s.u * 0.18, shape(s, 2))
    );
  },

  scifi(s) {
    const stars = Array.from({ length: 26 }, () =>
      circle(
        s.between(0, s.w),
        s.between(0, s.h * 0.7),
        s.between(0.5, 1.7),
        '#fff',
        ` opacity="${n(s.between(0.3, 0.9))}"`,
      ),
    ).join('');
    const { x, y } = s.focus;
    const variant = s.rnd();
    if (variant < 0.4) {
      // A ringed planet over a neon grid.
      const r = s.u * s.between(0.16, 0.3);
      const planet = circle(
        x,
        y,
        r,
        linear(
          s,
          'pl',
          [
            [0, shape(s, 0)],
            [1, shape(s, 1)],
          ],
          1,
          1,
        ),
      );
      const ring = `<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(r * 1.9)}" ry="${n(r * 0.42)}" fill="none" stroke="${shape(s, 0)}" stroke-width="3" opacity=".75" transform="rotate(${n(s.between(-24, 24))} ${n(x)} ${n(y)})"/>`;
      const moon = circle(
        x + r * s.between(1.4, 2.2) * (s.rnd() < 0.5 ? -1 : 1),
        y - r * s.between(0.6, 1.2),
        r * 0.18,
        shape(s, 2),
      );
      const horizon = s.h * s.between(0.7, 0.8);
      let grid = '';
      for (let i = 1; i <= 6; i++) grid += `M0 ${n(horizon + (s.h - horizon) * (i / 6) ** 2)}H${s.w}`;
      for (let i = -6; i <= 6; i++)
        grid += `M${n(s.w / 2)} ${n(horizon)}L${n(s.w / 2 + i * s.w * 0.22)} ${s.h}`;
      const glow = linear(s, 'hz', [
        [0, shape(s, 0), 0],
        [1, shape(s, 0), 0.35],
      ]);
      return (
        sky(s) +
        stars +
        `<rect y="${n(horizon - s.h * 0.12)}" width="${s.w}" height="${n(s.h * 0.12)}" fill="${glow}"/>` +
        `<rect y="${n(horizon)}" width="${s.w}" height="${n(s.h - horizon)}" fill="${s.c(s.p.ink)}"/>` +
        `<path d="${grid}" stroke="${shape(s, 0)}" stroke-width="1.2" opacity=".45"/>` +
        planet +
        ring +
        moon
      );
    }
    if (variant < 0.7) {
      // A gate of light, and someone small in front of it.
      const r = s.u * s.between(0.22, 0.32);
      const rings = Array.from({ length: 4 }, (_, i) =>
        circle(
          x,
          y,
          r * (1 - i * 0.18),
          'none',
          ` stroke="${shape(s, i % 2 ? 2 : 0)}" stroke-width="${n(4 - i * 0.7)}" opacity="${n(0.9 - i * 0.18)}"`,
        ),
      ).join('');
      const ground = s.h * s.between(0.78, 0.86);
      return (
        sky(s) +
        stars +
        glow(s, x, y, r * 2, shape(s, 0), 0.5) +
        rings +
        poly(ridge(s, ground, s.h * 0.05, 4), s.c(s.p.ink)) +
        figure(x, ground - 2, s.h * 0.06, s.c(s.p.ink))
      );
    }
    // The curve of a huge planet under a thin glowing atmosphere, a moon rising.
    const R = s.w * s.between(1.1, 1.8);
    const cy = s.h * s.between(0.78, 0.88) + R;
    const cx = s.w * s.between(0.2, 0.8);
    return (
      sky(s) +
      stars +
      circle(x, y, s.u * s.between(0.05, 0.09), shape(s, 2)) +
      circle(cx, cy, R + 14, shape(s, 0), ' opacity=".25"') +
      circle(cx, cy, R + 4, shape(s, 0), ' opacity=".6"') +
      circle(
        cx,
        cy,
        R,
        linear(s, 'pl', [
          [0, shape(s, 1)],
          [0.3, s.c(s.p.ink)],
        ]),
      )
    );
  },

  drama(s) {
    const variant = s.rnd();
    if (variant < 0.4) {
      // A low sun, two hills, someone on the nearer one.
      const sun = circle(s.focus.x, s.focus.y, s.u * s.between(0.26, 0.4), shape(s, 0), ' opacity=".9"');
      const far = `<path d="${wave(s, s.h * s.between(0.6, 0.68), s.h * 0.06, 1.5, s.h)}" fill="${shape(s, 1)}"/>`;
      const nearY = s.h * s.between(0.74, 0.82);
      const near = `<path d="${wave(s, nearY, s.h * 0.05, 1, s.h)}" fill="${shape(s, 2)}"/>`;
      const who =
        s.rnd() < 0.7
          ? figure(s.between(s.w * 0.2, s.w * 0.8), nearY + 4, s.h * s.between(0.07, 0.11), shape(s, 2))
          : '';
      return sky(s) + sun + far + who + near;
    }
    if (variant < 0.7) {
      // The sea at dusk: the sun on the horizon and its broken reflection.
      const horizon = s.h * s.between(0.52, 0.64);
      const r = s.u * s.between(0.16, 0.26);
      const sx = s.focus.x;
      let glints = '';
      for (let i = 0; i < 9; i++) {
        const gy = horizon + 8 + i * ((s.h - horizon) / 10);
        const gw = r * 2 * (1 - i / 12) * s.between(0.4, 1);
        glints += `<rect x="${n(sx - gw / 2 + s.between(-8, 8))}" y="${n(gy)}" width="${n(gw)}" height="${n(2 + i * 0.4)}" rx="1"/>`;
      }
      return (
        sky(s) +
        circle(sx, horizon, r, shape(s, 0)) +
        `<rect y="${n(horizon)}" width="${s.w}" height="${n(s.h - horizon)}" fill="${shape(s, 2)}"/>` +
        `<g fill="${shape(s, 0)}" opacity=".55">${glints}</g>`
      );
    }
    // A figure against a bright window in a dark room.
    const ww = s.u * s.between(0.34, 0.5);
    const wh = ww * s.between(1.2, 1.6);
    const wx = s.focus.x - ww / 2;
    const wy = s.focus.y - wh / 2;
    const floor = wy + wh + s.h * 0.1;
    return (
      `<rect width="${s.w}" height="${s.h}" fill="${shape(s, 2)}"/>` +
      poly(
        [
          [wx, wy + wh],
          [wx + ww, wy + wh],
          [wx + ww + s.w * 0.5, s.h],
          [wx - s.w * 0.3, s.h],
        ],
        shape(s, 0),
        ' opacity=".18"',
      ) +
      `<rect x="${n(wx)}" y="${n(wy)}" width="${n(ww)}" height="${n(wh)}" fill="${linear(s, 'sky', [
        [0, s.c(s.p.sky[0])],
        [1, shape(s, 0)],
      ])}"/>` +
      `<path d="M${n(wx + ww / 2)} ${n(wy)}V${n(wy + wh)}M${n(wx)} ${n(wy + wh * 0.45)}H${n(wx + ww)}" stroke="${shape(s, 2)}" stroke-width="6"/>` +
      figure(wx + ww * s.between(0.25, 0.75), Math.min(floor, s.h), wh * 0.9, s.c(s.p.ink))
    );
  },

  history(s) {
    // Columns and an arch of a public building, in sepia: the past, without a word.
    const base = s.h * s.between(0.72, 0.8);
    const count = Math.round(s.between(4, 7));
    const span = s.w * s.between(0.7, 0.95);
    const left = (s.w - span) / 2;
    const colW = (span / count) * 0.42;
    const top = base - s.h * s.between(0.24, 0.34);
    let cols = '';
    for (let i = 0; i < count; i++) {
      const x = left + (span / count) * (i + 0.5) - colW / 2;
      cols += `<rect x="${n(x)}" y="${n(top)}" width="${n(colW)}" height="${n(base - top)}"/>`;
    }
    const roof = poly(
      [
        [left - 10, top],
        [s.w / 2, top - s.h * s.between(0.07, 0.12)],
        [left + span + 10, top],
      ],
      shape(s, 2),
    );
    return (
      sky(s) +
      circle(s.focus.x, s.focus.y, s.u * s.between(0.22, 0.34), shape(s, 0), ' opacity=".55"') +
      roof +
      `<rect x="${n(left - 10)}" y="${n(top)}" width="${n(span + 20)}" height="8" fill="${shape(s, 2)}"/>` +
      `<g fill="${shape(s, 1)}">${cols}</g>` +
      `<rect y="${n(base)}" width="${s.w}" height="${n(s.h - base)}" fill="${shape(s, 2)}"/>`
    );
  },

  animation(s) {
    const hills = [0.68, 0.78]
      .map(
        (y, i) =>
          `<ellipse cx="${n(s.w * s.between(0.1, 0.9))}" cy="${n(s.h * (y + 0.25))}" rx="${n(s.w * s.between(0.6, 0.9))}" ry="${n(s.h * 0.3)}" fill="${shape(s, 1 + i)}"/>`,
      )
      .join('');
    const cloud = (x: number, y: number, k: number) =>
      `<g fill="#fff" opacity=".9">${circle(x, y, 18 * k)}${circle(x + 22 * k, y - 10 * k, 24 * k)}${circle(x + 46 * k, y, 18 * k)}<rect x="${n(x)}" y="${n(y)}" width="${n(46 * k)}" height="${n(18 * k)}"/></g>`;
    const variant = s.rnd();
    if (variant < 0.4) {
      // A storybook sky: sun, clouds, rolling hills.
      const sun = circle(s.focus.x, s.focus.y, s.u * s.between(0.14, 0.22), shape(s, 0));
      const clouds =
        cloud(s.between(-10, s.w * 0.5), s.between(s.h * 0.1, s.h * 0.45), s.between(0.8, 1.5)) +
        cloud(s.between(s.w * 0.4, s.w * 0.85), s.between(s.h * 0.15, s.h * 0.5), s.between(0.6, 1.1));
      const dots = Array.from({ length: 6 }, (_, i) =>
        circle(
          s.between(0, s.w),
          s.between(s.h * 0.05, s.h * 0.6),
          s.between(3, 7),
          shape(s, i % 3),
          ' opacity=".8"',
        ),
      ).join('');
      return sky(s) + sun + dots + clouds + hills;
    }
    if (variant < 0.7) {
      // Balloons rising on their strings.
      const balloons = Array.from({ length: Math.round(s.between(3, 6)) }, (_, i) => {
        const bx = s.focus.x + s.between(-0.32, 0.32) * s.u;
        const by = s.focus.y + s.between(-0.14, 0.1) * s.h;
        const r = s.u * s.between(0.07, 0.12);
        return (
          `<path d="M${n(bx)} ${n(by + r * 1.2)}q${n(s.between(-14, 14))} ${n(r * 1.5)} ${n(s.between(-10, 10))} ${n(r * 3.2)}" fill="none" stroke="${s.c(s.p.ink)}" stroke-width="1.2" opacity=".5"/>` +
          `<ellipse cx="${n(bx)}" cy="${n(by)}" rx="${n(r)}" ry="${n(r * 1.2)}" fill="${shape(s, i)}"/>` +
          `<ellipse cx="${n(bx - r * 0.35)}" cy="${n(by - r * 0.45)}" rx="${n(r * 0.18)}" ry="${n(r * 0.3)}" fill="#fff" opacity=".6"/>`
        );
      }).join('');
      return (
        sky(s) +
        cloud(s.between(0, s.w * 0.6), s.between(s.h * 0.05, s.h * 0.25), s.between(0.6, 1)) +
        hills +
        balloons
      );
    }
    // Toy shapes tumbling: a star, a block, a ring.
    const { x, y } = s.focus;
    const star = (cx: number, cy: number, r: number, turn: number) =>
      poly(
        Array.from({ length: 10 }, (_, i): [number, number] => {
          const a = turn + (i * Math.PI) / 5 - Math.PI / 2;
          const k = i % 2 ? r * 0.5 : r;
          return [cx + Math.cos(a) * k, cy + Math.sin(a) * k];
        }),
        shape(s, 0),
        ` stroke="${shape(s, 0)}" stroke-width="${n(r * 0.3)}" stroke-linejoin="round"`,
      );
    const bw = s.u * s.between(0.18, 0.26);
    return (
      sky(s) +
      hills +
      `<rect x="${n(x - s.u * 0.34)}" y="${n(y + s.h * 0.02)}" width="${n(bw)}" height="${n(bw)}" rx="${n(bw * 0.22)}" fill="${shape(s, 2)}" transform="rotate(${n(s.between(-20, 20))} ${n(x - s.u * 0.34 + bw / 2)} ${n(y + s.h * 0.02 + bw / 2)})"/>` +
      circle(
        x + s.u * 0.24,
        y + s.h * 0.06,
        s.u * 0.1,
        'none',
        ` stroke="${shape(s, 1)}" stroke-width="${n(s.u * 0.05)}"`,
      ) +
      star(x, y - s.h * 0.04, s.u * s.between(0.14, 0.2), s.between(-0.3, 0.3))
    );
  },

  crime(s) {
    const variant = s.rnd();
    const angle = n(s.between(18, 36) * (s.rnd() < 0.5 ? -1 : 1));
    if (variant < 0.4) {
      // Police tape across a rainy night.
      const tape = (y: number, a: number, hi: number) => {
        let stripes = '';
        for (let x = -s.w; x < s.w * 2; x += 36) stripes += `M${x} ${n(y)}h18l-14 ${hi}h-18Z`;
        return `<g transform="rotate(${a} ${n(s.w / 2)} ${n(y)})"><rect x="${-s.w}" y="${n(y)}" width="${s.w * 3}" height="${hi}" fill="${shape(s, 0)}"/><path d="${stripes}" fill="${s.c(s.p.ink)}"/></g>`;
      };
      const rain = Array.from(
        { length: 9 },
        () => `M${n(s.between(-s.w * 0.2, s.w))} 0l${n(s.h * 0.3)} ${s.h}`,
      ).join('');
      return (
        sky(s) +
        `<path d="${rain}" stroke="${shape(s, 2)}" stroke-width="1.2" opacity=".6"/>` +
        (s.rnd() < 0.5
          ? circle(s.focus.x, s.focus.y, s.u * s.between(0.1, 0.2), shape(s, 1), ' opacity=".85"')
          : '') +
        tape(s.focus.y, angle, 24) +
        (s.rnd() < 0.6 ? tape(s.focus.y + s.between(-90, 90), -angle * s.between(0.4, 0.9), 18) : '')
      );
    }
    if (variant < 0.7) {
      // Noir: light through venetian blinds, a man in a hat.
      let blinds = '';
      const gap = s.between(18, 28);
      for (let i = 0; i < 12; i++)
        blinds += `M-20 ${n(i * gap * 1.6)}h${s.w + 40}v${n(gap * 0.7)}h${-s.w - 40}Z`;
      const fx = s.between(s.w * 0.3, s.w * 0.7);
      const size = s.h * s.between(0.34, 0.46);
      const base = s.h * 0.97;
      return (
        sky(s) +
        `<path d="${blinds}" fill="${shape(s, 0)}" opacity=".22" transform="rotate(${angle} ${n(s.w / 2)} ${n(s.h / 2)}) translate(0 ${n(s.focus.y - s.h / 2)})"/>` +
        figure(fx, base, size, s.c(s.p.ink)) +
        `<path d="M${n(fx - size * 0.2)} ${n(base - size * 0.93)}h${n(size * 0.4)}l-${n(size * 0.08)} -${n(size * 0.03)}h-${n(size * 0.24)}Z" fill="${s.c(s.p.ink)}"/>` +
        `<rect x="${n(fx - size * 0.1)}" y="${n(base - size * 1.04)}" width="${n(size * 0.2)}" height="${n(size * 0.1)}" rx="3" fill="${s.c(s.p.ink)}"/>`
      );
    }
    // Cut in two: a hard diagonal of warning yellow, and a target's rings.
    const cut = s.between(0.3, 0.7) * s.h;
    const { x, y } = s.focus;
    return (
      sky(s) +
      poly(
        [
          [0, cut - s.h * 0.3],
          [s.w, cut + s.h * 0.05],
          [s.w, s.h],
          [0, s.h],
        ],
        shape(s, 0),
        ' opacity=".92"',
      ) +
      poly(
        [
          [0, cut - s.h * 0.24],
          [s.w, cut + s.h * 0.11],
          [s.w, cut + s.h * 0.14],
          [0, cut - s.h * 0.21],
        ],
        s.c(s.p.ink),
      ) +
      [0.3, 0.2, 0.1]
        .map((k) => circle(x, y, s.u * k, 'none', ` stroke="${shape(s, 1)}" stroke-width="3"`))
        .join('') +
      `<path d="M${n(x - s.u * 0.36)} ${n(y)}h${n(s.u * 0.72)}M${n(x)} ${n(y - s.u * 0.36)}v${n(s.u * 0.72)}" stroke="${shape(s, 1)}" stroke-width="2"/>`
    );
  },

  romance(s) {
    const sparkle = Array.from({ length: 10 }, () =>
      circle(s.between(0, s.w), s.between(0, s.h), s.between(1, 2.5), '#fff', ' opacity=".7"'),
    ).join('');
    if (s.rnd() < 0.5) {
      // Soft circles overlapping, like two lives.
      const circles = Array.from({ length: Math.round(s.between(3, 5)) }, (_, i) =>
        circle(
          s.focus.x + s.between(-0.3, 0.3) * s.u,
          s.focus.y + s.between(-0.14, 0.14) * s.h,
          s.u * s.between(0.16, 0.34),
          shape(s, i),
          ' opacity=".55"',
        ),
      ).join('');
      const ring = circle(
        s.focus.x + s.between(-40, 40),
        s.focus.y + s.between(-40, 40),
        s.u * s.between(0.3, 0.44),
        'none',
        ` stroke="#fff" stroke-width="1.5" opacity=".6"`,
      );
      return sky(s) + circles + ring + sparkle;
    }
    // Two figures close together under a large pale sun, petals drifting.
    const r = s.u * s.between(0.3, 0.42);
    const ground = s.focus.y + r * s.between(0.5, 0.9);
    const petals = Array.from({ length: 12 }, () => {
      const px = s.between(0, s.w);
      const py = s.between(0, s.h * 0.8);
      return `<ellipse cx="${n(px)}" cy="${n(py)}" rx="5" ry="2.6" transform="rotate(${n(s.between(0, 180))} ${n(px)} ${n(py)})"/>`;
    }).join('');
    const size = r * 0.7;
    return (
      sky(s) +
      circle(s.focus.x, s.focus.y, r, shape(s, 1), ' opacity=".85"') +
      figure(s.focus.x - size * 0.12, ground, size, s.c(s.p.ink)) +
      figure(s.focus.x + size * 0.12, ground, size * 0.92, s.c(s.p.ink)) +
      `<rect y="${n(ground - 1)}" width="${s.w}" height="${n(s.h - ground + 1)}" fill="${s.c(s.p.ink)}"/>` +
      `<g fill="${shape(s, 0)}" opacity=".8">${petals}</g>` +
      sparkle
    );
  },

  documentary(s) {
    const count = Math.round(s.between(7, 13));
    const vertical = s.rnd() < 0.6;
    const span = (vertical ? s.w : s.h * 0.6) * 0.84;
    const gap = span / count;
    const accent = Math.floor(s.rnd() * count);
    let bars = '';
    for (let i = 0; i < count; i++) {
      const len = (vertical ? s.h * 0.42 : s.w * 0.8) * s.between(0.25, 1);
      const fill = i === accent ? shape(s, 2) : shape(s, i % 2);
      bars += vertical
        ? `<rect x="${n(s.w * 0.08 + i * gap)}" y="${n(s.focus.y + s.h * 0.2 - len)}" width="${n(gap * 0.62)}" height="${n(len)}" fill="${fill}"/>`
        : `<rect x="${n(s.w * 0.08)}" y="${n(s.focus.y - s.h * 0.25 + i * gap)}" width="${n(len)}" height="${n(gap * 0.6)}" fill="${fill}"/>`;
    }
    return sky(s) + bars;
  },

  western(s) {
    const horizon = s.h * s.between(0.62, 0.72);
    const r = s.u * s.between(0.22, 0.34);
    const sunY = Math.min(s.focus.y, horizon - r * 0.2);
    let gaps = '';
    for (let i = 1; i <= 4; i++)
      gaps += `<rect x="${n(s.focus.x - r)}" y="${n(sunY + r * (0.1 + i * 0.17))}" width="${n(r * 2)}" height="${n(1 + i * 1.6)}" fill="${s.c(s.p.sky[1])}"/>`;
    const mesa = (base: number, height: number, fill: string) => {
      const x = s.between(-s.w * 0.2, s.w * 0.6);
      const wTop = s.w * s.between(0.2, 0.45);
      return poly(
        [
          [x - s.w * 0.1, base],
          [x, base - height],
          [x + wTop, base - height],
          [x + wTop + s.w * 0.12, base],
        ],
        fill,
      );
    };
    return (
      sky(s) +
      circle(s.focus.x, sunY, r, shape(s, 0)) +
      gaps +
      mesa(horizon + 2, s.h * s.between(0.1, 0.16), shape(s, 1)) +
      mesa(horizon + 2, s.h * s.between(0.06, 0.11), shape(s, 1)) +
      `<rect y="${n(horizon)}" width="${s.w}" height="${n(s.h - horizon)}" fill="${shape(s, 2)}"/>` +
      poly(
        [
          [0, s.h],
          [0, horizon + 20],
          [s.w * s.between(0.3, 0.7), s.h],
        ],
        s.c(s.p.ink),
        ' opacity=".5"',
      )
    );
  },

  war(s) {
    const ground = s.h * s.between(0.74, 0.82);
    const beams = Array.from({ length: Math.round(s.between(2, 4)) }, () => {
      const x = s.between(0, s.w);
      const tx = x + s.between(-0.7, 0.7) * s.w;
      return poly(
        [
          [x - 4, ground],
          [tx - 30, -10],
          [tx + 30, -10],
          [x + 4, ground],
        ],
        shape(s, 0),
        ' opacity=".16"',
      );
    }).join('');
    const smoke = Array.from({ length: 6 }, () =>
      circle(
        s.between(0, s.w),
        ground - s.between(0, s.h * 0.12),
        s.u * s.between(0.1, 0.22),
        shape(s, 1),
        ' opacity=".45"',
      ),
    ).join('');
    let ruins = '';
    for (let x = 0; x < s.w;) {
      const bw = s.between(14, 42);
      const bh = s.between(8, s.h * 0.12);
      ruins += `<rect x="${n(x)}" y="${n(ground - bh)}" width="${n(bw + 1)}" height="${n(bh + 1)}"/>`;
      x += bw;
    }
    return (
      sky(s) +
      beams +
      circle(s.focus.x, s.focus.y, s.u * 0.1, shape(s, 0), ' opacity=".35"') +
      smoke +
      `<g fill="${shape(s, 2)}">${ruins}</g>` +
      `<rect y="${n(ground)}" width="${s.w}" height="${n(s.h - ground)}" fill="${shape(s, 2)}"/>`
    );
  },

  fantasy(s) {
    const sparkle = (x: number, y: number, r: number) =>
      `M${n(x)} ${n(y - r)}Q${n(x)} ${n(y)} ${n(x + r)} ${n(y)}Q${n(x)} ${n(y)} ${n(x)} ${n(y + r)}Q${n(x)} ${n(y)} ${n(x - r)} ${n(y)}Q${n(x)} ${n(y)} ${n(x)} ${n(y - r)}Z`;
    const stars = Array.from({ length: Math.round(s.between(7, 12)) }, () =>
      sparkle(s.between(0, s.w), s.between(0, s.h * 0.62), s.between(3, 11)),
    ).join('');
    const dust = Array.from({ length: 14 }, () =>
      circle(s.between(0, s.w), s.between(0, s.h * 0.6), s.between(0.6, 1.6), shape(s, 0), ' opacity=".7"'),
    ).join('');
    const r = s.u * s.between(0.12, 0.2);
    const { x, y } = s.focus;
    const moon = `<path d="M${n(x)} ${n(y - r)}A${n(r)} ${n(r)} 0 1 0 ${n(x)} ${n(y + r)}A${n(r * 0.78)} ${n(r)} 0 1 1 ${n(x)} ${n(y - r)}Z" fill="${shape(s, 0)}"/>`;
    const halo = circle(
      x,
      y,
      r * 1.9,
      radial(s, 'h', [
        [0, shape(s, 0), 0.35],
        [1, shape(s, 0), 0],
      ]),
    );
    const far = poly(
      ridge(s, s.h * s.between(0.6, 0.68), s.h * 0.2, Math.round(s.between(3, 5))),
      shape(s, 1),
    );
    if (s.rnd() < 0.5) {
      return (
        sky(s) +
        halo +
        moon +
        `<path d="${stars}" fill="${shape(s, 0)}"/>` +
        dust +
        far +
        poly(ridge(s, s.h * s.between(0.76, 0.84), s.h * 0.16, Math.round(s.between(4, 7))), shape(s, 2))
      );
    }
    // A castle on a crag, its towers against the glow.
    const crag = s.h * s.between(0.66, 0.74);
    const cx = s.between(s.w * 0.3, s.w * 0.7);
    const unit = s.u * s.between(0.05, 0.07);
    let towers = '';
    for (let i = -2; i <= 2; i++) {
      const tall = unit * (i === 0 ? 6 : 4 - Math.abs(i) * 0.8) * s.between(0.85, 1.15);
      const tx = cx + i * unit * 1.5 - unit / 2;
      towers += `M${n(tx)} ${n(crag)}V${n(crag - tall)}l${n(unit / 2)} ${n(-unit * 1.4)}l${n(unit / 2)} ${n(unit * 1.4)}V${n(crag)}Z`;
    }
    const lights = Array.from(
      { length: 4 },
      () =>
        `<rect x="${n(cx + s.between(-2.5, 2) * unit)}" y="${n(crag - s.between(1, 3.5) * unit)}" width="3" height="5"/>`,
    ).join('');
    return (
      sky(s) +
      halo +
      moon +
      `<path d="${stars}" fill="${shape(s, 0)}"/>` +
      dust +
      far +
      `<path d="${towers}" fill="${shape(s, 2)}"/>` +
      poly(
        [
          [0, s.h],
          [0, crag + 20],
          [cx - s.w * 0.3, crag + 6],
          [cx - unit * 4, crag],
          [cx + unit * 4, crag],
          [cx + s.w * 0.25, crag + 30],
          [s.w, crag + 50],
          [s.w, s.h],
        ],
        shape(s, 2),
      ) +
      `<g fill="${shape(s, 0)}">${lights}</g>`
    );
  },

  action(s) {
    const { x, y } = s.focus;
    const glow = circle(
      x,
      y,
      s.u * 0.55,
      radial(s, 'g', [
        [0, shape(s, 1), 1],
        [0.25, shape(s, 0), 0.8],
        [1, shape(s, 0), 0],
      ]),
    );
    const ground = poly(ridge(s, s.h * s.between(0.84, 0.9), s.h * 0.08, 6), s.c(s.p.ink));
    if (s.rnd() < 0.55) {
      // An explosion's rays and speed lines.
      const rays = Math.round(s.between(12, 20));
      let burst = '';
      for (let i = 0; i < rays; i++) {
        const a = (i / rays) * Math.PI * 2 + s.rnd() * 0.1;
        const spread = Math.PI / rays / 2;
        const far = s.h * 1.2;
        burst += `M${n(x)} ${n(y)}L${n(x + Math.cos(a - spread) * far)} ${n(y + Math.sin(a - spread) * far)}L${n(x + Math.cos(a + spread) * far)} ${n(y + Math.sin(a + spread) * far)}Z`;
      }
      const streaks = Array.from(
        { length: 5 },
        () => `M${n(s.between(0, s.w))} ${n(s.between(0, s.h))}l${n(s.u * 0.4)} ${n(-s.u * 0.16)}`,
      ).join('');
      return (
        sky(s) +
        `<path d="${burst}" fill="${shape(s, 0)}" opacity=".28"/>` +
        glow +
        `<path d="${streaks}" stroke="${shape(s, 2)}" stroke-width="3" stroke-linecap="round" opacity=".7"/>` +
        ground
      );
    }
    // Shards flying out from a blast, a figure braced against it.
    const shards = Array.from({ length: 14 }, (_, i) => {
      const a = s.between(0, Math.PI * 2);
      const d = s.u * s.between(0.15, 0.6);
      const cx = x + Math.cos(a) * d;
      const cy = y + Math.sin(a) * d;
      const k = s.between(8, 26);
      return poly(
        [
          [cx, cy],
          [cx + Math.cos(a) * k * 2.4, cy + Math.sin(a) * k * 2.4],
          [cx + Math.cos(a + 1.9) * k, cy + Math.sin(a + 1.9) * k],
        ],
        shape(s, i % 3),
        ` opacity="${n(s.between(0.5, 0.95))}"`,
      );
    }).join('');
    return (
      sky(s) +
      glow +
      shards +
      ground +
      figure(s.between(s.w * 0.2, s.w * 0.8), s.h * 0.88, s.h * 0.16, s.c(s.p.ink))
    );
  },

  music(s) {
    const lines = Math.round(s.between(5, 8));
    const amp = s.h * s.between(0.04, 0.1);
    const waves = Array.from({ length: lines }, (_, i) => {
      const y = s.focus.y + (i - lines / 2) * s.between(6, 14);
      const periods = s.between(1.5, 3);
      let d = `M0 ${n(y)}`;
      for (let k = 1; k <= 24; k++) {
        const x = (s.w * k) / 24;
        d += `L${n(x)} ${n(y + Math.sin((k / 24) * periods * Math.PI * 2 + i * 0.5) * amp * (0.5 + 0.5 * Math.sin((k / 24) * Math.PI)))}`;
      }
      return `<path d="${d}" fill="none" stroke="${shape(s, i % 3)}" stroke-width="${n(s.between(1.5, 4))}" opacity=".8"/>`;
    }).join('');
    const disc =
      s.rnd() < 0.5
        ? circle(
            s.between(0, s.w),
            s.focus.y,
            s.u * 0.3,
            'none',
            ` stroke="${shape(s, 2)}" stroke-width="1" opacity=".5"`,
          ) +
          circle(
            s.between(0, s.w),
            s.focus.y,
            s.u * 0.18,
            'none',
            ` stroke="${shape(s, 1)}" stroke-width="1" opacity=".5"`,
          )
        : '';
    return sky(s) + glow(s, s.focus.x, s.focus.y, s.u * 0.5, shape(s, 0), 0.4) + disc + waves;
  },

  mystery(s) {
    const moon =
      circle(s.focus.x, s.focus.y, s.u * s.between(0.1, 0.16), shape(s, 0), ' opacity=".85"') +
      glow(s, s.focus.x, s.focus.y, s.u * 0.3, shape(s, 0), 0.3);
    const groundY = s.h * s.between(0.72, 0.8);
    const who = figure(
      s.between(s.w * 0.25, s.w * 0.75),
      groundY + 6,
      s.h * s.between(0.1, 0.16),
      shape(s, 2),
    );
    const fog = [0.5, 0.62, 0.72, 0.84].map(
      (y, i) =>
        `<path d="${wave(s, s.h * (y + s.between(-0.04, 0.04)), s.h * 0.04, 1 + (i % 2), s.h)}" fill="${shape(s, 1)}" opacity="${n(0.12 + i * 0.05)}"/>`,
    );
    // The figure stands in the fog: the far banks behind it, the near ones in front.
    return (
      sky(s) +
      moon +
      fog.slice(0, 2).join('') +
      who +
      `<rect y="${n(groundY)}" width="${s.w}" height="${n(s.h - groundY)}" fill="${shape(s, 2)}"/>` +
      fog.slice(2).join('')
    );
  },

  plain(s) {
    const hue = s.between(0, 360);
    const tint = (hsl: Hsl) => color([hsl[0] + hue, hsl[1], hsl[2]]);
    return (
      sky(s) +
      circle(s.focus.x, s.focus.y, s.u * s.between(0.2, 0.32), tint(s.p.shapes[0] as Hsl), ' opacity=".8"') +
      `<rect x="${n(s.between(-40, s.w * 0.5))}" y="${n(s.focus.y - s.h * 0.1)}" width="${n(s.u * 0.6)}" height="${n(s.u * 0.6)}" fill="${tint(s.p.shapes[1] as Hsl)}" opacity=".55" transform="rotate(${n(s.between(-30, 30))} ${n(s.w / 2)} ${n(s.focus.y)})"/>` +
      poly(
        [
          [0, s.h],
          [s.w, s.h * s.between(0.6, 0.85)],
          [s.w, s.h],
        ],
        tint(s.p.shapes[2] as Hsl),
        ' opacity=".5"',
      )
    );
  },
};
