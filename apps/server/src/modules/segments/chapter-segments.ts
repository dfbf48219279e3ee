import type { SegmentType } from '@marquee/contract';
import type { ChapterInfo } from '../media/media-info.ts';

/*
 * Segments from a file's chapters (decision 111), the most trusted source: releases name them ("Intro",
 * "Opening", "OP", "Recap", "Previously", "Credits", "Ending", "ED", "Preview", "Next time") in a few
 * languages. A chapter whose title says nothing of the kind ("Chapter 3") is not a segment.
 */

/** Titles are compared folded: lower case, Latin accents dropped (Japanese kana keep their marks). */
export const foldTitle = (title: string) =>
  title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .trim();

/** An abbreviation as a word of its own ("OP", "OP2", "ED 1"), not inside another ("top", "edit"). */
const word = (w: string) => `(?:^|[^\\p{L}])${w}(?:\\s?\\d{1,2})?(?:$|[^\\p{L}])`;

/**
 * Which segment a title names, the most specific phrases first: "Générique de fin" and "Opening
 * credits" are credits and intro, whatever their other words say.
 */
const TITLE_RULES: readonly [SegmentType, RegExp][] = [
  [
    'preview',
    /preview|next time|next episode|next on|coming up|prochainement|a suivre|apercu|vorschau|naechste folge|nachste folge|avance|proximo episodio|prossimamente|anteprima|\u4e88\u544a|\u6b21\u56de/u,
  ],
  [
    'recap',
    /recap|previously|story so far|resume|precedemment|rueckblick|ruckblick|was bisher geschah|zuvor bei|anteriormente|resumen|riassunto|nelle puntate precedenti|\u524d\u56de|\u3042\u3089\u3059\u3058/u,
  ],
  [
    'intro',
    /opening credits|opening theme|opening titles|title sequence|main titles|theme song|generique de debut|generique d'ouverture|sigla iniziale/u,
  ],
  [
    'credits',
    /end credits|closing credits|ending|generique de fin|generique fin|abspann|titoli di coda|sigla finale|creditos finales|outro|\u30a8\u30f3\u30c7\u30a3\u30f3\u30b0/u,
  ],
  ['credits', new RegExp(word('ed'), 'u')],
  [
    'intro',
    /intro|opening(?! scene)|generique|vorspann|sigla|abertura|cabecera|\u30aa\u30fc\u30d7\u30cb\u30f3\u30b0/u,
  ],
  ['intro', new RegExp(word('op'), 'u')],
  ['credits', /credits|credit|creditos|credits de fin|nachspann/u],
];

/** The segment type a chapter title names, or null. */
export function segmentTypeOfTitle(title: string | null): SegmentType | null {
  if (!title) return null;
  const folded = foldTitle(title);
  for (const [type, rule] of TITLE_RULES) if (rule.test(folded)) return type;
  return null;
}

/** A chapter this short or this long is not a segment, whatever its name (a marker, a mislabelled part). */
const MIN_CHAPTER_SECONDS = 1;
const MAX_CHAPTER_SECONDS = 20 * 60;
/** Consecutive chapters of one type ("Credits", "Credits (cont.)") closer than this are one segment. */
const JOIN_GAP_SECONDS = 1;

export interface ChapterSegment {
  type: SegmentType;
  start: number;
  end: number;
}

/**
 * The segments a file's chapters name: one per type — the first intro, recap and preview, the last
 * credits — consecutive chapters of one type joined.
 */
export function chapterSegments(chapters: readonly ChapterInfo[]): ChapterSegment[] {
  const found: ChapterSegment[] = [];
  const sorted = [...chapters].sort((a, b) => a.start - b.start);
  for (const chapter of sorted) {
    const type = segmentTypeOfTitle(chapter.title);
    if (!type || !(chapter.end > chapter.start)) continue;
    const previous = found.at(-1);
    if (previous?.type === type && chapter.start - previous.end <= JOIN_GAP_SECONDS)
      previous.end = Math.max(previous.end, chapter.end);
    else found.push({ type, start: chapter.start, end: chapter.end });
  }
  const fitting = found.filter(
    (s) => s.end - s.start >= MIN_CHAPTER_SECONDS && s.end - s.start <= MAX_CHAPTER_SECONDS,
  );
  const out = new Map<SegmentType, ChapterSegment>();
  for (const segment of fitting)
    if (segment.type === 'credits' || !out.has(segment.type)) out.set(segment.type, segment);
  return [...out.values()];
}
