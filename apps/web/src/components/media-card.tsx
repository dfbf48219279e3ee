import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type MediaSummary } from '@marquee/contract';
import { isTitleReleased } from '@marquee/contract/values';
import { encodeMediaKey } from '../lib/media-keys.ts';
import { clock } from '../lib/clock.ts';
import { useMediaActions } from './media-actions.tsx';
import { paths } from '../lib/paths.ts';
import { useMovieWatched } from './movie-watched.ts';
import { optionalLazy } from './optional-lazy.tsx';
import { PosterImage } from './poster-image.tsx';

/**
 * How the poster loads: `priority` for the few that are on screen first (the page's largest paint),
 * `eager` for others on the first screen, `lazy` (the default) for everything further down or aside.
 */
export type PosterLoading = 'priority' | 'eager' | 'lazy';

/** Intrinsic size of the posters the server hands out (w342): the box is fixed by CSS, these give the ratio. */
const POSTER_WIDTH = 342;
const POSTER_HEIGHT = 513;

export interface MediaCardProps {
  media: MediaSummary;
  /** Fixed width in px (carousels); grids let the card fill its cell. */
  width?: number;
  /** Carousels show the title under the poster truncated; grids in full. */
  titleText?: string;
  posterLoading?: PosterLoading;
  /** Continue Watching: where the title resumes and how much of it is watched. */
  resume?: ResumePoint;
  /** Stands in for the app's card action (Continue Watching's remove button). */
  action?: ReactNode;
}

export interface ResumePoint {
  /** The page it resumes on: the title, or a show's episode. */
  to: string;
  /** Share watched, 0…1. */
  ratio: number;
  /** The episode a show resumes at. */
  episode?: { season: number; number: number };
}

/**
 * A poster card: poster, title, and a line with the type and year (and, resuming a show, the episode).
 * Unreleased titles (the contract's release rule: a date in the future, or no date at all) carry the
 * Unreleased label, are dimmed and are not links; a title the user is part way through is out, whatever
 * dates the library kept of it.
 */
export function MediaCard({
  media,
  width,
  titleText,
  posterLoading = 'lazy',
  resume,
  action: ownAction,
}: MediaCardProps) {
  const { t } = useTranslation(['media']);
  const actions = useMediaActions();
  const released = resume !== undefined || isTitleReleased(media, clock.now());
  // Movies and shows have the ⋯ menu (watched marks); a title not out yet has nothing to mark.
  const markable = released && (media.type === 'movie' || media.type === 'tv');
  const title = titleText ?? media.title;
  const body = (
    <>
      <CardPoster media={media} posterLoading={posterLoading} released={released} />
      {resume && <WatchedBar ratio={resume.ratio} />}
      <div className="mt-2 px-0.5">
        {/* Always two lines high, so a row's height is known before its titles are (no layout shift). */}
        <p className="line-clamp-2 min-h-10 text-sm font-semibold text-fg" title={media.title} dir="auto">
          {title}
        </p>
        <p className="text-xs text-fg-muted">
          {t(`media.types.${media.type}`)}
          {media.year ? ` · ${media.year}` : ''}
          {resume?.episode && (
            <>
              {' · '}
              <span data-testid="episode-badge">
                {t('media.seasons.seasonEpisode', {
                  season: resume.episode.season,
                  episode: resume.episode.number,
                })}
              </span>
            </>
          )}
        </p>
      </div>
    </>
  );
  const style = width ? { width: `${width}px` } : undefined;
  const action = ownAction ?? actions.card?.(media);
  if (!released) {
    return (
      <div
        className="group block shrink-0 cursor-not-allowed opacity-60"
        style={style}
        data-testid="media-card"
        data-unreleased="true"
        aria-disabled="true"
      >
        {body}
      </div>
    );
  }
  const link = (
    <Link
      to={resume?.to ?? paths.media(encodeMediaKey(media.type, media.id, media.title))}
      className="group block shrink-0 rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-accent"
      style={style}
      data-testid="media-card"
    >
      {body}
    </Link>
  );
  if (!action && !markable) return link;
  // The menu and the action sit beside the link, not inside it (a button inside a link is not valid
  // HTML), after it: the link stays the card's first stop, then the menu's button (top start), the action
  // (top end).
  return (
    // `data-card`: OK held on the card opens its menu on a TV (lib/tv/card-menu-key.ts).
    <div className="group/card relative shrink-0" style={style} data-card="">
      {link}
      {markable && <CardMenuButton media={media} />}
      {action && <div className="absolute top-1 end-1">{action}</div>}
    </div>
  );
}

/** The poster, with the Unreleased label or, for a watched movie, the Watched badge. */
function CardPoster({
  media,
  posterLoading,
  released,
}: {
  media: MediaSummary;
  posterLoading: PosterLoading;
  released: boolean;
}) {
  const { t } = useTranslation(['media']);
  const watched = useMovieWatched(media.id, media.type === 'movie');
  return (
    <div className="relative aspect-[2/3] overflow-hidden rounded-lg bg-surface-2 shadow-md">
      <PosterImage
        src={media.poster}
        alt={t('media.posterAlt', { title: media.title })}
        width={POSTER_WIDTH}
        height={POSTER_HEIGHT}
        loading={posterLoading === 'lazy' ? 'lazy' : 'eager'}
        fetchPriority={posterLoading === 'priority' ? 'high' : 'auto'}
        decoding="async"
        className="h-full w-full object-cover transition-transform duration-300 group-hover:scale-105 group-focus-visible:scale-105 motion-reduce:transition-none"
      />
      {!released && (
        <span className="absolute top-2 start-2 rounded bg-black/80 px-2 py-0.5 text-xs font-semibold text-white">
          {t('media.unreleased')}
        </span>
      )}
      {watched && (
        // A watched movie's mark (decision 095: it has a play in the watch history).
        <span className="absolute bottom-2 start-2 flex items-center gap-1 rounded bg-black/80 px-2 py-0.5 text-xs font-semibold text-white">
          <svg
            viewBox="0 0 24 24"
            className="h-3.5 w-3.5"
            fill="none"
            stroke="currentColor"
            strokeWidth="3"
            aria-hidden="true"
          >
            <path d="M5 12.5l4.5 4.5L19 7.5" />
          </svg>
          {t('media.watched')}
        </span>
      )}
    </div>
  );
}

/**
 * A movie card's ⋯ button and its menu (media-card-more.tsx): loaded with the first movie card a page
 * shows, so a first view without cards (`/` on a first visit) carries none of it (decision 062's budget).
 */
const CardMenuButton = optionalLazy(() =>
  import('./media-card-more.tsx').then((m) => ({ default: m.CardMenuButton })),
);

/** Even a title barely started shows some of its bar filled. */
const MIN_BAR_PERCENT = 4;

/** How much is watched: a bar under the poster, in the accent on a track that stands out from the page. */
export function WatchedBar({ ratio }: { ratio: number }) {
  const { t } = useTranslation(['library']);
  const percent = Math.round(Math.min(1, Math.max(0, ratio)) * 100);
  return (
    <div
      className="mt-2 h-1.5 overflow-hidden rounded-full bg-white/25"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-label={t('library.watched', { percent })}
      data-testid="watched-bar"
    >
      <div
        className="h-full rounded-full bg-fg-accent"
        style={{ width: `${Math.max(MIN_BAR_PERCENT, percent)}%` }}
      />
    </div>
  );
}

/** Posters of the first grid rows (two on a phone, up to six wide) load at once, the first two first. */
const GRID_EAGER = 6;
const GRID_PRIORITY = 2;

export function MediaGrid({ items }: { items: MediaSummary[] }) {
  return (
    <ul className="grid grid-cols-2 gap-x-4 gap-y-6 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-5 xl:grid-cols-6">
      {items.map((item, i) => (
        <li key={`${item.type}-${item.id}`}>
          <MediaCard
            media={item}
            posterLoading={i < GRID_PRIORITY ? 'priority' : i < GRID_EAGER ? 'eager' : 'lazy'}
          />
        </li>
      ))}
    </ul>
  );
}

export function MediaGridSkeleton({ count = 12 }: { count?: number }) {
  return (
    <ul
      className="grid grid-cols-2 gap-x-4 gap-y-6 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-5 xl:grid-cols-6"
      aria-hidden="true"
    >
      {Array.from({ length: count }, (_, i) => (
        <li key={i}>
          <MediaCardSkeleton />
        </li>
      ))}
    </ul>
  );
}

/** A card's shape while its title loads: the same height as a MediaCard (poster, two title lines, one line of facts). */
export function MediaCardSkeleton({ width }: { width?: number }) {
  return (
    <div className="shrink-0" style={width ? { width: `${width}px` } : undefined} aria-hidden="true">
      <div className="aspect-[2/3] animate-pulse rounded-lg bg-surface-2" />
      <div className="mt-2 px-0.5">
        <div className="flex h-10 items-start">
          <div className="mt-0.5 h-4 w-3/4 animate-pulse rounded bg-surface-2" />
        </div>
        <div className="h-4" />
      </div>
    </div>
  );
}
