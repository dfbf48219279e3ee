import { lazy } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { Layout } from '../components/layout.tsx';
import { RouteError } from '../features/errors/route-error.tsx';
import { NotFoundPage } from '../features/errors/not-found-page.tsx';
import { runtimeConfig } from '../lib/runtime-config.ts';
import { HomeRoute } from './routes/home-route.tsx';
import { LegacySearchRoute, QuickSearchRoute } from './routes/legacy-routes.tsx';

// Everything but the home page loads on demand, keeping the first view small.
const DiscoverPage = lazy(() => import('../features/discover/discover-page.tsx').then((m) => ({ default: m.DiscoverPage })));
const MediaPage = lazy(() => import('../features/title/media-page.tsx').then((m) => ({ default: m.MediaPage })));
const AboutPage = lazy(() => import('../features/info/about-page.tsx').then((m) => ({ default: m.AboutPage })));
const SupportPage = lazy(() => import('../features/info/support-page.tsx').then((m) => ({ default: m.SupportPage })));
const CreditsPage = lazy(() => import('../features/info/credits-page.tsx').then((m) => ({ default: m.CreditsPage })));
const DmcaPage = lazy(() => import('../features/info/dmca-page.tsx').then((m) => ({ default: m.DmcaPage })));

export function routes(): RouteObject[] {
  const config = runtimeConfig();
  return [
    {
      element: <Layout />,
      errorElement: <RouteError />,
      children: [
        { path: '/', element: <HomeRoute /> },
        { path: '/browse/:query?', element: <HomeRoute /> },
        { path: '/discover', element: <DiscoverPage /> },
        { path: '/media/:media', element: <MediaPage /> },
        { path: '/media/:media/:season/:episode', element: <MediaPage /> },
        { path: '/s/:query', element: <QuickSearchRoute /> },
        { path: '/search/:type', element: <Navigate replace to="/browse" /> },
        { path: '/search/:type/:query', element: <LegacySearchRoute /> },
        { path: '/about', element: <AboutPage /> },
        { path: '/support', element: <SupportPage /> },
        { path: '/jip', element: <CreditsPage /> },
        ...(config.dmcaEmail ? [{ path: '/dmca', element: <DmcaPage /> }] : []),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}

export const createRouter = () => createBrowserRouter(routes());
