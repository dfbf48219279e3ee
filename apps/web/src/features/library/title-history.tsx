import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';
import { clock } from '../../lib/clock.ts';
import { Link } from 'react-router';
import type { MediaDetails } from '@marquee/contract';
import { dateTimeFormat } from '../../lib/intl.ts';
import { toMediaType } from '../../lib/media-keys.ts';
import { paths } from '../../lib/paths.ts';
import { useLibraryStore } from '../../stores/index.ts';
import { playsOf } from '../../stores/library/history-view.ts';

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
  if (!last) return type === 'movie' ? <MarkMovieWatched movie={media} /> : null;
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
    <p className="basis-full text-sm text-fg-muted" data-testid="title-history">
      <Link
        to={paths.history}
        className="underline-offset-2 hover:text-fg hover:underline focus-visible:outline-2 focus-visible:outline-accent"
      >
        {text}
      </Link>
    </p>
  );
}

/** A movie never watched here: marking it watched records a play now (it syncs and shows in the history). */
function MarkMovieWatched({
  movie,
}: {
  movie: Pick<MediaDetails, 'id' | 'title' | 'year' | 'poster' | 'runtime'>;
}) {
  const { t } = useTranslation(['history']);
  const duration = (movie.runtime ?? 0) * 60;
  return (
    <Button
      variant="secondary"
      data-testid="movie-watched"
      onClick={() =>
        useLibraryStore.getState().recordPlay({
          tmdbId: movie.id,
          type: 'movie',
          title: movie.title,
          year: movie.year,
          poster: movie.poster,
          watchedAt: clock.now().getTime(),
          watched: duration,
          duration,
          completed: true,
        })
      }
    >
      {t('history.marks.movieMark')}
    </Button>
  );
}
