import '../../lib/lazy-catalog.ts';
import { useQuery } from '@tanstack/react-query';
import { mediaPath, toMediaType, type MediaDetails } from '@marquee/contract';
import { useEffect, useMemo, useState } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { Footer, PageLoading } from '../../components/layout.tsx';
import { useMediaActions } from '../../components/media-actions.tsx';
import { makePlayerMeta, PlayerView, type PlayerMeta } from '../../features/player/index.ts';
import { MediaError } from '../../features/title/media-error.tsx';
import { MediaPage } from '../../features/title/media-page.tsx';
import { resolveMediaKey } from '../../features/title/resolve-media-key.ts';
import { detailsQuery, seasonQuery } from '../../features/title/title-queries.ts';
import { extensionClient } from '../../lib/extension/messaging.ts';
import { backTarget } from '../../lib/nav-history.ts';
import { customProxyUrls } from '../../lib/proxy-transport.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { useAccountStore, useOnboardingStore } from '../../stores/index.ts';

/**
 * Onboarding first (client-behaviour §6.4) when the instance asks for it and the viewer has neither
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

/** Title information under the player (the title page's content). */
function TitleInfo() {
  return (
    <div className="mx-auto w-full max-w-screen-2xl px-4 sm:px-6">
      <MediaPage />
    </div>
  );
}

function PlayerWithInfo({ meta, details }: { meta: PlayerMeta; details: MediaDetails }) {
  const location = useLocation();
  const actions = useMediaActions();
  const backTo = useMemo(() => backTarget(location.pathname + location.search), [location.pathname, location.search]);
  return (
    <div className="flex min-h-dvh flex-col bg-bg">
      <PlayerView key={`${meta.tmdbId}-${meta.episode?.id ?? ''}`} meta={meta} backTo={backTo} titleActions={actions.card?.(details)} />
      <main id="main" className="flex-1">
        <TitleInfo />
      </main>
      <Footer />
    </div>
  );
}

/** Shows open at their first episode of season 1 (or the first season listed). */
function FirstEpisodeRedirect({ mediaKey, details }: { mediaKey: string; details: MediaDetails }) {
  const location = useLocation();
  const season = details.seasons.find((s) => s.number === 1) ?? details.seasons[0];
  const q = useQuery({ ...seasonQuery(details.id, season?.number ?? 1), enabled: !!season });
  if (!season) return <TitlePageOnly />;
  if (q.isPending) return <PageLoading />;
  if (q.isError) return <MediaError kind="failed" onRetry={() => void q.refetch()} />;
  const first = q.data.episodes[0];
  if (!first) return <TitlePageOnly />;
  return <Navigate replace to={`${mediaPath(mediaKey, q.data.id, first.id)}${location.search}`} />;
}

function ShowPlayer({ mediaKey, details, seasonId, episodeId }: { mediaKey: string; details: MediaDetails; seasonId: string; episodeId: string }) {
  const season = details.seasons.find((s) => s.id === seasonId);
  const q = useQuery({ ...seasonQuery(details.id, season?.number ?? 0), enabled: !!season });
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
      mediaKey,
      season: { id: season.id, number: season.number, title: season.title },
      episode: { id: episode.id, number: episode.number, title: episode.title, airDate: episode.airDate },
      episodes: q.data.episodes.map((e) => ({ id: e.id, number: e.number, title: e.title, airDate: e.airDate })),
      seasons: details.seasons.map((s) => ({ id: s.id, number: s.number, title: s.title })),
    });
  }, [season, q.data, episodeId, details, mediaKey]);
  if (!season) return <MediaError kind="notFound" />;
  if (q.isPending) return <PageLoading />;
  if (q.isError) return <MediaError kind="failed" onRetry={() => void q.refetch()} />;
  if (!meta) return <MediaError kind="notFound" />;
  return <PlayerWithInfo meta={meta} details={details} />;
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
        mediaKey,
      }),
    [details, mediaKey],
  );
  return <PlayerWithInfo meta={meta} details={details} />;
}

/** The title page alone: everything that is not a playable title (yet), and shows without episodes. */
function TitlePageOnly() {
  return (
    <div className="flex min-h-dvh flex-col bg-bg">
      <main id="main" className="flex-1">
        <TitleInfo />
      </main>
      <Footer />
    </div>
  );
}

/**
 * `/media/:media[/:season/:episode]`: the player with the title's information below it. Shows without
 * an episode open their first one; legacy keys and errors are the title page's business.
 */
export function MediaRoute() {
  const { media = '', season, episode } = useParams();
  const location = useLocation();
  const resolved = resolveMediaKey(media);
  const needsOnboarding = useNeedsOnboarding();
  const parts = resolved.kind === 'current' ? resolved.parts : null;
  const q = useQuery({ ...detailsQuery(parts?.type ?? 'movie', parts?.id ?? '0'), enabled: !!parts });

  if (!parts) return <TitlePageOnly />;
  if (needsOnboarding === null) return <PageLoading />;
  if (needsOnboarding) return <Navigate replace to={`/onboarding?redirect=${encodeURIComponent(location.pathname + location.search)}`} />;
  if (q.isPending || q.isError) return <TitlePageOnly />;
  const details = q.data;
  if (details.type === 'tv') {
    if (!season || !episode) return <FirstEpisodeRedirect mediaKey={media} details={details} />;
    return <ShowPlayer mediaKey={media} details={details} seasonId={season} episodeId={episode} />;
  }
  return <MoviePlayer mediaKey={media} details={details} />;
}
