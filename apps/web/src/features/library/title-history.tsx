import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';
import { clock } from '../../lib/clock.ts';
import { Link } from 'react-router';
import type { MediaDetails } from '@marquee/contract';
import { calendarDay, dateTimeFormat } from '../../lib/intl.ts';
import { toMediaType } from '../../lib/media-keys.ts';
import { paths } from '../../lib/paths.ts';
import { useLibraryStore } from '../../stores/index.ts';
import { playsOf } from '../../stores/library/history-view.ts';
import { TitleRating } from './title-rating.tsx';

/** The title page's extras from the library: the watch history's line and the viewer's rating. */
export function TitleExtras({
  media,
}: {
  media: Pick<MediaDetails, 'id' | 'type' | 'title' | 'year' | 'poster' | 'runtime'>;
}) {
  return (
    <>
      <TitleHistory media={media} />
      <TitleRating media={media} />
    </>
  );
}

/** "November 30, 2026" in the viewer's language. */
const LONG_DATE: Intl.DateTimeFormatOptions = { dateStyle: 'long' };

/**
 * The title page's line from the watch history: how often a movie was watched and when last, or which
 * episode of a show was watched last and when; a link to the history. Nothing when it was never watched.
 */
export function TitleHistory({
  media,
}: {
  media: Pick<MediaDetails, 'id' | 'type' | 'title' | 'year' | 'poster' | 'runtime'>;
}) {
  const { t, i18n } = useTranslation(['history', 'media']);
  const history = useLibraryStore((s) => s.history);
  const type = toMediaType(media.type);
  const plays = useMemo(() => playsOf(history, type, media.id), [history, type, media.id]);
  const last = plays[0];
  if (!last)
    return type === 'movie' ? (
      <div className="flex basis-full flex-wrap items-start gap-3">
        <MarkMovieWatched movie={media} />
        <AddViewing movie={media} first />
      </div>
    ) : null;
  const date = dateTimeFormat(i18n.language, LONG_DATE).format(last.watchedAt);
  const text =
    type === 'movie' || !last.season || !last.episode
      ? t('history.movieWatched', { count: plays.length, date })
      : t('history.showWatched', {
          episode: t('media.seasons.seasonEpisode', {
            season: last.season.number,
            episode: last.episode.number,
          }),
          date,
        });
  return (
    <div className="flex basis-full flex-wrap items-center gap-x-4 gap-y-1">
      <p className="text-sm text-fg-muted" data-testid="title-history">
        <Link
          to={paths.history}
          className="underline-offset-2 hover:text-fg hover:underline focus-visible:outline-2 focus-visible:outline-accent"
        >
          {text}
        </Link>
      </p>
      {type === 'movie' && <AddViewing movie={media} first={false} />}
    </div>
  );
}

const EARLIEST_DAY = '1888-01-01';

/**
 * "I watched it on…": a play on a day the viewer picks (a cinema, another app, years ago). Today is now;
 * another day is its noon where the viewer is, so the history shows it on that day.
 */
function AddViewing({
  movie,
  first,
}: {
  movie: Pick<MediaDetails, 'id' | 'title' | 'year' | 'poster' | 'runtime'>;
  /** Never watched: "I watched it on…"; else "Add another viewing…". */
  first: boolean;
}) {
  const { t } = useTranslation(['history']);
  const [open, setOpen] = useState(false);
  const today = calendarDay(clock.now());
  const [day, setDay] = useState(today);
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(day) && day >= EARLIEST_DAY && day <= today;
  if (!open)
    return (
      <Button variant="ghost" data-testid="add-viewing" onClick={() => setOpen(true)}>
        {first ? t('history.dated.open') : t('history.dated.another')}
      </Button>
    );
  const add = () => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    recordMoviePlay(movie, day === today ? clock.now().getTime() : new Date(y, m - 1, d, 12).getTime());
    setOpen(false);
    setDay(today);
  };
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      data-testid="add-viewing-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) add();
      }}
    >
      <label className="flex flex-col gap-1 text-sm text-fg">
        {t('history.dated.label')}
        <input
          type="date"
          required
          min={EARLIEST_DAY}
          max={today}
          value={day}
          onChange={(event) => setDay(event.currentTarget.value)}
          aria-invalid={!valid}
          aria-describedby={valid ? undefined : 'add-viewing-invalid'}
          className="min-h-11 rounded-lg bg-surface-2 px-3 text-fg"
        />
      </label>
      <Button type="submit" disabled={!valid}>
        {t('history.dated.add')}
      </Button>
      <Button variant="ghost" onClick={() => setOpen(false)}>
        {t('history.dated.cancel')}
      </Button>
      {!valid && (
        <p id="add-viewing-invalid" className="basis-full text-sm text-fg-muted" role="alert">
          {t('history.dated.invalid')}
        </p>
      )}
    </form>
  );
}

type MovieRef = Pick<MediaDetails, 'id' | 'title' | 'year' | 'poster' | 'runtime'>;

/** A play of the whole movie at `watchedAt` (a mark: it syncs and shows in the history like any play). */
function recordMoviePlay(movie: MovieRef, watchedAt: number): void {
  const duration = (movie.runtime ?? 0) * 60;
  useLibraryStore.getState().recordPlay({
    tmdbId: movie.id,
    type: 'movie',
    title: movie.title,
    year: movie.year,
    poster: movie.poster,
    watchedAt,
    watched: duration,
    duration,
    completed: true,
  });
}

/** A movie never watched here: marking it watched records a play now (it syncs and shows in the history). */
function MarkMovieWatched({
  movie,
}: {
  movie: Pick<MediaDetails, 'id' | 'title' | 'year' | 'poster' | 'runtime'>;
}) {
  const { t } = useTranslation(['history']);
  return (
    <Button
      variant="secondary"
      data-testid="movie-watched"
      onClick={() => recordMoviePlay(movie, clock.now().getTime())}
    >
      {t('history.marks.movieMark')}
    </Button>
  );
}
