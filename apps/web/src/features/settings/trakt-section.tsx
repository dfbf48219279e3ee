import type { UseQueryResult } from '@tanstack/react-query';
import { Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { TraktState, TraktStatus } from '@marquee/contract';
import { Button } from '../../components/button.tsx';
import { isMissingNewerRoute } from '../../lib/api/index.ts';
import { clock } from '../../lib/clock.ts';
import { useAccountStore, useLibraryStore } from '../../stores/index.ts';
import { Section } from './settings-ui.tsx';
import { useTraktActions, useTraktStatus } from './trakt-status.ts';
import { linkProblem, LinkedView, PendingView, RelinkView, UnlinkedView } from './trakt-views.tsx';

/*
 * Settings → Trakt (docs/decisions/101-trakt-sync.md): link the current library to a Trakt account with
 * Trakt's device code, see how its sync goes, sync now, unlink. Shown only signed in, and only when this
 * server offers Trakt (its catalog namespace loads then, not before).
 */

/** What the live region says after a change: the viewer's own action, or what the polling found. */
type Notice = 'linked' | 'linkProblem' | 'unlinked' | 'cancelled' | 'syncRequested';

/** Settings → Trakt for the signed-in account's current library; nothing when signed out. */
export function TraktSection() {
  const uid = useAccountStore((s) => s.account?.userId ?? null);
  const profile = useLibraryStore((s) => s.profile);
  if (!uid) return null;
  return <TraktSectionOf key={`${uid}:${profile}`} uid={uid} profile={profile} />;
}

function TraktSectionOf({ uid, profile }: { uid: string; profile: string }) {
  const status = useTraktStatus(uid, profile);
  if (status.isPending) return null;
  // A server without Trakt routes (an older one, or another of the family): no section.
  if (!status.data && isMissingNewerRoute(status.error)) return null;
  if (status.data?.state === 'unavailable') return null;
  return (
    <Suspense fallback={null}>
      <TraktPanel uid={uid} profile={profile} status={status} />
    </Suspense>
  );
}

/** True once the code's `expiresAt` has passed; then reads the status once more (the server says so too). */
function useCodeExpired(expiresAt: string | null, refetch: () => unknown): boolean {
  const [expiredCode, setExpiredCode] = useState<string | null>(null);
  const again = useRef(refetch);
  useEffect(() => {
    again.current = refetch;
  });
  useEffect(() => {
    if (!expiresAt) return;
    const left = Date.parse(expiresAt) - clock.now().getTime();
    const timer = setTimeout(
      () => {
        setExpiredCode(expiresAt);
        void again.current();
      },
      Math.min(Math.max(0, left), 2 ** 31 - 1),
    );
    return () => clearTimeout(timer);
  }, [expiresAt]);
  return expiresAt !== null && expiredCode === expiresAt;
}

/**
 * When the state changes under the viewer (a code entered at Trakt, a link made or removed), the focus
 * goes to the new state's main element if it was in the section or lost with the element that had it,
 * and a code's outcome is announced.
 */
function useStateChange(
  status: TraktStatus | undefined,
  root: RefObject<HTMLElement | null>,
  announce: (notice: Notice) => void,
) {
  const state = status?.state;
  const previous = useRef<TraktState | undefined>(state);
  const problem = status?.problem ?? null;
  useEffect(() => {
    const was = previous.current;
    previous.current = state;
    if (was === state || was === undefined) return;
    if (was === 'pending' && state === 'linked') announce('linked');
    if (was === 'pending' && state === 'unlinked' && linkProblem(problem)) announce('linkProblem');
    const section = root.current;
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected;
    if (section && (lost || section.contains(active))) {
      section.querySelector<HTMLElement>('[data-trakt-focus]')?.focus();
    }
  }, [state, problem, root, announce]);
}

function TraktPanel({
  uid,
  profile,
  status,
}: {
  uid: string;
  profile: string;
  status: UseQueryResult<TraktStatus>;
}) {
  const { t } = useTranslation(['trakt', 'errors']);
  const actions = useTraktActions(uid, profile);
  const [notice, setNotice] = useState<Notice | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const data = status.data;
  const expired = useCodeExpired(
    data?.state === 'pending' ? (data.device?.expiresAt ?? null) : null,
    status.refetch,
  );
  useStateChange(data, root, setNotice);

  const link = () => {
    setNotice(null);
    actions.link.mutate();
  };
  const unlink = (done: () => void) => {
    setNotice(null);
    actions.unlink.mutate(undefined, { onSuccess: () => setNotice('unlinked'), onSettled: done });
  };
  const cancel = () => {
    setNotice(null);
    actions.unlink.mutate(undefined, { onSuccess: () => setNotice('cancelled') });
  };
  const sync = () => {
    setNotice(null);
    actions.sync.mutate(undefined, { onSuccess: () => setNotice('syncRequested') });
  };

  return (
    <Section id="trakt" title={t('trakt.heading')}>
      <div
        ref={root}
        className="flex flex-col items-start gap-3 rounded-xl bg-surface-1 p-4"
        data-testid="trakt"
      >
        <TraktStateView
          status={status}
          expired={expired}
          busy={actions.busy}
          on={{ link, unlink, cancel, sync }}
        />
        <p
          role="status"
          className={data?.state === 'pending' ? 'text-sm text-fg-muted' : 'sr-only'}
          data-testid="trakt-live"
        >
          {liveText(t, data, expired, notice)}
        </p>
        {actions.failure && (
          <p role="alert" className="text-sm text-red-300" data-testid="trakt-error">
            {t(actions.failure)}
          </p>
        )}
      </div>
    </Section>
  );
}

/** What the live region says: the wait for the code while pending, else the last notice. */
function liveText(
  t: TFunction<['trakt', 'errors']>,
  data: TraktStatus | undefined,
  expired: boolean,
  notice: Notice | null,
): string {
  if (data?.state === 'pending') return expired ? t('trakt.pending.expired') : t('trakt.pending.waiting');
  const problem = linkProblem(data?.problem ?? null);
  switch (notice) {
    case 'linked':
      return data?.username
        ? t('trakt.announce.linked', { username: data.username })
        : t('trakt.linked.asUnknown');
    case 'linkProblem':
      return problem ? t(`trakt.unlinked.problem.${problem}`) : '';
    case 'unlinked':
      return t('trakt.announce.unlinked');
    case 'cancelled':
      return t('trakt.announce.cancelled');
    case 'syncRequested':
      return t('trakt.linked.syncing');
    default:
      return '';
  }
}

function TraktStateView({
  status,
  expired,
  busy,
  on,
}: {
  status: UseQueryResult<TraktStatus>;
  expired: boolean;
  busy: boolean;
  on: { link(): void; unlink(done: () => void): void; cancel(): void; sync(): void };
}) {
  const { t } = useTranslation(['trakt']);
  const data = status.data;
  if (!data)
    return (
      <>
        <p role="alert" className="text-red-300">
          {t('trakt.loadFailed')}
        </p>
        <Button variant="secondary" disabled={status.isFetching} onClick={() => void status.refetch()}>
          {t('trakt.retry')}
        </Button>
      </>
    );
  switch (data.state) {
    case 'pending':
      return data.device ? (
        <PendingView
          device={data.device}
          expired={expired}
          busy={busy}
          onNewCode={on.link}
          onCancel={on.cancel}
        />
      ) : (
        <UnlinkedView problem={null} busy={busy} onLink={on.link} />
      );
    case 'linked':
      return <LinkedView status={data} busy={busy} onSync={on.sync} onUnlink={on.unlink} />;
    case 'relink':
      return <RelinkView busy={busy} onLink={on.link} onUnlink={on.unlink} />;
    default:
      return <UnlinkedView problem={data.problem} busy={busy} onLink={on.link} />;
  }
}
