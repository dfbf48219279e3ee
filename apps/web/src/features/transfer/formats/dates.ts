/*
 * Dates as the sources write them. A source that gives a day only (Letterboxd, IMDb, Netflix's simple
 * history) becomes that day at 12:00 UTC: the same calendar day in every time zone from UTC−11 to UTC+11,
 * and the same instant each time the file is imported (so importing it twice adds nothing).
 */

/** The first film was shown in 1888 (the contract refuses earlier plays). */
const EARLIEST_YEAR = 1888;
const DATE_ONLY_HOUR = 12;

export interface Day {
  year: number;
  month: number;
  day: number;
}

function isRealDay({ year, month, day }: Day): boolean {
  if (year < EARLIEST_YEAR || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `YYYY-MM-DD` (what Letterboxd, IMDb and Trakt write), or null. */
export function parseIsoDay(text: string): Day | null {
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text.trim());
  if (!match) return null;
  const day = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  return isRealDay(day) ? day : null;
}

/** The day at 12:00 UTC, `seconds` later for the nth play of one title on one day. */
export function dayToIso(day: Day, seconds = 0): string {
  return new Date(Date.UTC(day.year, day.month - 1, day.day, DATE_ONLY_HOUR, 0, seconds)).toISOString();
}

/** An instant the source wrote (ISO with `Z` or an offset, or Netflix's `YYYY-MM-DD HH:MM:SS` in UTC). */
export function parseInstant(text: string): string | null {
  const trimmed = text.trim();
  const netflix = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)$/.exec(trimmed);
  const ms = Date.parse(netflix ? `${netflix[1]}T${netflix[2]}Z` : trimmed);
  if (!Number.isFinite(ms) || !/^\d{4}-/.test(trimmed)) return null;
  const date = new Date(ms);
  return date.getUTCFullYear() < EARLIEST_YEAR ? null : date.toISOString();
}

/**
 * Hands out the instants of date-only plays: the first play of a title on a day is 12:00:00 UTC, a
 * second one the same day 12:00:01, and so on — two viewings logged for one evening stay two plays
 * (the server treats one title at one instant as one play).
 */
export class DayClock {
  private readonly seen = new Map<string, number>();

  at(day: Day, titleKey: string): string {
    const key = `${titleKey}|${day.year}-${day.month}-${day.day}`;
    const n = this.seen.get(key) ?? 0;
    this.seen.set(key, n + 1);
    return dayToIso(day, n);
  }
}

// ---- numeric dates in the viewer's locale (Netflix's simple history: 1/31/24, 31/01/2024, 31.01.24) ----

export type DayOrder = 'dmy' | 'mdy';

interface NumericDate {
  a: number;
  b: number;
  year: number;
}

/** Two-digit years: Netflix streams since 2007, so 00–99 are 2000–2099. */
function fullYear(text: string): number {
  return text.length <= 2 ? 2000 + Number(text) : Number(text);
}

function splitNumericDate(text: string): NumericDate | 'iso' | null {
  const trimmed = text.trim();
  if (/^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$/.test(trimmed)) return 'iso';
  const match = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})$/.exec(trimmed);
  if (!match) return null;
  return { a: Number(match[1]), b: Number(match[2]), year: fullYear(match[3]!) };
}

/**
 * The order a column of dates is written in, from the dates that can only be read one way (a first part
 * over 12 is a day). `null` when none tells, or when they disagree.
 */
export function detectDayOrder(texts: Iterable<string>): DayOrder | null {
  let dayFirst = false;
  let monthFirst = false;
  for (const text of texts) {
    const date = splitNumericDate(text);
    if (!date || date === 'iso') continue;
    if (date.a > 12 && date.b <= 12) dayFirst = true;
    if (date.b > 12 && date.a <= 12) monthFirst = true;
  }
  if (dayFirst === monthFirst) return null;
  return dayFirst ? 'dmy' : 'mdy';
}

/** The day a numeric date names in that order; `ambiguous` when the other order names another real day. */
export function parseNumericDay(text: string, order: DayOrder): { day: Day; ambiguous: boolean } | null {
  const split = splitNumericDate(text);
  if (split === 'iso') {
    const [y, m, d] = text.trim().split(/[-/.]/).map(Number);
    const day = { year: y!, month: m!, day: d! };
    return isRealDay(day) ? { day, ambiguous: false } : null;
  }
  if (!split) return null;
  const dmy = { year: split.year, month: split.b, day: split.a };
  const mdy = { year: split.year, month: split.a, day: split.b };
  const day = order === 'dmy' ? dmy : mdy;
  if (!isRealDay(day)) return null;
  const other = order === 'dmy' ? mdy : dmy;
  return { day, ambiguous: split.a !== split.b && isRealDay(other) };
}
