/** The looks of drawn artwork: which genre gets which style, and each style's palettes and type. */

export type Style =
  | 'horror'
  | 'comedy'
  | 'scifi'
  | 'drama'
  | 'history'
  | 'animation'
  | 'crime'
  | 'romance'
  | 'documentary'
  | 'western'
  | 'war'
  | 'fantasy'
  | 'action'
  | 'music'
  | 'mystery'
  | 'plain';

/**
 * The genres with a look of their own win, in this order: "Drama, Science Fiction" reads as science
 * fiction. 10765 (Sci-Fi & Fantasy) is settled by the hash.
 */
const DISTINCT_GENRES: readonly [number, Style | 'scifi-fantasy'][] = [
  [99, 'documentary'],
  [16, 'animation'],
  [27, 'horror'],
  [37, 'western'],
  [10752, 'war'],
  [10768, 'war'],
  [878, 'scifi'],
  [10765, 'scifi-fantasy'],
  [14, 'fantasy'],
  [10402, 'music'],
];

/** The broad genres decide in the order the title lists them (TMDB's first is its main one); drama last. */
const BROAD_GENRES: Readonly<Record<number, Style>> = {
  80: 'crime',
  53: 'crime',
  9648: 'mystery',
  10749: 'romance',
  10766: 'romance',
  35: 'comedy',
  10764: 'comedy',
  28: 'action',
  10759: 'action',
  12: 'action',
  36: 'history',
  10751: 'animation',
  10762: 'animation',
  10763: 'documentary',
  10767: 'plain',
  10770: 'plain',
};

export function styleOf(genres: readonly number[], coin: number): Style {
  const distinct = DISTINCT_GENRES.find(([id]) => genres.includes(id))?.[1];
  if (distinct === 'scifi-fantasy') return coin < 0.5 ? 'scifi' : 'fantasy';
  if (distinct) return distinct;
  const broad = genres.map((id) => BROAD_GENRES[id]).find((style) => style !== undefined);
  return broad ?? (genres.includes(18) ? 'drama' : 'plain');
}

/** A colour as hue, saturation %, lightness %. */
export type Hsl = readonly [number, number, number];

export interface Palette {
  /** Background gradient, top to bottom. */
  sky: readonly [Hsl, Hsl];
  /** Shape colours, the first the main one. */
  shapes: readonly Hsl[];
  /** The dark of silhouettes, scrims and title bands. */
  ink: Hsl;
  /** The title's colour: light, for ink or a dark scrim behind it. */
  text: Hsl;
}

// A table: one palette a line reads better than one number a line.
// prettier-ignore
export const PALETTES: Record<Style, readonly Palette[]> = {
  horror: [
    { sky: [[0, 75, 14], [0, 0, 3]], shapes: [[2, 78, 42], [350, 60, 22], [20, 30, 80]], ink: [0, 30, 4], text: [30, 35, 90] },
    { sky: [[345, 55, 10], [0, 0, 2]], shapes: [[8, 85, 48], [0, 50, 18], [40, 20, 75]], ink: [0, 0, 3], text: [0, 0, 94] },
  ],
  comedy: [
    { sky: [[46, 96, 60], [38, 95, 56]], shapes: [[12, 90, 60], [190, 75, 45], [330, 85, 65], [0, 0, 100]], ink: [250, 50, 18], text: [48, 100, 92] },
    { sky: [[175, 60, 55], [185, 60, 48]], shapes: [[45, 95, 60], [10, 88, 62], [330, 80, 70], [0, 0, 100]], ink: [220, 55, 16], text: [0, 0, 100] },
    { sky: [[8, 85, 66], [14, 85, 58]], shapes: [[48, 98, 62], [200, 80, 55], [95, 55, 55], [0, 0, 100]], ink: [270, 45, 16], text: [45, 100, 90] },
  ],
  scifi: [
    { sky: [[228, 70, 6], [212, 75, 20]], shapes: [[188, 85, 55], [232, 70, 30], [300, 70, 60]], ink: [230, 60, 5], text: [185, 60, 92] },
    { sky: [[250, 55, 7], [200, 70, 18]], shapes: [[170, 80, 50], [260, 60, 35], [20, 85, 60]], ink: [240, 50, 5], text: [0, 0, 97] },
  ],
  drama: [
    { sky: [[22, 35, 72], [215, 22, 36]], shapes: [[30, 55, 84], [215, 18, 46], [220, 25, 24]], ink: [220, 30, 10], text: [35, 40, 94] },
    { sky: [[150, 14, 64], [170, 18, 30]], shapes: [[45, 40, 86], [165, 14, 44], [175, 22, 20]], ink: [180, 30, 8], text: [45, 35, 94] },
    { sky: [[340, 20, 70], [260, 15, 32]], shapes: [[20, 60, 86], [280, 12, 44], [270, 20, 20]], ink: [270, 25, 9], text: [20, 40, 94] },
  ],
  history: [
    { sky: [[36, 45, 70], [25, 35, 30]], shapes: [[40, 60, 86], [28, 30, 45], [22, 35, 20]], ink: [22, 40, 8], text: [40, 50, 92] },
  ],
  animation: [
    { sky: [[195, 75, 80], [190, 65, 90]], shapes: [[48, 100, 72], [150, 50, 70], [340, 80, 82], [0, 0, 100]], ink: [255, 40, 24], text: [0, 0, 100] },
    { sky: [[280, 60, 86], [330, 70, 90]], shapes: [[40, 100, 75], [170, 55, 68], [200, 80, 78], [0, 0, 100]], ink: [290, 40, 24], text: [0, 0, 100] },
    { sky: [[30, 90, 84], [50, 90, 88]], shapes: [[10, 85, 70], [120, 45, 65], [190, 70, 72], [0, 0, 100]], ink: [210, 45, 22], text: [0, 0, 100] },
  ],
  crime: [
    { sky: [[45, 12, 9], [40, 8, 3]], shapes: [[48, 96, 54], [0, 75, 45], [45, 10, 30]], ink: [0, 0, 3], text: [48, 96, 60] },
    { sky: [[210, 15, 10], [220, 10, 3]], shapes: [[52, 100, 56], [355, 80, 50], [210, 10, 35]], ink: [0, 0, 3], text: [0, 0, 97] },
  ],
  romance: [
    { sky: [[345, 75, 78], [320, 40, 38]], shapes: [[350, 85, 66], [15, 90, 75], [300, 45, 60]], ink: [330, 50, 14], text: [350, 100, 96] },
    { sky: [[20, 80, 82], [350, 45, 40]], shapes: [[340, 75, 62], [25, 95, 72], [0, 0, 100]], ink: [345, 45, 14], text: [20, 100, 95] },
  ],
  documentary: [
    { sky: [[0, 0, 90], [0, 0, 78]], shapes: [[0, 0, 12], [0, 0, 45], [5, 80, 50]], ink: [0, 0, 6], text: [0, 0, 98] },
    { sky: [[0, 0, 16], [0, 0, 6]], shapes: [[0, 0, 88], [0, 0, 50], [45, 95, 55]], ink: [0, 0, 2], text: [0, 0, 98] },
  ],
  western: [
    { sky: [[22, 85, 52], [44, 92, 70]], shapes: [[50, 100, 82], [18, 50, 34], [12, 45, 16]], ink: [12, 45, 8], text: [40, 70, 92] },
    { sky: [[355, 60, 40], [30, 90, 62]], shapes: [[45, 100, 75], [15, 45, 30], [5, 40, 14]], ink: [5, 40, 7], text: [42, 80, 90] },
  ],
  war: [
    { sky: [[70, 18, 38], [75, 22, 12]], shapes: [[60, 30, 80], [75, 20, 26], [80, 25, 8]], ink: [80, 25, 5], text: [55, 30, 86] },
    { sky: [[40, 12, 42], [60, 15, 12]], shapes: [[35, 50, 70], [50, 12, 28], [60, 15, 8]], ink: [60, 15, 4], text: [45, 30, 88] },
  ],
  fantasy: [
    { sky: [[268, 55, 12], [252, 50, 36]], shapes: [[45, 90, 68], [265, 40, 26], [270, 45, 12]], ink: [270, 50, 7], text: [44, 85, 78] },
    { sky: [[230, 55, 12], [290, 40, 34]], shapes: [[40, 95, 70], [245, 35, 28], [250, 45, 11]], ink: [250, 50, 6], text: [45, 90, 82] },
  ],
  action: [
    { sky: [[192, 65, 14], [185, 55, 30]], shapes: [[24, 95, 56], [40, 100, 62], [190, 70, 45]], ink: [195, 60, 6], text: [0, 0, 100] },
    { sky: [[15, 80, 22], [30, 90, 45]], shapes: [[180, 70, 50], [40, 100, 65], [10, 85, 50]], ink: [10, 60, 6], text: [0, 0, 100] },
  ],
  music: [
    { sky: [[275, 60, 10], [320, 55, 22]], shapes: [[320, 90, 62], [185, 90, 55], [50, 100, 62]], ink: [280, 50, 5], text: [0, 0, 100] },
    { sky: [[220, 60, 10], [250, 55, 24]], shapes: [[45, 100, 60], [170, 80, 50], [330, 85, 65]], ink: [230, 50, 5], text: [0, 0, 100] },
  ],
  mystery: [
    { sky: [[205, 25, 30], [215, 35, 8]], shapes: [[200, 20, 85], [205, 18, 55], [215, 30, 6]], ink: [215, 35, 5], text: [200, 30, 92] },
    { sky: [[170, 20, 26], [190, 30, 7]], shapes: [[60, 30, 85], [175, 15, 55], [190, 25, 5]], ink: [190, 30, 4], text: [60, 30, 92] },
  ],
  plain: [
    { sky: [[240, 35, 30], [260, 40, 12]], shapes: [[200, 60, 60], [330, 55, 60], [50, 80, 65]], ink: [250, 40, 7], text: [0, 0, 98] },
  ],
};

/** How a style sets its title. */
export interface Type {
  /** Font stacks; the hash picks one. System fonts only: the SVG loads no webfont. */
  fonts: readonly Font[];
  /** 'band': a solid ink band behind the title (bright styles); 'scrim': a dark gradient. */
  backing: 'band' | 'scrim';
  /** How often the title is set in capitals (0…1). */
  upper: number;
  italic?: boolean;
}

export type Font = 'sans' | 'serif' | 'slab' | 'rounded';

/**
 * Arial's metrics first (Liberation Sans has the same on Linux, Helvetica and Roboto are close), so the
 * width estimate below holds wherever the image is shown; CJK and Arabic fall back to the system's fonts.
 */
export const FONT_STACK: Record<Font, string> = {
  sans: "Arial,'Liberation Sans','Helvetica Neue',Helvetica,sans-serif",
  serif: "Georgia,'Times New Roman','Liberation Serif',serif",
  slab: "Rockwell,'Roboto Slab',Georgia,'Liberation Serif',serif",
  rounded: "ui-rounded,'Arial Rounded MT Bold',Nunito,Arial,'Liberation Sans',sans-serif",
};

export const TYPE: Record<Style, Type> = {
  horror: { fonts: ['serif', 'serif', 'sans'], backing: 'scrim', upper: 0.7 },
  comedy: { fonts: ['sans', 'rounded'], backing: 'band', upper: 0.4 },
  scifi: { fonts: ['sans', 'sans', 'serif'], backing: 'scrim', upper: 0.8 },
  drama: { fonts: ['serif', 'serif', 'sans'], backing: 'scrim', upper: 0.3 },
  history: { fonts: ['serif', 'slab'], backing: 'scrim', upper: 0.5 },
  animation: { fonts: ['rounded', 'sans'], backing: 'band', upper: 0.2 },
  crime: { fonts: ['sans', 'sans', 'serif'], backing: 'scrim', upper: 0.85 },
  romance: { fonts: ['serif', 'serif', 'sans'], backing: 'scrim', upper: 0.2, italic: true },
  documentary: { fonts: ['sans', 'serif'], backing: 'band', upper: 0.6 },
  western: { fonts: ['slab', 'serif'], backing: 'scrim', upper: 0.8 },
  war: { fonts: ['sans', 'slab'], backing: 'scrim', upper: 0.9 },
  fantasy: { fonts: ['serif', 'serif', 'sans'], backing: 'scrim', upper: 0.5 },
  action: { fonts: ['sans', 'sans', 'slab'], backing: 'scrim', upper: 0.85, italic: true },
  music: { fonts: ['sans', 'rounded', 'serif'], backing: 'scrim', upper: 0.5 },
  mystery: { fonts: ['serif', 'sans'], backing: 'scrim', upper: 0.5 },
  plain: { fonts: ['sans', 'serif'], backing: 'scrim', upper: 0.4 },
};

/** How much wider than Arial Bold each stack's first font runs (the title's width estimate scales by it). */
export const FONT_WIDTH: Record<Font, number> = { sans: 1, serif: 1.08, slab: 1.1, rounded: 1.1 };
