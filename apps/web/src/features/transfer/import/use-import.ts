import { useCallback, useRef, useState } from 'react';
import type { FileImportOutcome, FileImportProgress } from '../../../lib/sync/file-import.ts';
import type { ImportOp } from '../../../stores/library/bulk-merge.ts';
import type { SyncedSettings } from '../../../stores/library/outbox.ts';
import type { ImportResult, ParseOptions } from '../formats/index.ts';
import { allRecords, titleQueries, type TitleMatch, type TitleQuery } from './import-plan.ts';
import type { MatchProgress } from './match-titles.ts';
import type { ParseReply } from './parse-all.ts';

/*
 * The import page's steps (issue 27): pick → read → (how dates are written) → match → review → save →
 * done. The steps' work is handed in, so the page's tests run it with fakes.
 */

export interface ImportWork {
  read(files: readonly File[], options: ParseOptions): Promise<ParseReply>;
  match(
    queries: readonly TitleQuery[],
    onProgress: (p: MatchProgress) => void,
    signal: AbortSignal,
  ): Promise<Map<string, TitleMatch>>;
  save(ops: readonly ImportOp[], onProgress: (p: FileImportProgress) => void): Promise<FileImportOutcome>;
  /** Makes a backup's settings (those this app knows, already checked) the viewer's, as Settings would. */
  applySettings(settings: SyncedSettings): void;
}

export type Refusal = Extract<ParseReply, { ok: false }>['refusal'];

export interface Reviewed {
  results: ImportResult[];
  queries: TitleQuery[];
  /** Titles the file names completely (a p-stream backup): no look-up was needed. */
  known: Set<string>;
  matches: Map<string, TitleMatch>;
}

export type ImportStep =
  | { step: 'pick' }
  | { step: 'reading'; names: string[] }
  | { step: 'refused'; refusal: Refusal | null }
  | { step: 'date-order'; files: File[]; example: string }
  | { step: 'matching'; progress: MatchProgress }
  | ({ step: 'review' } & Reviewed)
  | { step: 'saving'; progress: FileImportProgress }
  | { step: 'done'; outcome: FileImportOutcome; settingsApplied: boolean };

/** An example of a date the file could mean two ways (Netflix's viewing history in the viewer's locale). */
function ambiguousDate(results: readonly ImportResult[]): string | null {
  for (const r of results)
    for (const record of r.records)
      if (record.unsure === 'date_order' && record.watchedAt) return record.watchedAt;
  return null;
}

export function useImport(work: ImportWork) {
  const [state, setState] = useState<ImportStep>({ step: 'pick' });
  const abort = useRef<AbortController | null>(null);

  const matchAll = useCallback(
    async (results: ImportResult[]) => {
      const { queries, known } = titleQueries(allRecords(results));
      const controller = new AbortController();
      abort.current = controller;
      setState({ step: 'matching', progress: { done: 0, total: queries.length } });
      try {
        const matches = await work.match(
          queries,
          (progress) => setState((s) => (s.step === 'matching' ? { step: 'matching', progress } : s)),
          controller.signal,
        );
        if (!controller.signal.aborted) setState({ step: 'review', results, queries, known, matches });
      } catch (error) {
        if (!controller.signal.aborted) throw error;
      }
    },
    [work],
  );

  const read = useCallback(
    async (files: File[], options: ParseOptions = {}) => {
      if (files.length === 0) return;
      setState({ step: 'reading', names: files.map((f) => f.name) });
      let reply: ParseReply;
      try {
        reply = await work.read(files, options);
      } catch {
        setState({ step: 'refused', refusal: null });
        return;
      }
      if (!reply.ok) {
        setState({ step: 'refused', refusal: reply.refusal });
        return;
      }
      const example = options.dateOrder ? null : ambiguousDate(reply.results);
      if (example) {
        setState({ step: 'date-order', files, example });
        return;
      }
      await matchAll(reply.results);
    },
    [work, matchAll],
  );

  /** Saves the library's changes, then (when the viewer chose to) the backup's settings. */
  const save = useCallback(
    async (ops: readonly ImportOp[], settings: SyncedSettings | null = null) => {
      setState({ step: 'saving', progress: { sent: 0, total: ops.length } });
      const outcome = await work.save(ops, (progress) =>
        setState((s) => (s.step === 'saving' ? { step: 'saving', progress } : s)),
      );
      if (settings) work.applySettings(settings);
      setState({ step: 'done', outcome, settingsApplied: settings !== null });
    },
    [work],
  );

  const restart = useCallback(() => {
    abort.current?.abort();
    setState({ step: 'pick' });
  }, []);

  return { state, read, save, restart };
}
