import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MAX_PROFILES } from '@marquee/contract/values';
import { encodeMediaKey } from '../../lib/media-keys.ts';
import { ButtonLink } from '../../components/button.tsx';
import { mediaQueries } from '../../lib/api/queries/media.ts';
import { membershipQueries } from '../../lib/api/queries/membership.ts';
import { cheapestPlan, formatMoney, planPeriod } from '../../lib/plans.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useAccountStore } from '../../stores/index.ts';
import { paths } from '../../lib/paths.ts';
import { PosterImage } from '../../components/poster-image.tsx';
import { PosterWall } from './poster-wall.tsx';

/** The FAQ's entries (`landing.faq.q<n>` / `a<n>`). */
const FAQ = [1, 2, 3, 4, 5, 6] as const;

function Icon({ d }: { d: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className="h-7 w-7"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={d} />
    </svg>
  );
}

function Block({
  title,
  text,
  icon,
  testId,
}: {
  title: string;
  text: string;
  icon: ReactNode;
  testId: string;
}) {
  return (
    <div className="flex flex-col gap-3 rounded-2xl bg-surface-2 p-6" data-testid={testId}>
      <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-accent/20 text-fg-accent">
        {icon}
      </span>
      <h3 className="text-lg font-bold text-fg">{title}</h3>
      <p className="leading-relaxed text-fg-muted">{text}</p>
    </div>
  );
}

/** Stand-ins for the prices while they load: as wide as a yearly and a monthly plan in dollars. */
const STAND_INS = [
  [30, 'membership.plans.perYear'],
  [2.99, 'membership.plans.perMonth'],
] as const;

const BANNER =
  'flex flex-col items-center gap-4 rounded-3xl bg-gradient-to-r from-accent/40 via-surface-2 to-accent/20 px-6 py-10 text-center';

/** The plans' prices (never hard-coded, decision 042): "Everything, from $2.50 a month" and each plan. */
function PlanBanner() {
  const { t, i18n } = useTranslation(['landing', 'membership']);
  const plans = useQuery(membershipQueries.plans());
  const cheapest = plans.data ? cheapestPlan(plans.data) : undefined;
  if (plans.isPending)
    // The banner as it will be, its prices not in yet: what follows does not jump down when they come.
    return (
      <section className={BANNER} aria-busy="true" data-testid="plan-banner-loading">
        <h2 className="text-3xl font-bold text-fg sm:text-4xl">{t('landing.plan.title', { price: '…' })}</h2>
        <p className="max-w-xl text-fg-muted">{t('landing.plan.text')}</p>
        <ul className="flex flex-wrap justify-center gap-3" aria-hidden="true">
          {STAND_INS.map(([amount, period]) => (
            <li
              key={period}
              className="animate-pulse rounded-full bg-surface-1 px-4 py-2 font-semibold text-transparent"
            >
              {t('landing.plan.perPeriod', {
                price: formatMoney(amount, 'USD', i18n.language),
                period: t(period, { count: 1 }),
              })}
            </li>
          ))}
        </ul>
      </section>
    );
  if (!cheapest || !plans.data) return null;
  const money = (amount: number) => formatMoney(amount, cheapest.currency, i18n.language);
  return (
    <section className={BANNER} data-testid="plan-banner">
      <h2 className="text-3xl font-bold text-fg sm:text-4xl">
        {t('landing.plan.title', { price: money(cheapest.monthlyCost) })}
      </h2>
      <p className="max-w-xl text-fg-muted">{t('landing.plan.text')}</p>
      <ul className="flex flex-wrap justify-center gap-3">
        {plans.data.map((p) => {
          const { unit, count } = planPeriod(p);
          return (
            <li
              key={p.id}
              className="rounded-full bg-surface-1 px-4 py-2 font-semibold text-fg"
              data-testid="plan-price"
            >
              {t('landing.plan.perPeriod', {
                price: formatMoney(p.cost, p.currency, i18n.language),
                period: t(unit === 'year' ? 'membership.plans.perYear' : 'membership.plans.perMonth', {
                  count,
                }),
              })}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The free movie of the month (runtime configuration), with its poster when the metadata has one. */
function FreeMovie() {
  const { t } = useTranslation(['landing', 'media']);
  const free = runtimeConfig().freeMovieOfTheMonth;
  const details = useQuery({
    ...mediaQueries.details('movie', free?.id ?? ''),
    enabled: free !== null,
    staleTime: 60 * 60_000,
  });
  if (!free) return null;
  const to = paths.media(encodeMediaKey('movie', free.id, free.title));
  return (
    <section
      className="flex flex-col items-center gap-6 rounded-3xl bg-surface-2 p-6 sm:flex-row sm:p-8"
      data-testid="free-movie"
    >
      {/* The poster's box is there from the start (it fills in when the details come). */}
      <div className="aspect-[2/3] w-36 shrink-0 overflow-hidden rounded-xl bg-surface-1 shadow-lg">
        {details.data && (
          <PosterImage
            src={details.data.poster ?? undefined}
            alt={t('media.posterAlt', { title: free.title })}
            className="h-full w-full object-cover"
            loading="lazy"
          />
        )}
      </div>
      <div className="flex flex-col items-center gap-3 text-center sm:items-start sm:text-start">
        <p className="text-xs font-bold uppercase tracking-widest text-fg-accent">
          {t('landing.free.label')}
        </p>
        <h2 className="text-2xl font-bold text-fg">{free.title}</h2>
        {details.data?.overview && (
          <p className="line-clamp-3 max-w-2xl text-fg-muted">{details.data.overview}</p>
        )}
        <p className="text-fg-muted">{t('landing.free.text', { title: free.title })}</p>
        <ButtonLink to={to}>{t('landing.free.watch')}</ButtonLink>
      </div>
    </section>
  );
}

function Faq() {
  const { t, i18n } = useTranslation(['landing']);
  const plans = useQuery(membershipQueries.plans());
  const cheapest = plans.data ? cheapestPlan(plans.data) : undefined;
  const price = cheapest ? formatMoney(cheapest.monthlyCost, cheapest.currency, i18n.language) : '…';
  return (
    <section aria-labelledby="faq-title" className="mx-auto w-full max-w-3xl">
      <h2 id="faq-title" className="mb-4 text-center text-3xl font-bold text-fg">
        {t('landing.faq.title')}
      </h2>
      <div className="flex flex-col gap-3" data-testid="faq">
        {FAQ.map((n) => (
          <details key={n} className="group rounded-xl bg-surface-2 px-5 py-4">
            <summary className="cursor-pointer list-none text-lg font-semibold text-fg marker:hidden">
              <span className="me-2 inline-block transition-transform group-open:rotate-90 rtl:rotate-180">
                ›
              </span>
              {t(`landing.faq.q${n}`)}
            </summary>
            <p className="mt-3 leading-relaxed text-fg-muted">
              {t(`landing.faq.a${n}`, { price, count: MAX_PROFILES })}
            </p>
          </details>
        ))}
      </div>
    </section>
  );
}

/**
 * The subscription site's landing page for signed-out visitors (decision 042): hero over a wall
 * of the catalog's popular posters with Get started (→ /discover when signed in, else /login), the plan
 * banner, the free movie of the month, feature cards, watch everywhere, offline, FAQ.
 */
export function LandingPage() {
  const { t } = useTranslation(['customer', 'landing']);
  usePageTitle(t('landing.pageTitle'));
  const signedIn = useAccountStore((s) => s.account !== null);
  return (
    <div className="flex flex-col gap-16 pb-8" data-testid="landing">
      <section
        className="relative -mx-4 flex min-h-[60vh] flex-col items-center justify-center overflow-hidden px-6 py-20 text-center sm:-mx-6 sm:min-h-[70vh] tv:-mx-overscan-x tv:px-overscan-x"
        data-testid="landing-hero"
      >
        <PosterWall />
        {/* Half the page colour over the wall, solid at its top and bottom edges so it fades into the page. */}
        <div aria-hidden="true" className="absolute inset-0 bg-bg/50" />
        <div aria-hidden="true" className="absolute inset-x-0 top-0 h-24 bg-gradient-to-b from-bg" />
        <div aria-hidden="true" className="absolute inset-x-0 bottom-0 h-40 bg-gradient-to-t from-bg" />
        <div className="relative isolate flex flex-col items-center gap-6">
          {/* A soft glow of the page colour under the words: with the layer above, at least 75% of it lies
              under every letter, which keeps --color-fg at ≥ 4.5:1 even over a white poster. */}
          <div
            aria-hidden="true"
            className="absolute -inset-x-10 -inset-y-12 -z-10 rounded-[4rem] bg-bg/75 blur-2xl"
          />
          <h1 className="max-w-4xl text-4xl font-extrabold text-fg [text-shadow:0_2px_16px_var(--color-bg)] sm:text-6xl">
            {t('landing.hero.title')}
          </h1>
          <p className="max-w-2xl text-lg text-fg sm:text-xl">{t('landing.hero.text')}</p>
          <div className="flex flex-wrap justify-center gap-3">
            <ButtonLink
              to={signedIn ? paths.discover : paths.login}
              className="px-8 py-3 text-base shadow-lg"
              data-testid="get-started"
            >
              {t('landing.hero.getStarted')}
            </ButtonLink>
            {!signedIn && (
              <Link to={paths.register} className="self-center text-sm font-semibold text-fg hover:underline">
                {t('customer.login.register')}
              </Link>
            )}
          </div>
        </div>
      </section>
      <PlanBanner />
      <FreeMovie />
      <section aria-labelledby="features-title">
        <h2 id="features-title" className="mb-6 text-center text-3xl font-bold text-fg">
          {t('landing.features.title')}
        </h2>
        <div className="grid gap-4 md:grid-cols-3">
          <Block
            testId="feature-progress"
            title={t('landing.features.progress.title')}
            text={t('landing.features.progress.text')}
            icon={<Icon d="M12 8v4l3 2M21 12a9 9 0 1 1-9-9" />}
          />
          <Block
            testId="feature-ads"
            title={t('landing.features.ads.title')}
            text={t('landing.features.ads.text')}
            icon={<Icon d="M4 4l16 16M9 5h10a2 2 0 0 1 2 2v10M19 19H5a2 2 0 0 1-2-2V7" />}
          />
          <Block
            testId="feature-bookmarks"
            title={t('landing.features.bookmarks.title')}
            text={t('landing.features.bookmarks.text')}
            icon={<Icon d="M6 3h12v18l-6-4-6 4z" />}
          />
        </div>
      </section>
      <div className="grid gap-4 md:grid-cols-2">
        <Block
          testId="watch-everywhere"
          title={t('landing.everywhere.title')}
          text={t('landing.everywhere.text')}
          icon={<Icon d="M2 5h20v11H2zM8 20h8M12 16v4" />}
        />
        <Block
          testId="offline"
          title={t('landing.offline.title')}
          text={t('landing.offline.text')}
          // A cloud with a tick (kept and synced), not a download arrow: nothing is downloaded for offline viewing.
          icon={
            <Icon d="M7 19h10a4 4 0 0 0 .6-7.96A6 6 0 0 0 6.1 12.2 3.5 3.5 0 0 0 7 19zM9.5 14.5l2 2 3.5-3.5" />
          }
        />
      </div>
      <Faq />
    </div>
  );
}
