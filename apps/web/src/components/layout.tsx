import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, ScrollRestoration } from 'react-router';
import { useIsOnline } from '../lib/online-status.ts';
import { runtimeConfig } from '../lib/runtime-config.ts';
import { ButtonLink } from './button.tsx';
import { paths } from '../lib/paths.ts';

export function OfflineBanner() {
  const { t } = useTranslation(['navigation']);
  const online = useIsOnline();
  if (online) return null;
  return (
    <div
      role="status"
      className="bg-red-700 px-4 py-2 text-center text-sm font-semibold text-white"
      data-testid="offline-banner"
    >
      {t('navigation.banner.offline')}
    </div>
  );
}

export interface HeaderSlots {
  /** Links after Discover (My List when signed in). */
  nav?: ReactNode;
  /** The end of the bar: search and the profile menu, or the Sign in button. */
  end?: ReactNode;
}

export function SignInButton() {
  const { t } = useTranslation(['navigation']);
  return (
    <ButtonLink to={paths.login} variant="secondary" className="min-h-11">
      {t('navigation.signIn')}
    </ButtonLink>
  );
}

/**
 * A link of the header's navigation: a finger's height (44 px), and on a phone its words wrap onto a
 * second line before the bar overflows (long translations).
 */
export function HeaderLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <NavLink
      to={to}
      className="flex min-h-11 items-center rounded-md px-2 text-sm leading-tight font-semibold text-fg-muted hover:text-fg aria-[current=page]:text-fg"
    >
      {children}
    </NavLink>
  );
}

/**
 * The site's bar. It stays on screen while the page scrolls, except in a short viewport (a phone held
 * sideways), where it would take a fifth of the height: there it scrolls away with the page. So it does in
 * TV mode (docs/decisions/114-tv-mode.md): pinned, it would take room from the rows and cover what the
 * arrow keys scroll into view under it. In TV mode every edge of the page keeps the overscan margins.
 */
export function Header({ nav, end }: HeaderSlots = {}) {
  const { t } = useTranslation(['navigation']);
  const config = runtimeConfig();
  return (
    <header className="sticky top-0 z-30 border-b border-white/5 bg-bg/85 backdrop-blur [@media(max-height:30rem)]:static tv:static">
      <nav
        className="mx-auto flex h-16 max-w-screen-2xl items-center gap-1 px-4 sm:gap-2 sm:px-6 tv:px-overscan-x"
        aria-label={t('navigation.home')}
      >
        {/* Named by the instance's name, its visible text from sm up (a label must contain what is shown,
            WCAG 2.5.3); a phone shows the logo alone, so its links and search fit in 360 px. */}
        <Link
          to={paths.home}
          className="flex min-h-11 min-w-11 shrink-0 items-center justify-center gap-2 text-lg font-bold text-fg"
        >
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span className="sr-only sm:not-sr-only">{config.instanceName}</span>
        </Link>
        <HeaderLink to={paths.discover}>{t('navigation.discover')}</HeaderLink>
        {nav}
        <div className="ms-auto flex shrink-0 items-center gap-1 sm:gap-3">{end ?? <SignInButton />}</div>
      </nav>
    </header>
  );
}

export function Footer() {
  const { t } = useTranslation(['footer', 'global']);
  const config = runtimeConfig();
  const link = 'inline-flex min-h-11 min-w-11 items-center justify-center text-fg-muted hover:text-fg';
  return (
    <footer className="mt-16 border-t border-white/5">
      <div className="mx-auto flex max-w-screen-2xl flex-col gap-3 px-4 py-8 text-sm sm:px-6 tv:px-overscan-x tv:pb-overscan-y">
        <nav className="flex flex-wrap gap-x-6 gap-y-2" aria-label={t('footer.about')}>
          <Link className={link} to={paths.about}>
            {t('footer.about')}
          </Link>
          <Link className={link} to={paths.support}>
            {t('footer.support')}
          </Link>
          <Link className={link} to={paths.jip}>
            {t('footer.credits')}
          </Link>
          {config.dmcaEmail && (
            <Link className={link} to={paths.dmca}>
              {t('footer.dmca')}
            </Link>
          )}
        </nav>
        <p className="text-fg-muted">{t('global.hostsNoContent')}</p>
        <p className="text-xs text-fg-muted">{t('footer.version', { version: config.appVersion })}</p>
      </div>
    </footer>
  );
}

/**
 * Something on its way. In place of a whole page (`page`) it is a screen tall, so the footer stays below
 * the fold instead of showing and then jumping down when the page arrives.
 */
export function PageLoading({ page = false }: { page?: boolean }) {
  const { t } = useTranslation(['global']);
  return (
    <div className={`flex items-center justify-center ${page ? 'min-h-dvh' : 'min-h-[40vh]'}`} role="status">
      <span
        className="h-8 w-8 animate-spin rounded-full border-4 border-surface-3 border-t-accent"
        aria-hidden="true"
      />
      <span className="sr-only">{t('global.loading')}</span>
    </div>
  );
}

export function Layout({ header, banners }: { header?: HeaderSlots; banners?: ReactNode } = {}) {
  const { t } = useTranslation(['global']);
  return (
    <div className="flex min-h-dvh flex-col tv:pt-overscan-y">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:z-50 focus:m-2 focus:rounded focus:bg-accent focus:px-3 focus:py-2 focus:text-white tv:focus:mx-overscan-x tv:focus:my-overscan-y"
      >
        {t('global.skipToContent')}
      </a>
      <OfflineBanner />
      {banners}
      <Header {...header} />
      <main id="main" className="mx-auto w-full max-w-screen-2xl flex-1 px-4 sm:px-6 tv:px-overscan-x">
        <Suspense fallback={<PageLoading page />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
