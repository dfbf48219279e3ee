import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { Layout } from '../components/layout.tsx';
import { MigrationFailedBanner } from '../components/migration-screen.tsx';
import { AccountMenu, ProfileLoadNotice, useProfileLoadFailure } from '../features/account/index.ts';
import { RejectedChanges } from '../features/library/index.ts';
import { HeaderSearch } from '../features/search/index.ts';
import { useAccountStore } from '../stores/index.ts';
import { paths } from './paths.ts';

/** The shared layout with what depends on the account: My List, the header search and the profile menu. */
export function AppLayout() {
  const { t } = useTranslation(['navigation']);
  const signedIn = useAccountStore((s) => s.account !== null);
  const failure = useProfileLoadFailure();
  const { pathname } = useLocation();
  const onHome = pathname === '/' || pathname.startsWith('/browse');
  return (
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
              nav: (
                <Link to={paths.myList} className="text-sm font-semibold text-fg-muted hover:text-fg">
                  {t('navigation.myList')}
                </Link>
              ),
              end: (
                <>
                  {!onHome && <HeaderSearch />}
                  <AccountMenu />
                </>
              ),
            }
          : {}
      }
    />
  );
}
