import { lazy, Suspense, type ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RouteError } from '../features/errors/route-error.tsx';
import { PageLoading } from '../components/layout.tsx';
import type { UiLanguage } from '@marquee/contract';
import { mediaQueries } from '../lib/api/queries/media.ts';
import { preloadNamespaces } from '../lib/i18n.ts';
import { LANGUAGES } from '../lib/languages.ts';
import { decodeMediaKey } from '../lib/media-keys.ts';
import { recordVisit } from '../lib/nav-history.ts';
import type { Namespace } from '../locales/resources.ts';
import { runtimeConfig } from '../lib/runtime-config.ts';
import { kidsLimitOf, storedInKidsProfile, useAccountStore } from '../stores/index.ts';
import { AppLayout } from './app-layout.tsx';
import { preloadablePage } from './preloadable-page.tsx';
import { HomeRoute, preloadSearchResults } from './routes/home-route.tsx';
import { DiscoverPage } from '../features/discover/discover-page.tsx';
import { prefetchOpeningRows } from '../features/discover/discover-queries.ts';
import { FIRST_VIEW_NAMESPACES } from './first-view-pages.ts';

// Everything but the home and Discover pages (the two the header leads to; Discover's code is 4 KB on
// the wire, and loading it on demand cost a phone a round trip before its first poster) loads on demand.
// The player with the title page below it; hls.js loads later still, only for HLS sources.
/**
 * The catalog namespaces of each lazily loaded page beside those of the layout (LAYOUT_NAMESPACES):
 * they load together with the page's code. Each component's `useTranslation(['...'])` lists what it uses
 * (and would load anything missing), so this table only saves a round trip.
 */
const PAGE_NAMESPACES = {
  media: FIRST_VIEW_NAMESPACES.media,
  discover: FIRST_VIEW_NAMESPACES.discover,
  onboarding: ['onboarding'],
  about: ['about'],
  support: ['support'],
  jip: ['jip'],
  dmca: ['dmca'],
  notFound: ['notFound'],
  account: ['auth', 'customer'],
  settings: ['settings', 'accountSettings', 'auth', 'customer', 'membership', 'trakt'],
  subscription: ['membership', 'customer', 'accountSettings', 'landing'],
  admin: ['admin'],
} as const satisfies Record<string, readonly Namespace[]>;

/** A page whose code and catalog namespaces load on demand, in parallel. */
function page<M>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType,
  namespaces: readonly Namespace[],
) {
  return lazy(() =>
    Promise.all([load(), preloadNamespaces(namespaces)]).then(([module]) => ({ default: pick(module) })),
  );
}

/** What a kids' profile sees instead of a page it does not open (decision 106). */
const KidsClosedNotice = page(
  () => import('../features/account/kids-closed.tsx'),
  (m) => m.KidsClosedNotice,
  ['customer'],
);

/** A page of the account's grown-ups: a kids' profile gets the notice, and the page's code never loads. */
function closedToKids(Page: ComponentType): ComponentType {
  return function ClosedToKids() {
    const kids = useAccountStore((s) => kidsLimitOf(s.account) !== null);
    return kids ? <KidsClosedNotice /> : <Page />;
  };
}

// Everything but the home and Discover pages (the two the header leads to; Discover's code is 4 KB on
// the wire, and loading it on demand cost a phone a round trip before its first poster) loads on demand.
// The player with the title page below it; hls.js loads later still, only for HLS sources.
const MediaRoute = preloadablePage(
  () =>
    Promise.all([import('./routes/media-route.tsx'), preloadNamespaces(PAGE_NAMESPACES.media)]).then(
      ([module]) => module,
    ),
  (m) => m.MediaRoute,
);
const onboarding = () => import('./routes/onboarding-route.tsx');
const OnboardingRoute = page(onboarding, (m) => m.OnboardingRoute, PAGE_NAMESPACES.onboarding);
const OnboardingExtensionRoute = page(
  onboarding,
  (m) => m.OnboardingExtensionRoute,
  PAGE_NAMESPACES.onboarding,
);
const OnboardingProxyRoute = page(onboarding, (m) => m.OnboardingProxyRoute, PAGE_NAMESPACES.onboarding);
const AboutPage = page(
  () => import('../features/info/about-page.tsx'),
  (m) => m.AboutPage,
  PAGE_NAMESPACES.about,
);
const SupportPage = page(
  () => import('../features/info/support-page.tsx'),
  (m) => m.SupportPage,
  PAGE_NAMESPACES.support,
);
const CreditsPage = page(
  () => import('../features/info/credits-page.tsx'),
  (m) => m.CreditsPage,
  PAGE_NAMESPACES.jip,
);
const DmcaPage = page(
  () => import('../features/info/dmca-page.tsx'),
  (m) => m.DmcaPage,
  PAGE_NAMESPACES.dmca,
);
const MyListPage = page(
  () => import('../features/library/my-list-page.tsx'),
  (m) => m.MyListPage,
  ['history'],
);
const HistoryPage = page(
  () => import('../features/library/history-page.tsx'),
  (m) => m.HistoryPage,
  ['history'],
);
const TransferPage = closedToKids(
  page(
    () => import('../features/transfer/transfer-page.tsx'),
    (m) => m.TransferPage,
    ['transfer'],
  ),
);
const LoginPage = page(
  () => import('../features/account/login-page.tsx'),
  (m) => m.LoginPage,
  PAGE_NAMESPACES.account,
);
// Old links (`/s/…`, `/search/…`): their few lines load when one is opened.
const legacy = () => import('./routes/legacy-routes.tsx');
const QuickSearchRoute = page(legacy, (m) => m.QuickSearchRoute, []);
const LegacySearchRoute = page(legacy, (m) => m.LegacySearchRoute, []);
const NotFoundPage = page(
  () => import('../features/errors/not-found-page.tsx'),
  (m) => m.NotFoundPage,
  ['notFound'],
);
const CodeSignInPage = page(
  () => import('../features/account/code-sign-in-page.tsx'),
  (m) => m.CodeSignInPage,
  PAGE_NAMESPACES.account,
);
const LinkPage = closedToKids(
  page(
    () => import('../features/account/link-page.tsx'),
    (m) => m.LinkPage,
    PAGE_NAMESPACES.account,
  ),
);
const RegisterPage = page(
  () => import('../features/account/register-page.tsx'),
  (m) => m.RegisterPage,
  PAGE_NAMESPACES.account,
);
const PartyJoinPage = closedToKids(
  page(
    () => import('../features/player/party/party-join-page.tsx'),
    (m) => m.PartyJoinPage,
    ['player'],
  ),
);
const SettingsRoute = page(
  () => import('./routes/settings-route.tsx'),
  (m) => m.SettingsRoute,
  PAGE_NAMESPACES.settings,
);
// Subscription site: membership, household profiles, admin pages (all lazy; guards inside).
const SubscriptionRoute = closedToKids(
  page(
    () => import('./routes/subscription-route.tsx'),
    (m) => m.SubscriptionRoute,
    PAGE_NAMESPACES.subscription,
  ),
);
const ProfilesPage = page(
  () => import('../features/account/profiles-page.tsx'),
  (m) => m.ProfilesPage,
  PAGE_NAMESPACES.account,
);
const admin = () => import('./routes/admin-routes.tsx');
const PromosRoute = closedToKids(page(admin, (m) => m.PromosRoute, PAGE_NAMESPACES.admin));
const AdminRoute = closedToKids(page(admin, (m) => m.AdminRoute, PAGE_NAMESPACES.admin));

export function routes(): RouteObject[] {
  const config = runtimeConfig();
  // The player fills the screen: it has no site header, its own back link and the title page below it.
  const media = (
    <Suspense fallback={<PageLoading page />}>
      <MediaRoute />
    </Suspense>
  );
  return [
    { path: '/media/:media', element: media, errorElement: <RouteError /> },
    { path: '/media/:media/:season/:episode', element: media, errorElement: <RouteError /> },
    {
      element: <AppLayout />,
      errorElement: <RouteError />,
      children: [
        { path: '/', element: <HomeRoute /> },
        { path: '/browse/:query?', element: <HomeRoute /> },
        { path: '/discover', element: <DiscoverPage /> },
        { path: '/onboarding', element: <OnboardingRoute /> },
        { path: '/onboarding/extension', element: <OnboardingExtensionRoute /> },
        { path: '/onboarding/proxy', element: <OnboardingProxyRoute /> },
        { path: '/s/:query', element: <QuickSearchRoute /> },
        { path: '/search/:type', element: <Navigate replace to="/browse" /> },
        { path: '/search/:type/:query', element: <LegacySearchRoute /> },
        { path: '/about', element: <AboutPage /> },
        { path: '/support', element: <SupportPage /> },
        { path: '/jip', element: <CreditsPage /> },
        // Subscription site: /mylist is the browse screen of /browse (decision 042).
        { path: '/mylist', element: config.variant === 'subscription' ? <HomeRoute /> : <MyListPage /> },
        { path: '/history', element: <HistoryPage /> },
        { path: '/import', element: <TransferPage /> },
        { path: '/login', element: <LoginPage /> },
        { path: '/login/code', element: <CodeSignInPage /> },
        { path: '/link', element: <LinkPage /> },
        { path: '/party/:partyId', element: <PartyJoinPage /> },
        { path: '/register', element: <RegisterPage /> },
        { path: '/settings', element: <SettingsRoute /> },
        // Only an instance with a payment gateway sells memberships; elsewhere /subscription is not found.
        ...(config.paymentGateway ? [{ path: '/subscription', element: <SubscriptionRoute /> }] : []),
        { path: '/profiles', element: <ProfilesPage /> },
        { path: '/promos', element: <PromosRoute /> },
        { path: '/admin', element: <AdminRoute /> },
        ...(config.dmcaEmail ? [{ path: '/dmca', element: <DmcaPage /> }] : []),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}

/**
 * Starts loading the code of the page being opened together with the app's own code, instead of after
 * the app's first render asked for it (a network round trip less before the page shows on a phone).
 * Resolves when it is there (never rejects: a failed chunk is the page's error to show).
 */
export function preloadRouteCode(pathname: string): Promise<void> {
  if (pathname.startsWith('/media/')) return MediaRoute.preload().catch(() => undefined);
  return pathname.startsWith('/browse/') ? preloadSearchResults() : Promise.resolve();
}

/**
 * Asks for the data of the page being opened beside the app's own code: a title page's details, or
 * Discover's first rows (the queries those pages make, same keys), so their first pictures do not wait
 * for the first render first.
 * `language`: the UI language the first render uses. Never rejects (the page shows a failure itself).
 */
export function preloadRouteData(queryClient: QueryClient, pathname: string, language: string): void {
  // A kids' profile's titles are asked for with its session, which is not there yet (decision 106).
  if (storedInKidsProfile()) return;
  const content = ((LANGUAGES as readonly string[]).includes(language) ? language : 'en') as UiLanguage;
  // Its first two rows (the largest paint is a poster of the first).
  if (pathname === '/discover') return prefetchOpeningRows(queryClient, content);
  const match = /^\/media\/([^/]+)/.exec(pathname);
  if (!match) return;
  const key = decodeMediaKey(decodeURIComponent(match[1]!));
  if (!key) return;
  void queryClient.prefetchQuery(mediaQueries.details(key.type, key.id, content));
}

/** The catalog namespaces of the page being opened, loaded with the layout's before the first render. */
export function pageNamespaces(pathname: string): readonly Namespace[] {
  if (pathname.startsWith('/media/')) return PAGE_NAMESPACES.media;
  if (pathname === '/discover') return PAGE_NAMESPACES.discover;
  return [];
}

export function createRouter() {
  const router = createBrowserRouter(routes());
  // Remembered for the player's back link.
  recordVisit(router.state.location.pathname + router.state.location.search);
  router.subscribe((state) => recordVisit(state.location.pathname + state.location.search));
  return router;
}
