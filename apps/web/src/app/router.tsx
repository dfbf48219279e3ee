import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RouteError } from '../features/errors/route-error.tsx';
import { NotFoundPage } from '../features/errors/not-found-page.tsx';
import { PageLoading } from '../components/layout.tsx';
import { recordVisit } from '../lib/nav-history.ts';
import { runtimeConfig } from '../lib/runtime-config.ts';
import { AppLayout } from './app-layout.tsx';
import { preloadablePage } from './preloadable-page.tsx';
import { HomeRoute } from './routes/home-route.tsx';
import { DiscoverPage } from '../features/discover/discover-page.tsx';
import { LegacySearchRoute, QuickSearchRoute } from './routes/legacy-routes.tsx';

// Everything but the home and Discover pages (the two the header leads to; Discover's code is 4 KB on
// the wire, and loading it on demand cost a phone a round trip before its first poster) loads on demand.
// The player with the title page below it; hls.js loads later still, only for HLS sources.
const MediaRoute = preloadablePage(
  () => import('./routes/media-route.tsx'),
  (m) => m.MediaRoute,
);
const OnboardingRoute = lazy(() =>
  import('./routes/onboarding-route.tsx').then((m) => ({ default: m.OnboardingRoute })),
);
const OnboardingExtensionRoute = lazy(() =>
  import('./routes/onboarding-route.tsx').then((m) => ({ default: m.OnboardingExtensionRoute })),
);
const OnboardingProxyRoute = lazy(() =>
  import('./routes/onboarding-route.tsx').then((m) => ({ default: m.OnboardingProxyRoute })),
);
const AboutPage = lazy(() =>
  import('../features/info/about-page.tsx').then((m) => ({ default: m.AboutPage })),
);
const SupportPage = lazy(() =>
  import('../features/info/support-page.tsx').then((m) => ({ default: m.SupportPage })),
);
const CreditsPage = lazy(() =>
  import('../features/info/credits-page.tsx').then((m) => ({ default: m.CreditsPage })),
);
const DmcaPage = lazy(() => import('../features/info/dmca-page.tsx').then((m) => ({ default: m.DmcaPage })));
const MyListPage = lazy(() =>
  import('../features/library/my-list-page.tsx').then((m) => ({ default: m.MyListPage })),
);
const LoginPage = lazy(() =>
  import('../features/account/login-page.tsx').then((m) => ({ default: m.LoginPage })),
);
const RegisterPage = lazy(() =>
  import('../features/account/register-page.tsx').then((m) => ({ default: m.RegisterPage })),
);
const SettingsRoute = lazy(() =>
  import('./routes/settings-route.tsx').then((m) => ({ default: m.SettingsRoute })),
);
// Subscription site: membership, household profiles, admin pages (all lazy; guards inside).
const SubscriptionRoute = lazy(() =>
  import('./routes/subscription-route.tsx').then((m) => ({ default: m.SubscriptionRoute })),
);
const ProfilesPage = lazy(() =>
  import('../features/account/profiles-page.tsx').then((m) => ({ default: m.ProfilesPage })),
);
const PromosRoute = lazy(() => import('./routes/admin-routes.tsx').then((m) => ({ default: m.PromosRoute })));
const AdminRoute = lazy(() => import('./routes/admin-routes.tsx').then((m) => ({ default: m.AdminRoute })));

export function routes(): RouteObject[] {
  const config = runtimeConfig();
  // The player fills the screen: it has no site header, its own back link and the title page below it.
  const media = (
    <Suspense fallback={<PageLoading />}>
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
        // Subscription site: /mylist is the browse screen of /browse (the subscription seed spec).
        { path: '/mylist', element: config.variant === 'subscription' ? <HomeRoute /> : <MyListPage /> },
        { path: '/login', element: <LoginPage /> },
        { path: '/register', element: <RegisterPage /> },
        { path: '/settings', element: <SettingsRoute /> },
        { path: '/subscription', element: <SubscriptionRoute /> },
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
  return pathname.startsWith('/media/') ? MediaRoute.preload().catch(() => undefined) : Promise.resolve();
}

export function createRouter() {
  const router = createBrowserRouter(routes());
  // Remembered for the player's back link.
  recordVisit(router.state.location.pathname + router.state.location.search);
  router.subscribe((state) => recordVisit(state.location.pathname + state.location.search));
  return router;
}
