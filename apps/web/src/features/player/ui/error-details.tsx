import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import type { ErrorCode } from '@marquee/contract';
import { codeKey, type ErrorKey } from '../../../lib/api/index.ts';
import { COPY_CONFIRMATION_MS } from '../../../lib/calendar.ts';
import type { ScrapeState } from '../core/player-store.ts';
import type { ScrapeSegment } from '../core/types.ts';

export type Outcome = 'notFound' | 'failed' | 'found' | 'playbackFailed' | 'unfinished';

export interface SourceOutcome {
  name: string;
  /** An embed, listed under its source. */
  isEmbed: boolean;
  outcome: Outcome;
  /** The source's own words (a provider's reason or error): data, not translated. */
  reason?: string;
  /** Why it failed as the server's error code, when the viewer has words for it (`media_unplayable`). */
  code?: ErrorCode;
}

/** The viewer's words for a server's error code (`errors.api.*`), or null when it has none of its own. */
export function explainedKey(code: ErrorCode | null | undefined): ErrorKey | null {
  if (!code) return null;
  const key = codeKey(code);
  return key === 'errors.api.unknown' ? null : key;
}

/** The first source of a run that failed for a reason the server explained (the library's file), if any. */
export function explainedFailure(scrape: ScrapeState): ErrorKey | null {
  for (const id of scrape.order) {
    const segment = scrape.segments[id];
    const key = segment?.status === 'failure' ? explainedKey(segment.errorCode) : null;
    if (key) return key;
  }
  return null;
}

/** What the player played when it failed: its source, and the display's error in the viewer's words. */
export interface FailedPlayback {
  sourceId: string;
  sourceName: string;
  error: string;
}

function outcomeOf(s: ScrapeSegment): SourceOutcome | null {
  const base = { name: s.name, isEmbed: !!s.parentId };
  switch (s.status) {
    case 'waiting':
      return null;
    case 'pending':
      return { ...base, outcome: 'unfinished' };
    case 'success':
      return { ...base, outcome: 'found' };
    case 'notfound':
      return { ...base, outcome: 'notFound', ...(s.reason ? { reason: s.reason } : {}) };
    case 'failure': {
      const reason = s.error ?? s.reason;
      const code = explainedKey(s.errorCode) ? s.errorCode : undefined;
      return { ...base, outcome: 'failed', ...(reason ? { reason } : {}), ...(code ? { code } : {}) };
    }
  }
}

/**
 * Every source (and embed) the run tried, in its order, and how each ended; those it never reached are
 * left out. The source that played and failed says so, also when the viewer picked it from the menu
 * after the run.
 */
export function sourceOutcomes(scrape: ScrapeState, failed: FailedPlayback | null): SourceOutcome[] {
  const out: SourceOutcome[] = [];
  for (const id of scrape.order) {
    const segment = scrape.segments[id];
    const outcome = segment && outcomeOf(segment);
    if (!outcome) continue;
    if (failed && id === failed.sourceId)
      out.push({ ...outcome, outcome: 'playbackFailed', reason: failed.error });
    else out.push(outcome);
  }
  if (failed && !scrape.segments[failed.sourceId])
    out.push({ name: failed.sourceName, isEmbed: false, outcome: 'playbackFailed', reason: failed.error });
  return out;
}

const OUTCOME_KEYS = {
  notFound: ['player.errors.outcomes.notFound', 'player.errors.outcomes.notFoundBecause'],
  failed: ['player.errors.outcomes.failed', 'player.errors.outcomes.failedBecause'],
  found: ['player.errors.outcomes.found', 'player.errors.outcomes.found'],
  playbackFailed: ['player.errors.outcomes.playbackFailed', 'player.errors.outcomes.playbackFailed'],
  unfinished: ['player.errors.outcomes.unfinished', 'player.errors.outcomes.unfinished'],
} as const satisfies Record<Outcome, readonly [string, string]>;

/**
 * The report a viewer copies into a bug report: the page, the error, and every source tried with its
 * outcome (in the viewer's words where the server explained a failure, else the source's own).
 */
export function useErrorReport({ message, outcomes }: { message: string | null; outcomes: SourceOutcome[] }) {
  const { t } = useTranslation(['errors', 'player']);
  const lines = [
    t('player.errors.page', { url: window.location.href }),
    ...(message ? [t('player.errors.message', { message })] : []),
    outcomes.length ? t('player.errors.sourcesTried') : t('player.errors.noSources'),
    ...outcomes.map((o) => {
      const [plain, because] = OUTCOME_KEYS[o.outcome];
      const explained = explainedKey(o.code);
      const reason = explained ? t(explained) : o.reason;
      const text = t(reason ? because : plain, { name: o.name, reason: reason ?? '' });
      return `${o.isEmbed ? '    ' : ''}- ${text}`;
    }),
  ];
  return lines.join('\n');
}

/** The report, readable and copyable; Esc or Close goes back to the error screen. */
export function DetailsDialog({ text, onClose }: { text: string; onClose(): void }) {
  const { t } = useTranslation(['errors', 'player']);
  const titleId = useId();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Dialog onClose={onClose} labelledBy={titleId} className="max-w-xl">
      <h2 id={titleId} className="mb-3 text-lg font-bold">
        {t('player.errors.details')}
      </h2>
      <pre
        className="max-h-72 overflow-auto whitespace-pre-wrap break-words rounded bg-black/40 p-3 text-xs"
        data-testid="error-details"
      >
        {text}
      </pre>
      <div className="mt-4 flex justify-end gap-3">
        <Button
          variant="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(`\`\`\`\n${text}\n\`\`\``).then(() => setCopied(true));
          }}
        >
          {copied ? t('errors.copied') : t('errors.copy')}
        </Button>
        <Button data-autofocus onClick={onClose}>
          {t('errors.close')}
        </Button>
      </div>
    </Dialog>
  );
}
