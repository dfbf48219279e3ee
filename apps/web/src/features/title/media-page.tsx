import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { type MediaDetails, type SeasonSummary } from '@marquee/contract';
import { encodeMediaKey } from '../../lib/media-keys.ts';
import { PageLoading } from '../../components/layout.tsx';
import { useMediaActions } from '../../components/media-actions.tsx';
import { isNotFound } from '../../lib/api/index.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useSeasonLabel } from '../../lib/use-season-label.ts';
import { EpisodeList } from './episode-list.tsx';
import { MediaError } from './media-error.tsx';
import { resolveMediaKey } from './resolve-media-key.ts';
import { detailsQuery, justWatchQuery } from './title-queries.ts';
import { paths } from '../../app/paths.ts';
import { PosterImage } from '../../components/poster-image.tsx';

/** Genres as a short list in the viewer's language ("Drama, Crime"). */
const GENRE_LIST: Intl.ListFormatOptions = { style: 'short', type: 'unit' };

/** Season 1 by default (so specials are never the default), else the first listed. */
function defaultSeason(seasons: SeasonSummary[], seasonId?: string): SeasonSummary | undefined {
  return seasons.find((s) => s.id === seasonId) ?? seasons.find((s) => s.number === 1) ?? seasons[0];
}

function SeasonPicker({
  details,
  mediaKey,
  seasonId,
  episodeId,
}: {
  details: MediaDetails;
  mediaKey: string;
  seasonId?: string | undefined;
  episodeId?: string | undefined;
}) {
  const { t } = useTranslation(['media']);
  const seasonLabel = useSeasonLabel();
  const [selectedId, setSelectedId] = useState(() => defaultSeason(details.seasons, seasonId)?.id);
  const selected = details.seasons.find((s) => s.id === selectedId) ?? defaultSeason(details.seasons);
  if (!selected) return <p className="text-fg-muted">{t('media.seasons.empty')}</p>;
  return (
    <section className="mt-10" aria-labelledby="episodes-heading">
      <div className="mb-4 flex flex-wrap items-center gap-4">
        <h2 id="episodes-heading" className="text-xl font-bold text-fg">
          {t('media.seasons.episodes')}
        </h2>
        <label className="ms-auto flex items-center gap-2 text-sm text-fg-muted">
          {t('media.seasons.label')}
          <select
            value={selected.id}
            onChange={(e) => setSelectedId(e.target.value)}
            className="rounded-lg border border-white/10 bg-surface-2 px-3 py-2 text-fg"
            data-testid="season-select"
          >
            {details.seasons.map((s) => (
              <option key={s.id} value={s.id}>
                {seasonLabel(s)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <EpisodeList mediaKey={mediaKey} showId={details.id} season={selected} currentEpisodeId={episodeId} />
    </section>
  );
}

/**
 * The media route. Until the player lands here it shows what the player's metadata step loads:
 * poster, title, year, overview, and for shows the seasons and episodes.
 */
export function MediaPage() {
  const { media = '', season, episode } = useParams();
  const resolved = resolveMediaKey(media);
  if (resolved.kind === 'redirect')
    return <Navigate replace to={paths.media(resolved.key, season, episode)} />;
  if (resolved.kind === 'invalid') return <MediaError kind="notFound" />;
  if (resolved.kind === 'justwatch')
    return <JustWatchRedirect jwType={resolved.jwType} id={resolved.id} season={season} episode={episode} />;
  return (
    <MediaDetailsView
      key={media}
      mediaKey={media}
      type={resolved.parts.type}
      id={resolved.parts.id}
      seasonId={season}
      episodeId={episode}
    />
  );
}

/** Old `JW-…` keys: the server looks the title up, then the page moves to its current key. */
function JustWatchRedirect({
  jwType,
  id,
  season,
  episode,
}: {
  jwType: string;
  id: string;
  season?: string | undefined;
  episode?: string | undefined;
}) {
  const q = useQuery(justWatchQuery(jwType, id));
  if (q.isPending) return <PageLoading />;
  if (q.isError)
    return (
      <MediaError kind={isNotFound(q.error) ? 'notFound' : 'failedApi'} onRetry={() => void q.refetch()} />
    );
  return (
    <Navigate
      replace
      to={paths.media(encodeMediaKey(q.data.type, q.data.id, q.data.title), season, episode)}
    />
  );
}

function MediaDetailsView({
  mediaKey,
  type,
  id,
  seasonId,
  episodeId,
}: {
  mediaKey: string;
  type: 'movie' | 'tv';
  id: string;
  seasonId?: string | undefined;
  episodeId?: string | undefined;
}) {
  const { t, i18n } = useTranslation(['media']);
  const actions = useMediaActions();
  const q = useQuery(detailsQuery(type, id));
  usePageTitle(q.data?.title ?? null);

  if (q.isPending) {
    return (
      <div className="flex flex-col gap-6 py-8 sm:flex-row" aria-busy="true">
        <div className="aspect-[2/3] w-48 shrink-0 animate-pulse rounded-xl bg-surface-2" />
        <div className="flex-1 space-y-3">
          <div className="h-8 w-2/3 animate-pulse rounded bg-surface-2" />
          <div className="h-4 w-1/3 animate-pulse rounded bg-surface-2" />
        </div>
      </div>
    );
  }
  if (q.isError)
    return <MediaError kind={isNotFound(q.error) ? 'notFound' : 'failed'} onRetry={() => void q.refetch()} />;

  const d = q.data;
  return (
    <article className="py-8" data-testid="media-page">
      <div className="flex flex-col gap-6 sm:flex-row sm:gap-8">
        <PosterImage
          src={d.poster}
          alt={t('media.posterAlt', { title: d.title })}
          className="aspect-[2/3] w-40 shrink-0 self-center rounded-xl object-cover shadow-xl sm:w-56 sm:self-start"
        />
        <div className="flex-1">
          <p className="text-sm font-semibold uppercase tracking-wider text-fg-accent">
            {t(`media.types.${d.type}`)}
          </p>
          <h1 className="mt-1 text-3xl font-bold text-fg sm:text-4xl" dir="auto">
            {d.title}
          </h1>
          <p className="mt-2 flex flex-wrap gap-x-3 text-fg-muted">
            <span>{d.year ?? t('media.yearUnknown')}</span>
            {d.runtime ? <span>{t('media.runtime', { minutes: d.runtime })}</span> : null}
            {d.genres.length > 0 && (
              <span>
                {new Intl.ListFormat(i18n.language, GENRE_LIST).format(d.genres.map((g) => g.name))}
              </span>
            )}
          </p>
          {/* An overview may be in English (no translation at the source): it keeps its own direction. */}
          <p className="mt-4 max-w-3xl leading-relaxed text-fg" dir={d.overview ? 'auto' : undefined}>
            {d.overview ?? t('media.overviewMissing')}
          </p>
          {actions.title && <div className="mt-6 flex flex-wrap gap-3">{actions.title(d)}</div>}
        </div>
      </div>
      {d.type === 'tv' && (
        <SeasonPicker details={d} mediaKey={mediaKey} seasonId={seasonId} episodeId={episodeId} />
      )}
    </article>
  );
}
