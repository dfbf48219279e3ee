import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TraktDeviceCode, TraktProblem, TraktStatus } from '@marquee/contract';
import { Button } from '../../components/button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { dateTimeFormat } from '../../lib/intl.ts';

/*
 * What Settings → Trakt shows in each state of the link (docs/decisions/101-trakt-sync.md). The element
 * marked `data-trakt-focus` takes the focus when the state changes under the viewer (trakt-section.tsx).
 */

/** Stands for the address in the translated sentence, split around it. */
const URL_SLOT = '\u0000';

/** Problems of a link that did not happen, told beside Link Trakt. */
const LINK_PROBLEMS = ['link_denied', 'link_expired'] as const;
/** Problems of a sync pass, told beside the linked account. */
const SYNC_PROBLEMS = ['unreachable', 'rate_limited', 'limit_reached'] as const;

export const linkProblem = (problem: TraktProblem | null) => LINK_PROBLEMS.find((p) => p === problem) ?? null;
const syncProblem = (problem: TraktProblem | null) => SYNC_PROBLEMS.find((p) => p === problem) ?? null;

/** Only a web page's address becomes a link (the server relays Trakt's). */
const isWebUrl = (url: string) => /^https?:\/\//i.test(url);

export function UnlinkedView({
  problem,
  busy,
  onLink,
}: {
  problem: TraktProblem | null;
  busy: boolean;
  onLink(): void;
}) {
  const { t } = useTranslation(['trakt']);
  const refused = linkProblem(problem);
  return (
    <>
      <p className="text-fg-muted">{t('trakt.intro')}</p>
      {refused && <p className="text-sm text-amber-300">{t(`trakt.unlinked.problem.${refused}`)}</p>}
      <Button data-trakt-focus disabled={busy} onClick={onLink} data-testid="trakt-link">
        {t('trakt.unlinked.link')}
      </Button>
    </>
  );
}

/** Copies the code; says so (or that it could not) in its own status line. */
function CopyCode({ code }: { code: string }) {
  const { t } = useTranslation(['trakt']);
  const [result, setResult] = useState<'copied' | 'failed' | null>(null);
  const canCopy = typeof navigator !== 'undefined' && typeof navigator.clipboard?.writeText === 'function';
  return (
    <>
      {canCopy && (
        <Button
          variant="secondary"
          onClick={() =>
            void navigator.clipboard.writeText(code).then(
              () => setResult('copied'),
              () => setResult('failed'),
            )
          }
        >
          {t('trakt.pending.copy')}
        </Button>
      )}
      <span role="status" className="text-sm text-fg-muted">
        {result === 'copied' && t('trakt.pending.copied')}
        {result === 'failed' && t('trakt.pending.copyFailed')}
      </span>
    </>
  );
}

export function PendingView({
  device,
  expired,
  busy,
  onNewCode,
  onCancel,
}: {
  device: TraktDeviceCode;
  /** The code's time is up (the status is read once more, which says so too). */
  expired: boolean;
  busy: boolean;
  onNewCode(): void;
  onCancel(): void;
}) {
  const { t, i18n } = useTranslation(['trakt']);
  const url = device.verificationUrl;
  const until = dateTimeFormat(i18n.language, { timeStyle: 'short' }).format(new Date(device.expiresAt));
  // The address goes where the sentence puts it, as a link. (Not react-i18next's Trans: the bundler would
  // move it, and the HTML parser it needs, into the first view's chunk.)
  const [before = '', after = ''] = t('trakt.pending.goTo', { url: URL_SLOT }).split(URL_SLOT);
  return (
    <>
      <p id="trakt-code-instructions" className="text-fg">
        {before}
        {isWebUrl(url) ? (
          <a
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            dir="ltr"
            className="font-semibold break-all text-fg-accent underline"
          >
            {url}
          </a>
        ) : (
          <span dir="ltr" className="font-semibold break-all">
            {url}
          </span>
        )}
        {after}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <code
          tabIndex={-1}
          data-trakt-focus
          aria-describedby="trakt-code-instructions"
          dir="ltr"
          className="rounded-lg bg-surface-2 px-4 py-2 font-mono text-3xl font-bold tracking-widest text-fg select-all sm:text-4xl"
          data-testid="trakt-code"
        >
          {device.userCode}
        </code>
        <CopyCode code={device.userCode} />
      </div>
      <p className="text-sm text-fg-muted">
        {expired ? t('trakt.pending.expired') : t('trakt.pending.expiresAt', { time: until })}
      </p>
      <div className="flex flex-wrap gap-3">
        {expired && (
          <Button disabled={busy} onClick={onNewCode}>
            {t('trakt.pending.newCode')}
          </Button>
        )}
        <Button variant="secondary" disabled={busy} onClick={onCancel}>
          {t('trakt.pending.cancel')}
        </Button>
      </div>
    </>
  );
}

/** Unlink, asked first (the house's confirmation: an alert dialog whose Cancel has the focus). */
function UnlinkButton({ busy, onUnlink }: { busy: boolean; onUnlink(done: () => void): void }) {
  const { t } = useTranslation(['trakt']);
  const [confirming, setConfirming] = useState(false);
  const close = () => setConfirming(false);
  return (
    <>
      <Button variant="secondary" className="text-red-300" onClick={() => setConfirming(true)}>
        {t('trakt.linked.unlink')}
      </Button>
      {confirming && (
        <Dialog
          role="alertdialog"
          labelledBy="trakt-unlink-title"
          onClose={close}
          data-testid="trakt-unlink-dialog"
        >
          <h2 id="trakt-unlink-title" className="text-xl font-bold text-fg">
            {t('trakt.unlinkDialog.title')}
          </h2>
          <p className="mt-2 text-fg-muted">{t('trakt.unlinkDialog.text')}</p>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={close} data-autofocus>
              {t('trakt.unlinkDialog.cancel')}
            </Button>
            <Button className="bg-red-700 hover:bg-red-600" disabled={busy} onClick={() => onUnlink(close)}>
              {t('trakt.unlinkDialog.confirm')}
            </Button>
          </div>
        </Dialog>
      )}
    </>
  );
}

export function LinkedView({
  status,
  busy,
  onSync,
  onUnlink,
}: {
  status: TraktStatus;
  busy: boolean;
  onSync(): void;
  onUnlink(done: () => void): void;
}) {
  const { t, i18n } = useTranslation(['trakt']);
  const problem = syncProblem(status.problem);
  const lastSync = status.lastSyncAt
    ? dateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date(status.lastSyncAt),
      )
    : null;
  return (
    <>
      <p tabIndex={-1} data-trakt-focus className="font-semibold text-fg" data-testid="trakt-linked">
        {status.username ? t('trakt.linked.as', { username: status.username }) : t('trakt.linked.asUnknown')}
      </p>
      <p className="text-sm text-fg-muted">
        {lastSync ? t('trakt.linked.lastSync', { time: lastSync }) : t('trakt.linked.never')}
      </p>
      {status.syncPending && <p className="text-sm text-fg-muted">{t('trakt.linked.syncing')}</p>}
      {problem && <p className="text-sm text-amber-300">{t(`trakt.linked.problem.${problem}`)}</p>}
      <div className="flex flex-wrap gap-3">
        <Button disabled={busy} onClick={onSync} data-testid="trakt-sync">
          {t('trakt.linked.syncNow')}
        </Button>
        <UnlinkButton busy={busy} onUnlink={onUnlink} />
      </div>
    </>
  );
}

export function RelinkView({
  busy,
  onLink,
  onUnlink,
}: {
  busy: boolean;
  onLink(): void;
  onUnlink(done: () => void): void;
}) {
  const { t } = useTranslation(['trakt']);
  return (
    <>
      <p className="text-amber-300">{t('trakt.relink.text')}</p>
      <div className="flex flex-wrap gap-3">
        <Button data-trakt-focus disabled={busy} onClick={onLink}>
          {t('trakt.relink.link')}
        </Button>
        <UnlinkButton busy={busy} onUnlink={onUnlink} />
      </div>
    </>
  );
}
