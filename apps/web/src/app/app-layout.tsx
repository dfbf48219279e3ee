import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { HeaderLink, Layout } from '../components/layout.tsx';
import { MigrationFailedBanner } from '../components/migration-screen.tsx';
import { ProfileLoadNotice, useProfileLoadFailure, useShutProfile } from '../features/account/index.ts';
import { RejectedChanges } from '../features/library/index.ts';
import { HeaderSearch } from '../features/search/index.ts';
import { runtimeConfig } from '../lib/runtime-config.ts';
import { useAccountStore } from '../stores/index.ts';
import { paths } from '../lib/paths.ts';
import { preloadLanding } from './routes/home-route.tsx';

/**
 * The profile menu exists only once an account is signed in: its code (and the menus' keyboard hook) is
 * not part of a visitor's first view.
 */
const AccountMenu = lazy(() =>
  import('../features/account/account-menu.tsx').then((m) => ({ default: m.AccountMenu })),
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
            <MigrationFailedBanner />
            {failure === 'notice' && <ProfileLoadNotice />}
            <RejectedChanges />
          </>
        }
        header={
          signedIn
            ? {
                nav: <HeaderLink to={paths.myList}>{t('navigation.myList')}</HeaderLink>,
                end: (
                  <>
                    {!hasOwnSearch(pathname) && <HeaderSearch />}
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
