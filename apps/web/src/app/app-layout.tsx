import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { HeaderLink, Layout } from '../components/layout.tsx';
import { useProfileLoadFailure, useShutProfile } from '../features/account/index.ts';
import { RejectedChanges } from '../features/library/index.ts';
import { runtimeConfig } from '../lib/runtime-config.ts';
import { useAccountStore, useMigrationStatus } from '../stores/index.ts';
import { paths } from '../lib/paths.ts';
import { preloadLanding } from './routes/home-route.tsx';

/**
 * The profile menu exists only once an account is signed in: its code (and the menus' keyboard hook) is
 * not part of a visitor's first view.
 */
const AccountMenu = lazy(() =>
  import('../features/account/account-menu.tsx').then((m) => ({ default: m.AccountMenu })),
);
// Notices of what went wrong, loaded only when something did: not part of the first view.
const MigrationFailedBanner = lazy(() =>
  import('../components/migration-failed-banner.tsx').then((m) => ({ default: m.MigrationFailedBanner })),
);
const ProfileLoadNotice = lazy(() =>
  import('../features/account/profile-load-notice.tsx').then((m) => ({ default: m.ProfileLoadNotice })),
);
/** The signed-in header's search (pages without their own): not part of a visitor's first view. */
const HeaderSearch = lazy(() =>
  import('../features/search/header-search.tsx').then((m) => ({ default: m.HeaderSearch })),
);
/** Only for a PIN-locked profile not open on this device (decision 104). */
const ProfileLockGate = lazy(() =>
  import('../features/account/profile-lock-gate.tsx').then((m) => ({ default: m.ProfileLockGate })),
);

/**
 * Pages with the big search box of their own, so none in the header: home and its results (and a
 * subscription site's My List, which is the same screen).
 */
function hasOwnSearch(pathname: string): boolean {
  return (
    pathname === paths.home ||
    pathname.startsWith('/browse') ||
    (pathname === paths.myList && runtimeConfig().variant === 'subscription')
  );
}

/** The shared layout with what depends on the account: My List, the header search and the profile menu. */
export function AppLayout() {
  const { t } = useTranslation(['navigation']);
  const signedIn = useAccountStore((s) => s.account !== null);
  const failure = useProfileLoadFailure();
  const migrationFailed = useMigrationStatus((s) => s.failed.length > 0 && !s.dismissed);
  const shut = useShutProfile();
  const { pathname } = useLocation();
  useEffect(() => {
    if (!signedIn) return undefined;
    const timer = setTimeout(preloadLanding, 3_000);
    return () => clearTimeout(timer);
  }, [signedIn]);
  return (
    <>
      {/* "Who's watching" is where another profile is chosen: the lock does not cover it. */}
      {shut !== null && pathname !== paths.profiles && (
        <Suspense fallback={null}>
          <ProfileLockGate key={shut} profileId={shut} />
        </Suspense>
      )}
      <Layout
        banners={
          <>
            <Suspense fallback={null}>
              {migrationFailed && <MigrationFailedBanner />}
              {failure === 'notice' && <ProfileLoadNotice />}
            </Suspense>
            <RejectedChanges />
          </>
        }
        header={
          signedIn
            ? {
                nav: <HeaderLink to={paths.myList}>{t('navigation.myList')}</HeaderLink>,
                end: (
                  <>
                    {!hasOwnSearch(pathname) && (
                      // Its place is kept while its code loads (a button on a phone, a box from sm up).
                      <Suspense
                        fallback={<span className="block h-11 w-11 sm:w-48 lg:w-64" aria-hidden="true" />}
                      >
                        <HeaderSearch />
                      </Suspense>
                    )}
                    {/* Its place is kept while its code loads: the header does not shift. */}
                    <Suspense fallback={<span className="block h-11 w-11" aria-hidden="true" />}>
                      <AccountMenu />
                    </Suspense>
                  </>
                ),
              }
            : {}
        }
      />
    </>
  );
}
