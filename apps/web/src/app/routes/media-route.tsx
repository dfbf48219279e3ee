import { useQuery } from '@tanstack/react-query';
import { type MediaDetails } from '@marquee/contract';
import { isReleased, isTitleReleased } from '@marquee/contract/values';
import { toMediaType } from '../../lib/media-keys.ts';
import {
  createContext,
  Suspense,
  useContext,
  useDeferredValue,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useParams } from 'react-router';
import { Footer } from '../../components/layout.tsx';
import { useMediaActions } from '../../components/media-actions.tsx';
import {
  makePlayerMeta,
  PlayerPlaceholder,
  startsOnOpen,
  UnreleasedSlot,
  type PlayerMeta,
} from '../../features/player/index.ts';
import { MediaError } from '../../features/title/media-error.tsx';
import { MediaPage } from '../../features/title/media-page.tsx';
import type { PlayRequest } from '../../features/title/title-header.tsx';
import { useShowResume } from '../../features/title/resume.ts';
import { resolveMediaKey } from '../../features/title/resolve-media-key.ts';
import { isNotFound } from '../../lib/api/index.ts';
import { mediaQueries } from '../../lib/api/queries/media.ts';
import { extensionClient } from '../../lib/extension/messaging.ts';
import { clock } from '../../lib/clock.ts';
import { backTarget } from '../../lib/nav-history.ts';
import { customProxyUrls } from '../../lib/proxy-transport.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { useAccountStore, useOnboardingStore } from '../../stores/index.ts';
import { preloadablePage } from '../preloadable-page.tsx';
import { paths } from '../../lib/paths.ts';

// The player's code (controls, menus, scraping, captions) loads after this page first painted: the
// title page and the player's placeholder show without waiting for it (see MediaRoute).
const PlayerView = preloadablePage(
  () => import('../../features/player/view.ts'),
  (m) => m.PlayerView,
);

/**
 * Onboarding first (the app family's client behaviour) when the instance asks for it and the viewer has neither
 * finished it, nor a custom proxy, nor a working extension.
 */
function useNeedsOnboarding(): boolean | null {
  const completed = useOnboardingStore((s) => s.completed);
  const proxies = useAccountStore((s) => customProxyUrls(s.proxyUrls).length);
  const asked = runtimeConfig().hasOnboarding && !completed && proxies === 0;
  const [extensionOk, setExtensionOk] = useState<boolean | null>(null);
  useEffect(() => {
    if (!asked) return;
    let live = true;
    void extensionClient()
      .state()
      .then((state) => live && setExtensionOk(state === 'success'));
    return () => {
      live = false;
    };
  }, [asked]);
  if (!asked) return false;
  return extensionOk === null ? null : !extensionOk;
}

/** Where the player's back link goes: the last page that was not a player. */
function useBackTo() {
  const location = useLocation();
  return useMemo(() => backTarget(location.pathname + location.search), [location.pathname, location.search]);
}

/**
 * The page: the player (or its placeholder while the details load, or nothing for what cannot play)
 * above the title's information. One layout for every state, so the title page under the player stays
 * mounted while the player above it gets ready.
 */
function MediaLayout({ player, onPlay }: { player: ReactNode; onPlay?: PlayRequest | undefined }) {
  return (
    <div className="flex min-h-dvh flex-col bg-bg">
      {player}
      {onPlay && <TitleTopBar />}
      <main id="main" className="flex-1">
        <div className="mx-auto w-full max-w-screen-2xl px-4 sm:px-6 tv:px-overscan-x">
          <MediaPage onPlay={onPlay} />
        </div>
      </main>
      <Footer />
    </div>
  );
}

/**
 * Whether the viewer pressed Play on the title page (the player then starts at once), and whether it was
 * Start over (from the beginning); null: not pressed.
 */
const PlayRequested = createContext<{ fromStart: boolean } | null>(null);

/** The way back from a title page shown in front of the player (the player's own bar is not there). */
function TitleTopBar() {
  const { t } = useTranslation(['player']);
  const backTo = useBackTo();
  return (
    <nav className="relative z-10 px-2 pt-2 tv:px-overscan-x tv:pt-overscan-y">
      <Link
        to={backTo}
        className="inline-flex min-h-11 items-center gap-1 rounded-full px-3 text-sm font-semibold text-fg hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        data-testid="title-back"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="h-5 w-5 fill-none stroke-current stroke-2 rtl:-scale-x-100"
        >
          <path d="M15 18l-6-6 6-6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        {t('player.back')}
      </Link>
    </nav>
  );
}

/** Set by the redirect from a show's title to its first episode: the viewer opened a title, not an episode. */
interface TitleRedirectState {
  fromTitle?: boolean;
}

function Player({ meta, details }: { meta: PlayerMeta; details: MediaDetails }) {
  const location = useLocation();
  const { season } = useParams();
  const actions = useMediaActions();
  const backTo = useBackTo();
  const requested = useContext(PlayRequested);
  const startOnOpen =
    requested !== null ||
    startsOnOpen({
      search: location.search,
      hasEpisodeInPath: !!season,
      redirectedFromTitle: (location.state as TitleRedirectState | null)?.fromTitle === true,
    });
  return (
    <Suspense fallback={<PlayerPlaceholder backTo={backTo} />}>
      <PlayerView
        key={`${meta.tmdbId}-${meta.episode?.id ?? ''}`}
        meta={meta}
        backTo={backTo}
        titleActions={actions.card?.(details)}
        startOnOpen={startOnOpen}
        fromStart={requested?.fromStart === true}
      />
    </Suspense>
  );
}

function Placeholder() {
  return <PlayerPlaceholder backTo={useBackTo()} />;
}

/** The player's slot for what is not out yet (the contract's release rule): its state, and no player. */
function Unreleased({ kind, date }: { kind: 'episode' | 'title'; date: string | null }) {
  return <UnreleasedSlot backTo={useBackTo()} kind={kind} date={date} />;
}

/**
 * Shows open where the viewer is (the episode Continue Watching resumes, from any of their devices), else
 * at their first episode of season 1 (or the first season listed).
 */
function FirstEpisodeRedirect({ mediaKey, details }: { mediaKey: string; details: MediaDetails }) {
  const location = useLocation();
  const resume = useShowResume(details.id);
  const resumable = resume && details.seasons.some((s) => s.id === resume.seasonId) ? resume : null;
  const season = details.seasons.find((s) => s.number === 1) ?? details.seasons[0];
  const q = useQuery({
    ...mediaQueries.season(details.id, season?.number ?? 1),
    enabled: !!season && !resumable,
  });
  if (resumable)
    return (
      <Navigate
        replace
        to={`${paths.media(mediaKey, resumable.seasonId, resumable.episodeId)}${location.search}`}
        state={{ fromTitle: true } satisfies TitleRedirectState}
      />
    );
  if (!season) return null;
  if (q.isPending) return <Placeholder />;
  // A season the metadata does not have is not found, not a failing service.
  if (q.isError)
    return (
      <MediaError
        kind={isNotFound(q.error) ? 'notFound' : 'failed'}
        error={q.error}
        onRetry={() => void q.refetch()}
      />
    );
  const first = q.data.episodes[0];
  if (!first) return null;
  return (
    <Navigate
      replace
      to={`${paths.media(mediaKey, q.data.id, first.id)}${location.search}`}
      state={{ fromTitle: true } satisfies TitleRedirectState}
    />
  );
}

function ShowPlayer({
  mediaKey,
  details,
  seasonId,
  episodeId,
}: {
  mediaKey: string;
  details: MediaDetails;
  seasonId: string;
  episodeId: string;
}) {
  const season = details.seasons.find((s) => s.id === seasonId);
  const q = useQuery({ ...mediaQueries.season(details.id, season?.number ?? 0), enabled: !!season });
  const meta = useMemo(() => {
    if (!season || !q.data) return null;
    const episode = q.data.episodes.find((e) => e.id === episodeId);
    if (!episode) return null;
    return makePlayerMeta({
      type: 'show',
      title: details.title,
      releaseYear: details.year,
      tmdbId: details.id,
      imdbId: details.imdbId,
      poster: details.poster,
      overview: details.overview,
      mediaKey,
      season: { id: season.id, number: season.number, title: season.title },
      episode: {
        id: episode.id,
        number: episode.number,
        title: episode.title,
        airDate: episode.airDate,
        overview: episode.overview,
      },
      episodes: q.data.episodes.map((e) => ({
        id: e.id,
        number: e.number,
        title: e.title,
        airDate: e.airDate,
      })),
      seasons: details.seasons.map((s) => ({ id: s.id, number: s.number, title: s.title })),
    });
  }, [season, q.data, episodeId, details, mediaKey]);
  if (!season) return <MediaError kind="notFound" />;
  if (q.isPending) return <Placeholder />;
  // A season the metadata does not have is not found, not a failing service.
  if (q.isError)
    return (
      <MediaError
        kind={isNotFound(q.error) ? 'notFound' : 'failed'}
        error={q.error}
        onRetry={() => void q.refetch()}
      />
    );
  if (!meta) return <MediaError kind="notFound" />;
  // A link to an episode that has not aired (or has no date) shows when it airs, never the player.
  const airDate = meta.episode?.airDate ?? null;
  if (!isReleased(airDate, clock.now())) return <Unreleased kind="episode" date={airDate} />;
  return <Player meta={meta} details={details} />;
}

function MoviePlayer({ mediaKey, details }: { mediaKey: string; details: MediaDetails }) {
  const meta = useMemo(
    () =>
      makePlayerMeta({
        type: toMediaType(details.type),
        title: details.title,
        releaseYear: details.year,
        tmdbId: details.id,
        imdbId: details.imdbId,
        poster: details.poster,
        overview: details.overview,
        mediaKey,
      }),
    [details, mediaKey],
  );
  return <Player meta={meta} details={details} />;
}

/**
 * What goes above the title page: the player for a playable title, a placeholder while that is being
 * found out, the Unreleased state for a title or episode that is not out yet.
 */
function PlayerSlot({ mediaKey, parts }: { mediaKey: string; parts: { type: 'movie' | 'tv'; id: string } }) {
  const { season, episode } = useParams();
  const location = useLocation();
  const needsOnboarding = useNeedsOnboarding();
  const q = useQuery(mediaQueries.details(parts.type, parts.id));
  // The player mounts in the background (React yields to the browser while it renders): no long task.
  const details = useDeferredValue(q.data);
  if (needsOnboarding === null) return <Placeholder />;
  if (needsOnboarding)
    return <Navigate replace to={paths.onboardingFor(location.pathname + location.search)} />;
  // The title page below says what went wrong.
  if (q.isError) return null;
  if (!details) return <Placeholder />;
  const released = isTitleReleased(details, clock.now());
  if (details.type === 'tv') {
    if (!season || !episode) {
      // A show that has not started opens on its state, not on an episode that cannot play.
      if (!released) return <Unreleased kind="title" date={details.releaseDate} />;
      return <FirstEpisodeRedirect mediaKey={mediaKey} details={details} />;
    }
    // An episode's own air date decides (a released episode of a show plays, whatever the show's date).
    return <ShowPlayer mediaKey={mediaKey} details={details} seasonId={season} episodeId={episode} />;
  }
  if (!released) return <Unreleased kind="title" date={details.releaseDate} />;
  return <MoviePlayer mediaKey={mediaKey} details={details} />;
}

/**
 * Above a title page shown before Play: nothing, or for a title that is not out yet its state (the
 * page then has no Play). The details are the page's own query: nothing more is asked for.
 */
function TitleFirstSlot({ parts }: { parts: { type: 'movie' | 'tv'; id: string } }) {
  const q = useQuery(mediaQueries.details(parts.type, parts.id));
  if (!q.data || isTitleReleased(q.data, clock.now())) return null;
  return <Unreleased kind="title" date={q.data.releaseDate} />;
}

/**
 * `/media/:media[/:season/:episode]`: the player with the title's information below it. Shows without
 * an episode open their first one; legacy keys and errors are the title page's business.
 */
export function MediaRoute() {
  const { media = '', season } = useParams();
  const location = useLocation();
  const resolved = resolveMediaKey(media);
  // The title whose Play the viewer pressed on its page (the player then starts, on every episode of it).
  const [playFor, setPlayFor] = useState<string | null>(null);
  // The title page's Start over: the player then starts from the beginning, not from saved progress.
  const [startOver, setStartOver] = useState(false);
  const opensPlaying = startsOnOpen({
    search: location.search,
    hasEpisodeInPath: !!season,
    redirectedFromTitle: (location.state as TitleRedirectState | null)?.fromTitle === true,
  });
  // The title page comes first on every screen (docs/architecture.md): the player waits until Play is pressed,
  // and no media is asked for before, unless the link itself starts playing (an episode, `?t=`).
  const titleFirst = resolved.kind === 'current' && !opensPlaying && playFor !== media;
  // Effects run once the first render has been painted: the player's code is asked for then.
  useEffect(() => {
    void PlayerView.preload().catch(() => undefined);
  }, []);
  return (
    <PlayRequested.Provider value={playFor === media ? { fromStart: startOver } : null}>
      <MediaLayout
        player={
          resolved.kind !== 'current' ? null : titleFirst ? (
            <TitleFirstSlot parts={resolved.parts} />
          ) : (
            <PlayerSlot mediaKey={media} parts={resolved.parts} />
          )
        }
        onPlay={
          titleFirst
            ? (options) => {
                setStartOver(options?.fromStart === true);
                setPlayFor(media);
                window.scrollTo({ top: 0 });
              }
            : undefined
        }
      />
    </PlayRequested.Provider>
  );
}

/** The cards' "Mark the whole show as watched" (app.tsx's media actions) runs the title page's code. */
export { markWholeShow } from '../../features/title/mark-show.ts';
