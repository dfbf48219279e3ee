import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import { lazy, StrictMode, Suspense, useCallback, useEffect, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { MediaActionsProvider, type MediaActions } from '../components/media-actions.tsx';
import { optionalLazy } from '../components/optional-lazy.tsx';
import { useProfileLoadFailure } from '../features/account/index.ts';
import { ErrorBoundary } from '../features/errors/error-boundary.tsx';
import { DowntimeGate } from '../features/info/downtime-notice.tsx';
import { BookmarkToggle } from '../features/library/index.ts';
import { changeLanguage } from '../lib/i18n.ts';
import { startLanguage } from '../lib/languages.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { applyTheme } from '../lib/theme.ts';
import { useTvModeDocument } from '../lib/tv/tv-mode.ts';
import { useTvNavigation } from '../lib/tv/use-tv-navigation.ts';
import { appStorage } from '../lib/storage.ts';
import { ACCESS_TOKEN_KEY, PENDING_SIGN_OUTS_KEY } from '../lib/sync/sync-keys.ts';
import { useAccountStore, usePreferencesStore } from '../stores/index.ts';
import { createRouter } from './router.tsx';
import { paths } from '../lib/paths.ts';

/** The chosen theme, or the default (teal on 20 April). */
function useTheme() {
  const theme = usePreferencesStore((s) => s.theme);
  useEffect(() => applyTheme(theme), [theme]);
}

/** The UI follows the language preference (changed in settings, or by the account on restore). */
function useLanguage(instance: i18n) {
  const language = usePreferencesStore((s) => s.language);
  useEffect(() => {
    const target = startLanguage(language);
    if (instance.language !== target) void changeLanguage(instance, target);
  }, [instance, language]);
}

// Shown only on a title page, or when the account cannot be loaded: not part of the first view.
// The title page's library extras: their code comes when a title page opens, and a page whose extras
// could not be fetched (offline) still shows, without them.
const TitleHistory = optionalLazy(() =>
  import('../features/library/title-history.tsx').then((m) => ({ default: m.TitleExtras })),
);
const ListsPicker = optionalLazy(() =>
  import('../features/library/lists-picker.tsx').then((m) => ({ default: m.ListsPicker })),
);
const ProfileLoadErrorScreen = lazy(() =>
  import('../features/account/profile-load-error-screen.tsx').then((m) => ({
    default: m.ProfileLoadErrorScreen,
  })),
);

const mediaActions: MediaActions = {
  card: (media) => <BookmarkToggle media={media} />,
  title: (media) => (
    <>
      <BookmarkToggle media={media} variant="title" />
      <ListsPicker media={media} />
      <TitleHistory media={media} />
    </>
  ),
  // The title page's code (its route's chunk, which the cards' next step loads anyway).
  markShow: (show, client) => import('./routes/media-route.tsx').then((m) => m.markWholeShow(show, client)),
};

/**
 * A session the older clients' customer login left behind is adopted by the account layer, whose code
 * loads only then; the sync session, below that layer, is handed this (docs/architecture.md, "Layers").
 */
const adoptAccessToken = () => import('../lib/account/email-auth.ts').then((m) => m.adoptAccessToken());

/** Whether this device has anything for the sync session: an account, the older login's token, sign-outs to send. */
const syncHasWork = () =>
  useAccountStore.getState().account !== null ||
  appStorage().getItem(ACCESS_TOKEN_KEY) !== null ||
  appStorage().getItem(PENDING_SIGN_OUTS_KEY) !== null;

function Routes() {
  const [router] = useState(createRouter);
  // A remote's Back on the tab's first screen that is not home (a shared link, a search) goes home, in
  // its place: Back there again stays home.
  useTvNavigation(useCallback(() => router.navigate(paths.home, { replace: true }), [router]));
  if (useProfileLoadFailure() === 'screen')
    return (
      <Suspense fallback={null}>
        <ProfileLoadErrorScreen />
      </Suspense>
    );
  return <RouterProvider router={router} />;
}

/** `queryClient`: one made before the first render, holding data asked for during start-up. */
export function App({ i18n, queryClient: given }: { i18n: i18n; queryClient?: QueryClient }) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  useTheme();
  useLanguage(i18n);
  useTvModeDocument(usePreferencesStore((s) => s.tvMode));
  useEffect(() => {
    // Sync code loads right after the first view, not inside it — and on a visitor's device, which has
    // nothing to sync, only once an account appears (a sign-in here or in another tab).
    let stop: (() => void) | undefined;
    let live = true;
    const start = () =>
      void import('../lib/sync/session.ts').then((m) => {
        if (live && !stop) stop = m.startSync(window, { adoptAccessToken });
      });
    let unsubscribe: (() => void) | undefined;
    if (syncHasWork()) start();
    else
      unsubscribe = useAccountStore.subscribe((s) => {
        if (!s.account) return;
        unsubscribe?.();
        start();
      });
    return () => {
      live = false;
      unsubscribe?.();
      stop?.();
    };
  }, []);
  return (
    <StrictMode>
      <ErrorBoundary>
        <I18nextProvider i18n={i18n}>
          <QueryClientProvider client={queryClient}>
            <MediaActionsProvider value={mediaActions}>
              <DowntimeGate>
                <Routes />
              </DowntimeGate>
            </MediaActionsProvider>
          </QueryClientProvider>
        </I18nextProvider>
      </ErrorBoundary>
    </StrictMode>
  );
}
