import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MediaSummary } from '@marquee/contract';
import { Button } from '../../../components/button.tsx';
import { clock } from '../../../lib/clock.ts';
import { isRtl } from '../../../lib/i18n.ts';
import { listFormat, numberFormat } from '../../../lib/intl.ts';
import { knownSyncedSettings } from '../../../lib/sync/settings-sync.ts';
import { mergeInBulk, type ImportOp } from '../../../stores/library/bulk-merge.ts';
import { playTitleKey, type PlayEntry } from '../../../stores/library/history-rules.ts';
import { useLibraryStore } from '../../../stores/index.ts';
import type { SyncedSettings } from '../../../stores/library/outbox.ts';
import type { MediaType } from '../../../lib/media-keys.ts';
import type { ImportFormat } from '../formats/index.ts';
import {
  allRecords,
  backupOrder,
  defaultChoices,
  fileLists,
  planImport,
  profilesOf,
  type ImportChoices,
  type LeftOutReason,
  type TitleQuery,
} from './import-plan.ts';
import type { Reviewed } from './use-import.ts';

/** Services' own names: not translated. */
const FORMAT_NAMES: Record<ImportFormat, string> = {
  letterboxd: 'Letterboxd',
  imdb: 'IMDb',
  netflix: 'Netflix',
  trakt: 'Trakt',
  pstream: 'p-stream / movie-web',
};
/** Unsure titles listed before "Show all". */
const FIRST_UNSURE = 20;
/** Titles not found listed at most. */
const MAX_UNMATCHED = 200;
/** A file's lists named in the option about them; the rest are counted ("and 4 more"). */
const NAMED_LISTS = 3;

const LIST_KINDS = ['watched', 'watchlist'] as const;

const candidateKey = (c: MediaSummary) => `${c.type}:${c.id}`;

/** Whether the library holds a play of a movie or an episode. */
function watchedIn(history: Record<string, PlayEntry>) {
  const watched = new Set(
    Object.values(history).map((p) => playTitleKey({ ...p, episodeId: p.episode?.id })),
  );
  return (type: MediaType, tmdbId: string, episodeId?: string) =>
    watched.has(playTitleKey({ type, tmdbId, episodeId }));
}

interface News {
  plays: number;
  myList: number;
  progress: number;
  /** Named lists new to the library. */
  lists: number;
  ratings: number;
}

const hasNews = (news: News) => news.plays + news.myList + news.progress + news.lists + news.ratings > 0;

/** The plan for the viewer's choices, and what of it is new to the library held. */
function useReviewPlan(reviewed: Reviewed, choices: ImportChoices) {
  const records = useMemo(() => allRecords(reviewed.results), [reviewed.results]);
  const library = useLibraryStore.getState();
  const plan = useMemo(
    () =>
      planImport(records, reviewed.matches, reviewed.queries, choices, reviewed.known, {
        watchedBefore: watchedIn(library.history),
        groupOrder: backupOrder(reviewed.results),
        now: clock.now().getTime(),
      }),
    [records, reviewed, choices, library.history],
  );
  // What importing would change, counted as the library would take it: what is already there is no news.
  const news = useMemo((): News => {
    const { changed } = mergeInBulk(library, plan.ops);
    return {
      plays: Object.keys(changed.history).length,
      myList: Object.keys(changed.bookmarks).length,
      progress: Object.keys(changed.progress).length,
      lists: changed.lists?.length ?? 0,
      ratings: Object.keys(changed.ratings ?? {}).length,
    };
  }, [library, plan.ops]);
  return { records, plan, news };
}

/** The settings a backup carries that this app can use (the files' in order, a later one's winning). */
function backupSettings(results: Reviewed['results']): SyncedSettings | null {
  const raw = Object.assign({}, ...results.map((r) => r.settings ?? {})) as Record<string, unknown>;
  const known = knownSyncedSettings(raw);
  return Object.keys(known).length ? known : null;
}

/**
 * The review step: what matched, what to check, what was not found, and what importing will add. A
 * backup's settings are offered, off by default; chosen, they are applied once the library is saved.
 */
export function ImportReview({
  reviewed,
  onImport,
  onCancel,
}: {
  reviewed: Reviewed;
  onImport(ops: ImportOp[], settings: SyncedSettings | null): void;
  onCancel(): void;
}) {
  const { t } = useTranslation(['transfer']);
  const [choices, setChoices] = useState<ImportChoices>(defaultChoices);
  const [isUsingSettings, setUsingSettings] = useState(false);
  const { records, plan, news } = useReviewPlan(reviewed, choices);
  const settings = useMemo(() => backupSettings(reviewed.results), [reviewed.results]);
  const lists = useMemo(() => fileLists(reviewed.results), [reviewed.results]);
  const unsure = reviewed.queries.filter((q) => reviewed.matches.get(q.key)?.status === 'unsure');
  const skippedRows = reviewed.results.reduce((n, r) => n + r.skipped.length, 0);
  const chosenSettings = settings && isUsingSettings ? settings : null;
  const nothing = !hasNews(news) && !chosenSettings;

  return (
    <section
      aria-labelledby="import-review-heading"
      data-testid="import-review"
      className="flex flex-col gap-6"
    >
      <ReviewHeader reviewed={reviewed} />
      <ImportOptions records={records} lists={lists} choices={choices} onChange={setChoices}>
        {settings && (
          <Checkbox checked={isUsingSettings} onChange={setUsingSettings} testId="import-use-settings">
            {t('transfer.import.review.useSettings')}
          </Checkbox>
        )}
      </ImportOptions>
      <WillAdd news={news} planned={plan.ops.length} />
      {unsure.length > 0 && (
        <UnsureTitles
          queries={unsure}
          reviewed={reviewed}
          picks={choices.picks}
          onPick={(key, pick) => setChoices((c) => ({ ...c, picks: new Map(c.picks).set(key, pick) }))}
        />
      )}
      <NotFound reviewed={reviewed} />
      <LeftOut leftOut={plan.leftOut} skippedRows={skippedRows} />
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button
          data-testid="import-confirm"
          disabled={nothing}
          onClick={() => onImport(plan.ops, chosenSettings)}
        >
          {t('transfer.import.review.import')}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t('transfer.import.review.cancel')}
        </Button>
      </div>
    </section>
  );
}

/** Where the file came from and how its titles matched. */
function ReviewHeader({ reviewed }: { reviewed: Reviewed }) {
  const { t } = useTranslation(['transfer']);
  const statuses = useMemo(() => {
    const by = { matched: 0, unsure: 0, unmatched: 0, failed: 0 };
    for (const m of reviewed.matches.values()) by[m.status]++;
    by.matched += reviewed.known.size;
    return by;
  }, [reviewed]);
  const formats = [...new Set(reviewed.results.map((r) => FORMAT_NAMES[r.format]))].join(', ');
  return (
    <div>
      <h3 id="import-review-heading" className="text-xl font-bold text-fg">
        {t('transfer.import.review.heading')}
      </h3>
      <p className="text-sm text-fg-muted">{t('transfer.import.review.fromFormat', { format: formats })}</p>
      <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-fg" data-testid="import-review-counts">
        <li>
          {t('transfer.import.review.titles', { count: reviewed.queries.length + reviewed.known.size })}
        </li>
        <li data-testid="import-matched">
          {t('transfer.import.review.matched', { count: statuses.matched })}
        </li>
        {statuses.unsure > 0 && (
          <li data-testid="import-unsure">
            {t('transfer.import.review.unsure', { count: statuses.unsure })}
          </li>
        )}
        {statuses.unmatched > 0 && (
          <li data-testid="import-unmatched">
            {t('transfer.import.review.unmatched', { count: statuses.unmatched })}
          </li>
        )}
        {statuses.failed > 0 && (
          <li data-testid="import-failed">
            {t('transfer.import.review.failed', { count: statuses.failed })}
          </li>
        )}
      </ul>
    </div>
  );
}

/** What importing adds that the library does not hold yet. */
function WillAdd({ news, planned }: { news: News; planned: number }) {
  const { t } = useTranslation(['transfer']);
  return (
    <div data-testid="import-will-add">
      <h4 className="mb-1 font-semibold text-fg">{t('transfer.import.review.willAdd')}</h4>
      {!hasNews(news) ? (
        <p className="text-fg-muted" data-testid="import-nothing-new">
          {planned === 0 ? t('transfer.import.review.nothing') : t('transfer.import.done.nothingNew')}
        </p>
      ) : (
        <ul className="list-inside list-disc text-fg">
          {news.plays > 0 && <li>{t('transfer.import.review.plays', { count: news.plays })}</li>}
          {news.myList > 0 && <li>{t('transfer.import.review.myList', { count: news.myList })}</li>}
          {news.ratings > 0 && <li>{t('transfer.import.review.ratings', { count: news.ratings })}</li>}
          {news.progress > 0 && <li>{t('transfer.import.review.progress', { count: news.progress })}</li>}
          {news.lists > 0 && <li>{t('transfer.import.review.lists', { count: news.lists })}</li>}
        </ul>
      )}
      <p className="mt-1 text-sm text-fg-muted">{t('transfer.import.review.alreadyKept')}</p>
    </div>
  );
}

/** The titles no movie or show was found for (or could not be looked up): listed, not imported. */
function NotFound({ reviewed }: { reviewed: Reviewed }) {
  const { t, i18n } = useTranslation(['transfer']);
  const unmatched = reviewed.queries.filter((q) => {
    const status = reviewed.matches.get(q.key)?.status;
    return status === 'unmatched' || status === 'failed';
  });
  if (unmatched.length === 0) return null;
  return (
    <details data-testid="import-unmatched-list">
      <summary className="min-h-11 cursor-pointer py-2 font-semibold text-fg">
        {t('transfer.import.review.unmatchedHeading')} ({numberFormat(i18n.language).format(unmatched.length)}
        )
      </summary>
      <p className="text-sm text-fg-muted">{t('transfer.import.review.unmatchedHint')}</p>
      <ul className="mt-2 list-inside list-disc text-sm text-fg">
        {unmatched.slice(0, MAX_UNMATCHED).map((q) => (
          <li key={q.key}>
            <bdi>{q.title}</bdi>
            {q.year ? ` (${q.year})` : ''}
          </li>
        ))}
      </ul>
    </details>
  );
}

function UnsureTitles({
  queries,
  reviewed,
  picks,
  onPick,
}: {
  queries: TitleQuery[];
  reviewed: Reviewed;
  picks: ReadonlyMap<string, string | null>;
  onPick(key: string, pick: string | null): void;
}) {
  const { t } = useTranslation(['transfer']);
  const [all, setAll] = useState(false);
  const shown = all ? queries : queries.slice(0, FIRST_UNSURE);
  const label = (c: MediaSummary) =>
    `${c.title}${c.year ? ` (${c.year})` : ''} · ${t(c.type === 'movie' ? 'transfer.import.review.movie' : 'transfer.import.review.show')}`;
  return (
    <div data-testid="import-unsure-list">
      <h4 className="font-semibold text-fg">{t('transfer.import.review.unsureHeading')}</h4>
      <p className="mb-2 text-sm text-fg-muted">{t('transfer.import.review.unsureHint')}</p>
      <ul className="flex flex-col gap-2">
        {shown.map((q) => {
          const match = reviewed.matches.get(q.key)!;
          const value = picks.has(q.key)
            ? (picks.get(q.key) ?? '')
            : match.match
              ? candidateKey(match.match)
              : '';
          const source = `${q.title}${q.year ? ` (${q.year})` : ''}`;
          return (
            <li key={q.key} className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
              <span className="text-fg sm:w-1/3">
                <bdi>{source}</bdi>
              </span>
              <select
                aria-label={t('transfer.import.review.pickLabel', { title: source })}
                value={value}
                onChange={(event) => onPick(q.key, event.currentTarget.value || null)}
                className="min-h-11 rounded-lg bg-surface-2 px-3 text-fg sm:flex-1"
              >
                {match.candidates.map((c) => (
                  <option key={candidateKey(c)} value={candidateKey(c)}>
                    {label(c)}
                  </option>
                ))}
                <option value="">{t('transfer.import.review.leaveOut')}</option>
              </select>
            </li>
          );
        })}
      </ul>
      {!all && queries.length > FIRST_UNSURE && (
        <button
          type="button"
          onClick={() => setAll(true)}
          className="mt-2 min-h-11 text-sm font-semibold text-fg-accent underline focus-visible:outline-2 focus-visible:outline-accent"
        >
          {t('transfer.import.review.showAll', { count: queries.length })}
        </button>
      )}
    </div>
  );
}

function LeftOut({
  leftOut,
  skippedRows,
}: {
  leftOut: Partial<Record<LeftOutReason, number>>;
  skippedRows: number;
}) {
  const { t } = useTranslation(['transfer']);
  const reasons = Object.entries(leftOut) as [LeftOutReason, number][];
  if (reasons.length === 0 && skippedRows === 0) return null;
  return (
    <div data-testid="import-left-out">
      <h4 className="mb-1 font-semibold text-fg">{t('transfer.import.review.leftOutHeading')}</h4>
      <ul className="list-inside list-disc text-sm text-fg-muted">
        {reasons.map(([reason, n]) => (
          <li key={reason}>{t(`transfer.import.review.leftOut.${reason}`, { count: n })}</li>
        ))}
        {skippedRows > 0 && <li>{t('transfer.import.review.leftOut.skipped', { count: skippedRows })}</li>}
      </ul>
    </div>
  );
}

const OPTION =
  'inline-flex min-h-11 cursor-pointer items-center gap-2 text-fg has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent';

/** One option of the import that is on or off. */
function Checkbox({
  checked,
  onChange,
  testId,
  children,
}: {
  checked: boolean;
  onChange(checked: boolean): void;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <label className={OPTION}>
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.currentTarget.checked)}
        data-testid={testId}
      />
      {children}
    </label>
  );
}

/**
 * The option of lists, naming the first few of the file's lists: "Add the titles of my lists (Halloween,
 * Classics, Noir and 2 more) to My List, on lists of the same name". Without a usable name (only names a
 * list cannot have), the titles go to My List.
 */
function NamedListsOption({
  lists,
  checked,
  onChange,
}: {
  lists: readonly string[];
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  const { t, i18n } = useTranslation(['transfer']);
  // Each name its own bidi isolate in right-to-left languages, as every interpolated value is.
  const isolate = (name: string) => (isRtl(i18n.language) ? `\u2068${name}\u2069` : name);
  const named = lists.slice(0, NAMED_LISTS).map(isolate);
  const more = lists.length - named.length;
  const names = listFormat(i18n.language, { type: 'conjunction' }).format(
    more > 0 ? [...named, t('transfer.import.review.moreLists', { count: more })] : named,
  );
  return (
    <Checkbox checked={checked} onChange={onChange} testId="import-named-lists">
      {lists.length === 0
        ? t('transfer.import.review.listsToMyList')
        : lists.length === 1
          ? t('transfer.import.review.listToNamedList', { list: lists[0] })
          : t('transfer.import.review.listsToNamedLists', { lists: names })}
    </Checkbox>
  );
}

/**
 * The options a file calls for: whose Netflix viewing, what a lone list is, ratings and lists; and those
 * handed in (`children`: a backup's settings).
 */
function ImportOptions({
  records,
  lists,
  choices,
  onChange,
  children,
}: {
  records: ReturnType<typeof allRecords>;
  /** The named lists the files hold, in their order. */
  lists: readonly string[];
  choices: ImportChoices;
  onChange(update: (c: ImportChoices) => ImportChoices): void;
  children?: ReactNode;
}) {
  const { t } = useTranslation(['transfer']);
  const profiles = useMemo(() => profilesOf(records), [records]);
  const hasRatings = records.some((r) => r.kind === 'rating');
  const hasLists = lists.length > 0 || records.some((r) => r.kind === 'list-item');
  const loneList = records.some((r) => r.unsure === 'list_kind');
  if (profiles.length < 2 && !hasRatings && !hasLists && !loneList && !children) return null;
  return (
    <div className="flex flex-col gap-3" data-testid="import-options">
      <h4 className="font-semibold text-fg">{t('transfer.import.review.options')}</h4>
      {profiles.length > 1 && (
        <fieldset className="flex flex-col">
          <legend className="text-sm text-fg-muted">{t('transfer.import.review.profileLegend')}</legend>
          {[undefined, ...profiles].map((p) => (
            <label key={p ?? ''} className={OPTION}>
              <input
                type="radio"
                name="import-profile"
                checked={choices.profile === p}
                onChange={() => onChange((c) => ({ ...c, profile: p }))}
              />
              {p === undefined ? t('transfer.import.review.everyone') : <bdi>{p}</bdi>}
            </label>
          ))}
        </fieldset>
      )}
      {loneList && (
        <fieldset className="flex flex-col">
          <legend className="text-sm text-fg-muted">{t('transfer.import.review.listKindLegend')}</legend>
          {LIST_KINDS.map((kind) => (
            <label key={kind} className={OPTION}>
              <input
                type="radio"
                name="import-list-kind"
                checked={choices.listKind === kind}
                onChange={() => onChange((c) => ({ ...c, listKind: kind }))}
              />
              {t(
                kind === 'watched'
                  ? 'transfer.import.review.listKindWatched'
                  : 'transfer.import.review.listKindWatchlist',
              )}
            </label>
          ))}
        </fieldset>
      )}
      {hasRatings && (
        <Checkbox
          checked={choices.ratingsAsPlays}
          onChange={(on) => onChange((c) => ({ ...c, ratingsAsPlays: on }))}
        >
          {t('transfer.import.review.ratingsAsPlays')}
        </Checkbox>
      )}
      {hasLists && (
        <NamedListsOption
          lists={lists}
          checked={choices.namedLists}
          onChange={(on) => onChange((c) => ({ ...c, namedLists: on }))}
        />
      )}
      {children}
    </div>
  );
}
