import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { greetingFor } from '../../lib/calendar.ts';
import { ButtonLink } from '../../components/button.tsx';
import { optionalLazy } from '../../components/optional-lazy.tsx';
import { useLibraryRefreshOnOpen } from '../../lib/library-refresh.ts';
import { MediaGridSkeleton } from '../../components/media-card.tsx';
import { SearchBar, useSearchRoute } from '../../features/search/index.ts';
import { preloadablePage } from '../preloadable-page.tsx';
import { clock } from '../../lib/clock.ts';
import { preloadNamespaces } from '../../lib/i18n.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useRandomPhrase } from '../../lib/use-random-phrase.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { profileChosen, useAccountStore, useLibraryStore } from '../../stores/index.ts';
import { paths } from '../../lib/paths.ts';
import { FIRST_VIEW_NAMESPACES } from '../first-view-pages.ts';

const loadLanding = () =>
  Promise.all([
    import('../../features/landing/landing-page.tsx'),
    preloadNamespaces(FIRST_VIEW_NAMESPACES.landing),
  ]);
const LandingPage = lazy(() => loadLanding().then(([m]) => ({ default: m.LandingPage })));

/**
 * Fetches the landing page's code while signed in on a subscription site (the service worker keeps it),
 * so signing out offline lands on it instead of a page this device never loaded.
 */
export function preloadLanding(): void {
  if (runtimeConfig().variant === 'subscription') void loadLanding().catch(() => undefined);
}
/**
 * Continue Watching and My List (features/library), loaded only when the library holds something: a
 * first visit (nothing yet) shows the empty state without their code (decision 062's budget).
 */
const HomeLibrary = optionalLazy(() =>
  import('../../features/library/library-sections.tsx').then((m) => ({ default: m.HomeLibrary })),
);
function HomeSections({ empty }: { empty: React.ReactNode }) {
  // An empty library here may be a device whose library the server is bringing: read it when the page opens.
  useLibraryRefreshOnOpen();
  const held = useLibraryStore(
    (s) => Object.keys(s.bookmarks).length > 0 || Object.keys(s.progress).length > 0,
  );
  return held ? <HomeLibrary empty={empty} /> : <>{empty}</>;
}

/**
 * The search's results: their code comes when the viewer starts typing (the results wait for a pause in
 * typing anyway), or with the page when it is opened at `/browse/…` (`preloadSearchResults`).
 */
const SearchResults = preloadablePage(
  () => import('../../features/search/search-results.tsx'),
  (m) => m.SearchResults,
);
export const preloadSearchResults = () => SearchResults.preload().catch(() => undefined);

const ProfilesPage = lazy(() =>
  import('../../features/account/profiles-page.tsx').then((m) => ({ default: m.ProfilesPage })),
);

/**
 * `/`: on a subscription site, the landing page for signed-out visitors, and "who's watching" after a
 * sign-in until a profile is chosen (decision 042; a passphrase account only when it has household
 * profiles, decision 108); otherwise the home / browse screen.
 */
export function HomeRoute() {
  const landing = useAccountStore((s) =>
    s.account ? (profileChosen(s.account) ? null : 'profiles') : 'landing',
  );
  const atRoot = useLocation().pathname === '/';
  if (atRoot && landing === 'landing' && runtimeConfig().variant === 'subscription') return <LandingPage />;
  if (atRoot && landing === 'profiles') return <ProfilesPage />;
  return <BrowseScreen />;
}

/** `/`, `/browse/{query}` (and `/mylist` on a subscription site): greeting, search, then results or the home sections. */
function BrowseScreen() {
  const { t } = useTranslation(['home']);
  const search = useSearchRoute();
  const greeting = useRandomPhrase(`home.titles.${greetingFor(clock.now())}`);
  usePageTitle(search.text ? search.text : null);

  return (
    <div className="pb-8">
      <div className="flex flex-col items-center pt-12 pb-6 text-center sm:pt-20">
        <h1 className="max-w-3xl text-3xl font-bold text-fg sm:text-5xl" data-testid="greeting">
          {greeting}
        </h1>
      </div>
      {/* In TV mode it scrolls away like the header (components/layout.tsx). */}
      <div className="sticky top-16 z-20 [@media(max-height:30rem)]:top-0 mx-auto max-w-2xl bg-bg/0 py-3 tv:static">
        <SearchBar
          value={search.text}
          onChange={(text) => {
            void preloadSearchResults();
            search.onChange(text);
          }}
          onClear={search.onClear}
        />
      </div>
      <div className="mt-8">
        {search.text.trim() ? (
          <Suspense fallback={<MediaGridSkeleton />}>
            <SearchResults search={search} />
          </Suspense>
        ) : (
          <HomeSections
            empty={
              <div className="flex flex-col items-center gap-4 py-12 text-center">
                <p className="max-w-md text-fg-muted">{t('home.empty.text')}</p>
                <ButtonLink to={paths.discover}>{t('home.empty.discover')}</ButtonLink>
              </div>
            }
          />
        )}
      </div>
    </div>
  );
}
