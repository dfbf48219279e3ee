/**
 * The one release rule (issue 14), shared by the server's scrape API and every screen of the web app:
 * cards, the title page's episode list, the player route, episode navigation, Watch Something New.
 *
 * A title or an episode is released when its date is today or earlier (UTC day). A date in the future,
 * or no date at all (`null`, `''`, something that is not a date), means not released. A partial date
 * (`2026`, `2026-07`) stands for its first day: a year-only value is released from 1 January of that year,
 * so a future year is not released.
 */

/** What TMDB and our library hold for a release or air date: `YYYY-MM-DD`, a year, or nothing. */
export type ReleaseDateValue = string | number | null | undefined;

const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:$|T)/;

/** The first day a date value stands for, as `YYYY-MM-DD`; null when there is no (valid) date. */
export function releaseDay(value: ReleaseDateValue): string | null {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= 1000 && value <= 9999 ? `${value}-01-01` : null;
  }
  if (!value) return null;
  const match = DATE.exec(value.trim());
  if (!match) return null;
  const [, year, month = '01', day = '01'] = match;
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  return `${year}-${month}-${day}`;
}

/** Today as `YYYY-MM-DD` (UTC), the day release dates are compared with. */
export const releaseToday = (now: Date): string => now.toISOString().slice(0, 10);

/** Whether a title or episode with this date is out at `now`: a date today or earlier; never without a date. */
export function isReleased(date: ReleaseDateValue, now: Date): boolean {
  const day = releaseDay(date);
  return day !== null && day <= releaseToday(now);
}

/**
 * A title's release: its date when it has one, else its year (library entries keep only the year).
 * Neither: not released.
 */
export function isTitleReleased(
  title: { releaseDate?: string | null | undefined; year?: number | null | undefined },
  now: Date,
): boolean {
  return isReleased(releaseDay(title.releaseDate) ?? title.year, now);
}
