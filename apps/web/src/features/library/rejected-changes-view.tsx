import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveBlob } from '../../lib/save-file.ts';
import { rejectedChangesFile, useRejectedChanges } from '../../lib/sync/rejected-changes.ts';
import { describeOp, type RejectedOp } from '../../stores/library/outbox.ts';

const REASONS = [
  'validation_failed',
  'bad_request',
  'payload_too_large',
  'not_found',
  'profile_not_found',
  'unauthorized',
  'forbidden',
  'unsendable',
] as const;
type Reason = (typeof REASONS)[number];
const isReason = (code: string): code is Reason => (REASONS as readonly string[]).includes(code);
/** The reason's key: the server's code when we have a text for it, else the generic one. */
const reasonKey = (code: string) => `rejected.reasons.${isReason(code) ? code : 'other'}` as const;

const saveFile = (rejected: readonly RejectedOp[]) =>
  saveBlob(rejectedChangesFile(rejected), 'marquee-refused-changes.json');

function RejectedList({ rejected }: { rejected: readonly RejectedOp[] }) {
  const { t } = useTranslation(['rejected']);
  return (
    <ul className="mt-2 space-y-1 text-left" data-testid="rejected-changes-list">
      {rejected.map((r) => {
        const { kind, title } = describeOp(r.op);
        return (
          <li key={r.op.id}>
            {t(`rejected.kinds.${kind}`, { title: title ?? t('rejected.untitled') })}
            {' — '}
            {t(reasonKey(r.code))}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Changes the server refused for good (decision 070): a banner over the app until the user dismisses it
 * (`banner`, new refusals only), or the whole list with export on My List (`panel`). `shown`: the
 * refusals to show, never none (RejectedChanges decides).
 */
export function RejectedChangesView({
  variant,
  shown,
}: {
  variant: 'banner' | 'panel';
  shown: readonly RejectedOp[];
}) {
  const { t } = useTranslation(['global', 'rejected']);
  const [open, setOpen] = useState(false);
  const actions = (
    <>
      <button
        type="button"
        className="font-semibold underline"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
      >
        {t(open ? 'rejected.hide' : 'rejected.show')}
      </button>
      <button type="button" className="font-semibold underline" onClick={() => saveFile(shown)}>
        {t('rejected.export')}
      </button>
      {/* The banner is dismissed (the refusals stay on My List); the panel forgets them. */}
      <button
        type="button"
        className="font-semibold underline"
        onClick={() =>
          variant === 'banner'
            ? useRejectedChanges.getState().markSeen()
            : useRejectedChanges.getState().clear()
        }
      >
        {t(variant === 'banner' ? 'global.dismiss' : 'rejected.clear')}
      </button>
    </>
  );
  if (variant === 'banner')
    return (
      <div
        role="status"
        className="bg-amber-800 px-4 py-2 text-center text-sm text-white"
        data-testid="rejected-changes-notice"
      >
        <div className="flex flex-wrap items-center justify-center gap-4">
          <span>{t('rejected.notice', { count: shown.length })}</span>
          {actions}
        </div>
        {open && <RejectedList rejected={shown} />}
      </div>
    );
  return (
    <section
      className="mb-8 rounded-lg bg-surface-2 p-4 text-sm text-fg"
      data-testid="rejected-changes-panel"
    >
      <h2 className="font-semibold">{t('rejected.title', { count: shown.length })}</h2>
      <p className="mt-1 text-fg-muted">{t('rejected.explanation')}</p>
      <div className="mt-2 flex flex-wrap gap-4">{actions}</div>
      {open && <RejectedList rejected={shown} />}
    </section>
  );
}
