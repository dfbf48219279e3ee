import { Columns, isBlankRow, unescapeCell, type CsvTable, type Recognised } from './csv-read.ts';
import { DayClock, detectDayOrder, parseInstant, parseNumericDay, type DayOrder } from './dates.ts';
import type { ImportEpisodeRef, ImportTitleRef, ParseOptions } from './model.ts';
import { RecordSink, compact, record, titleKey } from './records.ts';

/*
 * Netflix: the viewing history page's download (Title, Date — dates in the viewer's locale) and the
 * account data download's ViewingActivity.csv (Profile Name, Start Time in UTC, Duration, Attributes,
 * Title, Supplemental Video Type, Device Type, Bookmark, Latest Bookmark, Country).
 */

export type NetflixKind = 'simple' | 'activity';

/** A view shorter than this is a preview that played by itself on a browse row, not a watch. */
const MIN_VIEW_SECONDS = 60;

export function recogniseNetflix(table: CsvTable): Recognised<NetflixKind> {
  const cols = new Columns(table.rows[0] ?? []);
  // The account download's other files have a Profile Name too: only this one has these columns.
  if (cols.has('Start Time') && cols.has('Title') && (cols.has('Profile Name') || cols.has('Duration'))) {
    return { kind: 'activity', headerRow: 0 };
  }
  if (cols.has('Supplemental Video Type')) return { missing: cols.missing(['Title', 'Start Time']) };
  const names = (table.rows[0] ?? []).map((cell) => cell.trim().toLowerCase()).filter(Boolean);
  if (names.length === 0 || names.length > 2 || !names.every((n) => n === 'title' || n === 'date'))
    return null;
  const missing = cols.missing(['Title', 'Date']);
  return missing.length ? { missing } : { kind: 'simple', headerRow: 0 };
}

/** "Season 2" in the languages Netflix writes its history in. */
const SEASON =
  /^(?:season|series|temporada|saison|staffel|stagione|seizoen|sezon|säsong|sæson|sesong|kausi|série|сезон)\s+(\d{1,3})$/i;
/** Parts that say "an episode of a show" without a season number. */
const SEASONLESS =
  /^(?:limited series|miniseries|mini-series|(?:part|parte|partie|teil|volume|vol\.|book|collection)\s+\S+)$/i;
const EPISODE_NUMBER = /\s*\(Episode (\d{1,4})\)$/i;

/**
 * "Show: Season 1: Episode" → the show and its episode. A title with one colon ("Star Wars: The Last
 * Jedi", "White Collar: The Portrait") could be either: it is kept whole with no type, for the search.
 */
export function splitNetflixTitle(full: string): { title: ImportTitleRef; episode?: ImportEpisodeRef } {
  const parts = full.split(': ');
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i]!.trim();
    // "Stranger Things: Stranger Things 4: …" names the season by the show's name and a number.
    const numbered = part.startsWith(`${parts[0]} `)
      ? /^(\d{1,3})$/.exec(part.slice(parts[0]!.length + 1))
      : null;
    const season = SEASON.exec(part) ?? numbered;
    if (!season && !SEASONLESS.test(part)) continue;
    let episodeTitle = parts.slice(i + 1).join(': ');
    const number = EPISODE_NUMBER.exec(episodeTitle);
    if (number) episodeTitle = episodeTitle.slice(0, number.index);
    return {
      title: { title: parts.slice(0, i).join(': '), type: 'show' },
      episode: compact({
        season: season ? Number(season[1]) : undefined,
        number: number ? Number(number[1]) : undefined,
        title: episodeTitle || undefined,
      }),
    };
  }
  return { title: parts.length === 1 ? { title: full, type: 'movie' } : { title: full } };
}

function seconds(text: string): number | undefined {
  const match = /^(\d+):(\d{2}):(\d{2})$/.exec(text);
  return match ? Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]) : undefined;
}

function readActivity(table: CsvTable, sink: RecordSink): void {
  const cols = new Columns(table.rows[0]!);
  for (let r = 1; r < table.rows.length; r++) {
    const row = table.rows[r]!;
    if (isBlankRow(row)) continue;
    const skip = (code: string) => sink.skip(table.file, r + 1, code);
    // Trailers, teasers, recaps and the like.
    if (cols.get(row, 'Supplemental Video Type')) {
      skip('supplemental');
      continue;
    }
    const duration = seconds(cols.get(row, 'Duration'));
    if (duration !== undefined && duration < MIN_VIEW_SECONDS) {
      skip('too_short');
      continue;
    }
    const watchedAt = parseInstant(cols.get(row, 'Start Time'));
    const full = unescapeCell(cols.get(row, 'Title'));
    if (!watchedAt) skip('bad_date');
    else if (!full) skip('no_title');
    else {
      const profile = cols.get(row, 'Profile Name') || undefined;
      sink.add(
        record({
          kind: 'play',
          ...splitNetflixTitle(full),
          watchedAt,
          profile,
          source: { file: table.file, row: r + 1 },
        }),
      );
    }
  }
}

function readSimple(table: CsvTable, sink: RecordSink, options: ParseOptions): void {
  const cols = new Columns(table.rows[0]!);
  const rows = table.rows.slice(1);
  const detected = detectDayOrder(rows.map((row) => cols.get(row, 'Date')));
  // Netflix's own default (United States) when neither the viewer nor the file says.
  const order: DayOrder = options.dateOrder ?? detected ?? 'mdy';
  const sure = options.dateOrder !== undefined || detected !== null;
  const clock = new DayClock();
  rows.forEach((row, i) => {
    const line = i + 2;
    if (isBlankRow(row)) return;
    const full = unescapeCell(cols.get(row, 'Title'));
    const date = parseNumericDay(cols.get(row, 'Date'), order);
    if (!full) return sink.skip(table.file, line, 'no_title');
    if (!date) return sink.skip(table.file, line, 'bad_date');
    const { title, episode } = splitNetflixTitle(full);
    const key = `${titleKey(title)}|${episode?.season ?? ''}|${episode?.title ?? ''}`;
    sink.add(
      record({
        kind: 'play' as const,
        title,
        episode,
        watchedAt: clock.at(date.day, key),
        unsure: !sure && date.ambiguous ? 'date_order' : undefined,
        source: { file: table.file, row: line },
      }),
    );
  });
}

export function parseNetflix(
  table: CsvTable,
  kind: NetflixKind,
  sink: RecordSink,
  options: ParseOptions,
): void {
  if (kind === 'activity') readActivity(table, sink);
  else readSimple(table, sink, options);
}
