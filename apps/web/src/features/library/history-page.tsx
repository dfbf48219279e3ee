import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/button.tsx';
import { CloseIcon } from '../../components/close-icon.tsx';
import { PosterImage } from '../../components/poster-image.tsx';
import { dateTimeFormat } from '../../lib/intl.ts';
import { useLibraryRefreshOnOpen } from '../../lib/library-refresh.ts';
import { encodeMediaKey, toTmdbType, type MediaType } from '../../lib/media-keys.ts';
import { paths } from '../../lib/paths.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { clock } from '../../lib/clock.ts';
import { useLibraryStore } from '../../stores/index.ts';
import { historyByDay, type HistoryDay } from '../../stores/library/history-view.ts';
import type { PlayEntry } from '../../stores/library/history-rules.ts';

type Filter = 'all' | MediaType;
/** A day's heading ("Saturday, November 21, 2026") and a play's time ("9:41 PM"), in the viewer's language. */
const DAY: Intl.DateTimeFormatOptions = { dateStyle: 'full' };
const TIME: Intl.DateTimeFormatOptions = { timeStyle: 'short' };
const FILTERS: readonly Filter[] = ['all', 'movie', 'show'];

/** `/history`: what was watched, by day, newest first; a movie or an episode per entry, removable. */
export function HistoryPage() {
  const { t, i18n } = useTranslation(['history', 'media']);
  usePageTitle(t('history.title'));
  useLibraryRefreshOnOpen();
  const history = useLibraryStore((s) => s.history);
  const [filter, setFilter] = useState<Filter>('all');
  const days = useMemo(
    () =>
      historyByDay(
        Object.values(history).filter((p) => filter === 'all' || p.type === filter),
        clock.now().getTime(),
      ),
    [history, filter],
  );
  const empty = Object.keys(history).length === 0;
  const dayName = (day: HistoryDay) =>
    day.relative === 0
      ? t('history.today')
      : day.relative === 1
        ? t('history.yesterday')
        : dateTimeFormat(i18n.language, DAY).format(day.start);

  return (
    <div className="py-8">
      <div className="mb-6 flex flex-wrap items-baseline justify-between gap-x-6 gap-y-2">
        <h1 className="text-3xl font-bold text-fg">{t('history.title')}</h1>
        <Link
          to={paths.transfer}
          className="inline-flex min-h-11 items-center text-sm font-semibold text-fg-accent underline focus-visible:outline-2 focus-visible:outline-accent"
          data-testid="history-import-link"
        >
          {t('history.importLink')}
        </Link>
      </div>
      {empty ? (
        <p className="max-w-md py-12 text-fg-muted" data-testid="history-empty">
          {t('history.empty')}
        </p>
      ) : (
        <>
          <fieldset className="mb-8 flex flex-wrap gap-2" data-testid="history-filter">
            <legend className="sr-only">{t('history.filter.label')}</legend>
            {FILTERS.map((value) => (
              <label
                key={value}
                className="inline-flex min-h-11 cursor-pointer items-center rounded-full bg-surface-2 px-4 text-sm font-semibold text-fg has-[:checked]:bg-accent has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent"
              >
                <input
                  type="radio"
                  name="history-filter"
                  value={value}
                  checked={filter === value}
                  onChange={() => setFilter(value)}
                  className="sr-only"
                />
                {t(`history.filter.${value}`)}
              </label>
            ))}
          </fieldset>
          {days.length === 0 && (
            <p className="text-fg-muted" data-testid="history-none-of-kind">
              {t('history.noneOfKind')}
            </p>
          )}
          {days.map((day) => (
            <section key={day.start} aria-labelledby={`day-${day.start}`} className="mb-8">
              <h2 id={`day-${day.start}`} className="mb-3 text-lg font-bold text-fg">
                {dayName(day)}
              </h2>
              <ul className="flex flex-col gap-2" data-testid="history-day">
                {day.plays.map((play) => (
                  <HistoryRow
                    key={`${play.type}:${play.tmdbId}:${play.episode?.id ?? ''}:${play.watchedAt}`}
                    play={play}
                  />
                ))}
              </ul>
            </section>
          ))}
        </>
      )}
    </div>
  );
}

/** One play: poster, title (a link to it), the episode, the time, and a button that removes it. */
function HistoryRow({ play }: { play: PlayEntry }) {
  const { t, i18n } = useTranslation(['history', 'media']);
  const removePlays = useLibraryStore((s) => s.removePlays);
  const key = encodeMediaKey(toTmdbType(play.type), play.tmdbId);
  const to =
    play.season && play.episode ? paths.media(key, play.season.id, play.episode.id) : paths.media(key);
  const episode =
    play.season && play.episode
      ? t('media.seasons.seasonEpisode', { season: play.season.number, episode: play.episode.number })
      : null;
  return (
    <li className="flex items-center gap-3 rounded-lg bg-surface-1 p-2" data-testid="history-entry">
      <PosterImage
        src={play.poster}
        alt=""
        width={46}
        height={69}
        loading="lazy"
        className="h-[69px] w-[46px] shrink-0 rounded object-cover"
      />
      <div className="min-w-0 flex-1">
        <Link
          to={to}
          className="block truncate font-semibold text-fg hover:underline focus-visible:outline-2 focus-visible:outline-accent"
        >
          {play.title}
        </Link>
        <p className="text-sm text-fg-muted">
          {episode && (
            <>
              <span>{episode}</span>
              {play.episode?.title ? <span> · {play.episode.title}</span> : null}
              <span aria-hidden="true"> · </span>
            </>
          )}
          <time dateTime={new Date(play.watchedAt).toISOString()}>
            {dateTimeFormat(i18n.language, TIME).format(play.watchedAt)}
          </time>
        </p>
      </div>
      <Button
        variant="ghost"
        aria-label={t('history.remove', { title: play.title })}
        data-testid="history-remove"
        onClick={() =>
          removePlays({
            type: play.type,
            tmdbId: play.tmdbId,
            ...(play.season ? { seasonId: play.season.id } : {}),
            ...(play.episode ? { episodeId: play.episode.id } : {}),
            watchedAt: play.watchedAt,
          })
        }
      >
        <CloseIcon />
      </Button>
    </li>
  );
}
