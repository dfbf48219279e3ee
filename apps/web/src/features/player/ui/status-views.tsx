import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { extensionClient } from '../../../lib/extension/messaging.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { usePlayer, type ScrapeState } from '../core/player-store.ts';
import type { ScrapeSegment } from '../core/types.ts';
import type { SessionProblem } from '../scrape/session.ts';
import { segmentTree } from '../scrape/segments.ts';
import { reloadSource } from '../scrape/switch-source.ts';
import { useSourceName } from '../session/use-source-switch.ts';
import {
  DetailsDialog,
  explainedFailure,
  explainedKey,
  sourceOutcomes,
  useErrorReport,
} from './error-details.tsx';
import { Icon } from './icons.tsx';

const BUTTON =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';
const PRIMARY = `${BUTTON} bg-accent text-white hover:bg-accent-strong`;
const SECONDARY = `${BUTTON} bg-white/10 text-white hover:bg-white/20`;

function StatusCircle({ segment }: { segment: ScrapeSegment }) {
  const { status, percentage } = segment;
  if (status === 'success')
    return (
      <span className="flex h-6 w-6 items-center justify-center rounded-full bg-green-600 text-white">
        <Icon name="check" className="h-4 w-4" />
      </span>
    );
  if (status === 'failure')
    return (
      <span className="flex h-6 w-6 items-center justify-center rounded-full bg-red-600 text-white">
        <Icon name="close" className="h-4 w-4" />
      </span>
    );
  if (status === 'notfound')
    return (
      <span className="flex h-6 w-6 items-center justify-center rounded-full bg-white/20 font-bold text-white/80">
        –
      </span>
    );
  if (status === 'pending')
    return (
      <span
        className="h-6 w-6 rounded-full border-2 border-accent"
        style={{
          background: `conic-gradient(var(--color-accent, #7c3aed) ${Math.max(8, percentage)}%, transparent 0)`,
        }}
      />
    );
  return <span className="h-6 w-6 rounded-full border-2 border-white/25" />;
}

function SegmentRow({ segment, nested }: { segment: ScrapeSegment; nested?: boolean }) {
  const { t } = useTranslation(['errors', 'player', 'title']);
  // A failure the server explained (the library's file cannot play here) says why.
  const explained = segment.status === 'failure' ? explainedKey(segment.errorCode) : null;
  const text =
    segment.status === 'pending'
      ? t('player.scraping.items.pending')
      : segment.status === 'notfound'
        ? t('player.scraping.items.notFound')
        : explained
          ? t(explained)
          : segment.status === 'failure'
            ? t('player.scraping.items.failure')
            : null;
  return (
    <li
      className={`flex items-center gap-3 ${nested ? 'ms-6 mt-2' : ''}`}
      data-testid="scrape-segment"
      data-status={segment.status}
      data-id={segment.id}
    >
      <StatusCircle segment={segment} />
      <div className="min-w-0">
        <p className="truncate font-semibold">{segment.name}</p>
        {text && <p className="text-xs text-white/60">{text}</p>}
      </div>
    </li>
  );
}

/**
 * The scraping screen's frame: the run's state (or a spinner while nothing is known yet) and the way out.
 * Screen readers hear `status` politely, and only when it changes: the source being checked, not each tick.
 */
function ScrapingFrame({ status, children }: { status: string; children: ReactNode }) {
  const { t } = useTranslation(['player', 'title']);
  return (
    <div
      className="absolute inset-0 z-20 flex flex-col items-center justify-center gap-6 bg-black/80 p-6 text-white"
      data-testid="scraping-view"
    >
      <p role="status" className="sr-only">
        {status}
      </p>
      {children}
      <div className="flex gap-3">
        <Link to="/" className={SECONDARY}>
          {t('player.goHome')}
        </Link>
        <button type="button" className={SECONDARY} onClick={() => window.location.reload()}>
          {t('player.reload')}
        </button>
      </div>
    </div>
  );
}

function Searching() {
  const { t } = useTranslation(['player', 'title']);
  return (
    <div className="flex flex-col items-center gap-3" aria-hidden="true">
      <span className="h-10 w-10 animate-spin rounded-full border-4 border-white/20 border-t-accent" />
      <p>{t('player.scraping.searching')}</p>
    </div>
  );
}

/** Before any source reports: also what the page shows while the title's details load (the same box, so nothing moves). */
export function SearchingView() {
  const { t } = useTranslation(['player', 'title']);
  return (
    <ScrapingFrame status={t('player.scraping.searching')}>
      <Searching />
    </ScrapingFrame>
  );
}

/** The source being checked (an embed's source while the embed runs). */
function checkedSource(scrape: ScrapeState): ScrapeSegment | null {
  const current = scrape.current ? scrape.segments[scrape.current] : undefined;
  if (!current) return null;
  return (current.parentId ? scrape.segments[current.parentId] : current) ?? null;
}

/** Each source's state while the run goes on; the current one stands out. */
export function ScrapingView() {
  const { t } = useTranslation(['player', 'title']);
  const scrape = usePlayer((s) => s.scrape);
  const tree = segmentTree(scrape);
  const checked = checkedSource(scrape);
  const status = checked
    ? t('player.scraping.checking', { source: checked.name })
    : t('player.scraping.searching');
  return (
    <ScrapingFrame status={status}>
      {tree.length === 0 ? (
        <Searching />
      ) : (
        <ul className="flex w-80 max-w-full flex-col gap-3" aria-label={t('player.scraping.label')}>
          {tree.map(({ source, embeds }) => {
            const near =
              source.id === scrape.current ||
              embeds.some((e) => e.id === scrape.current) ||
              source.status !== 'waiting';
            return (
              <li
                key={source.id}
                className={`rounded-xl bg-white/10 p-4 transition-opacity ${near ? 'opacity-100' : 'opacity-50'}`}
              >
                <ul>
                  <SegmentRow segment={source} />
                  {embeds.map((e) => (
                    <SegmentRow key={e.id} segment={e} nested />
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
      )}
    </ScrapingFrame>
  );
}

/**
 * An error screen. The title and text are said once, assertively (the buttons and the details are not
 * part of the announcement). Retry, when there is one, is the primary action and "Go home" the way out.
 */
function ErrorCard({
  title,
  text,
  children,
  details,
  onRetry,
  action,
}: {
  title: string;
  text?: string;
  children?: ReactNode;
  /** The copyable report behind "Show error details". */
  details?: string;
  onRetry?: () => void;
  /** The way through a gate (sign in, start a membership): the primary button, "Go home" then secondary. */
  action?: ReactNode;
}) {
  const { t } = useTranslation(['media', 'player', 'title']);
  const [open, setOpen] = useState(false);
  const primary =
    action ??
    (onRetry && (
      <button type="button" className={PRIMARY} onClick={onRetry}>
        {t('media.tryAgain')}
      </button>
    ));
  return (
    <div
      className="absolute inset-0 z-20 flex flex-col items-center justify-center gap-4 bg-black/85 p-6 text-center text-white"
      data-testid="player-error"
    >
      <div role="alert" className="flex flex-col items-center gap-4">
        <h2 className="text-2xl font-bold">{title}</h2>
        {text && <p className="max-w-lg text-white/70">{text}</p>}
      </div>
      <div className="flex flex-wrap justify-center gap-3">
        {primary}
        <Link to="/" className={primary ? SECONDARY : PRIMARY}>
          {t('player.goHome')}
        </Link>
        {children}
        {details && (
          <button type="button" className={SECONDARY} onClick={() => setOpen(true)}>
            {t('player.errors.showDetails')}
          </button>
        )}
      </div>
      {open && details && <DetailsDialog text={details} onClose={() => setOpen(false)} />}
    </div>
  );
}

/**
 * "We couldn't find that" (or "Failed to scrape" when the run broke): Retry runs the search again, and
 * the details list every source tried with its outcome.
 */
export function ScrapeNotFoundView({ failure, onRetry }: { failure: string | null; onRetry(): void }) {
  const { t } = useTranslation(['errors', 'player', 'title']);
  const scrape = usePlayer((s) => s.scrape);
  const details = useErrorReport({ message: failure, outcomes: sourceOutcomes(scrape, null) });
  // A source that had the title but could not play it here says why (rather than "couldn't find").
  const explained = explainedFailure(scrape);
  return (
    <ErrorCard
      title={failure ? t('player.scraping.failed') : t('player.scraping.notFound')}
      text={explained ? t(explained) : t('player.scraping.notFoundText')}
      details={details}
      onRetry={onRetry}
    >
      <Link to="/discover" className={SECONDARY}>
        {t('player.discoverMore')}
      </Link>
    </ErrorCard>
  );
}

/** The video failed: Retry loads the same source again from where it stopped; the details say which one. */
export function PlaybackErrorView() {
  const { t } = useTranslation(['errors', 'player', 'title']);
  const error = usePlayer((s) => s.error);
  const scrape = usePlayer((s) => s.scrape);
  const sourceId = usePlayer((s) => s.sourceId);
  const sourceName = useSourceName(sourceId);
  const code = error?.code ?? 'generic';
  // The server said why (busy converting, a conversion that failed): the viewer reads that.
  const explained = explainedKey(error?.serverCode);
  const text = explained ? t(explained) : t(`player.playbackError.codes.${code}`);
  const failed = sourceId ? { sourceId, sourceName: sourceName ?? sourceId, error: text } : null;
  const details = useErrorReport({
    message: `${error?.source ?? 'video'} ${code}${error?.message ? `: ${error.message}` : ''}`,
    outcomes: sourceOutcomes(scrape, failed),
  });
  return (
    <ErrorCard
      title={t('player.playbackError.title')}
      text={text}
      details={details}
      onRetry={() => reloadSource()}
    />
  );
}

/**
 * Screens that come before playback: removed, unreleased or unlisted media, extension permission, captcha,
 * membership. Those a second attempt can fix (permission granted, captcha, the metadata back, a broken
 * run) offer Retry, which runs the session again.
 */
export function ProblemView({ problem, onRetry }: { problem: SessionProblem; onRetry(): void }) {
  const { t } = useTranslation(['auth', 'errors', 'media', 'player', 'title']);
  switch (problem.kind) {
    case 'removed':
      return <ErrorCard title={t('title.errors.removed')} text={t('player.problems.removedText')} />;
    case 'unreleased':
      return <ErrorCard title={t('media.unreleased')} text={t('player.problems.unreleasedText')} />;
    case 'notInCatalog':
      return <ErrorCard title={t('player.problems.notInCatalog')} text={t('errors.api.media_not_found')} />;
    case 'metadataUnavailable':
      return (
        <ErrorCard
          title={t('player.problems.metadataUnavailable')}
          text={t('errors.api.metadata_unavailable')}
          onRetry={onRetry}
        />
      );
    case 'extensionPermission':
      return (
        <ErrorCard
          title={t('player.problems.permission')}
          text={t('player.problems.permissionText')}
          onRetry={onRetry}
        >
          <button
            type="button"
            className={SECONDARY}
            onClick={() => void extensionClient().openPage('PermissionGrant', window.location.href)}
          >
            {t('player.problems.grantPermission')}
          </button>
        </ErrorCard>
      );
    case 'captcha':
      return <ErrorCard title={t('auth.captcha.failed')} onRetry={onRetry} />;
    case 'membership':
      // Memberships are offered only where a payment gateway sells them (issue 15).
      return (
        <ErrorCard
          title={t('player.problems.membership')}
          text={t('player.problems.membershipText')}
          action={
            runtimeConfig().paymentGateway && (
              <Link to="/subscription" className={PRIMARY}>
                {t('player.problems.startMembership')}
              </Link>
            )
          }
        />
      );
    case 'login':
      return (
        <ErrorCard
          title={t('player.problems.signIn')}
          text={t('player.problems.signInText')}
          action={
            <Link to="/login" className={PRIMARY}>
              {t('player.problems.signInButton')}
            </Link>
          }
        />
      );
    case 'failed':
      return <ScrapeNotFoundView failure={problem.message} onRetry={onRetry} />;
  }
}
