import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { chunksOf, LIBRARY_BATCH_ROWS, yieldToOthers, type LibraryRef } from './library.ts';
import type { LibraryStore } from './library-store.ts';

/** One row of an import and whether its change carried a time (older clients send none). */
export interface Incoming<Row> {
  row: Row;
  dated: boolean;
}

/**
 * An import's changes as rows, one per key: of duplicates within one payload the latest dated change
 * wins, and an undated one only where no dated one came (decision 011's conflict rule). Read in slices
 * with other requests served between them.
 */
export async function latestPerKey<
  Change extends { updatedAt?: string | undefined },
  Row extends { updated_at: number },
>(
  changes: readonly Change[],
  rowOf: (change: Change) => Row,
  keyOf: (row: Row) => string,
): Promise<Incoming<Row>[]> {
  const latest = new Map<string, Incoming<Row>>();
  for (const [index, slice] of chunksOf(changes, LIBRARY_BATCH_ROWS).entries()) {
    if (index > 0) await yieldToOthers();
    for (const change of slice) {
      const row = rowOf(change);
      const dated = change.updatedAt !== undefined;
      const key = keyOf(row);
      const seen = latest.get(key);
      if (!seen || (dated && (!seen.dated || row.updated_at >= seen.row.updated_at)))
        latest.set(key, { row, dated });
    }
  }
  return [...latest.values()];
}

/** What a kind of library's repository offers an import batch. */
export interface ImportRows<Row> {
  keyOf(row: Row): string;
  /** Writes rows under the conflict rule; `fillOnly` writes only where the key holds nothing. */
  writeMany(rows: Row[], fillOnly: boolean, trx: Kysely<Database>): Promise<Row[]>;
  findMany(lib: LibraryRef, keys: readonly Row[], trx: Kysely<Database>): Promise<Row[]>;
}

/**
 * One transaction of an import (inside `library.write`): change numbers for every row, dated rows
 * written under the conflict rule and undated ones only into gaps, then the stored row of every key,
 * written or not, in the batch's order.
 */
export async function writeImportBatch<Row extends { seq: number }>(
  trx: Transaction<Database>,
  library: Pick<LibraryStore<never, never, never, never>, 'reserve'>,
  lib: LibraryRef,
  batch: readonly Incoming<Row>[],
  rows: ImportRows<Row>,
): Promise<Row[]> {
  if (batch.length === 0) return [];
  let seq = await library.reserve(trx, lib, batch.length);
  for (const { row } of batch) row.seq = seq++;
  const written = [
    ...(await rows.writeMany(
      batch.filter((b) => b.dated).map((b) => b.row),
      false,
      trx,
    )),
    ...(await rows.writeMany(
      batch.filter((b) => !b.dated).map((b) => b.row),
      true,
      trx,
    )),
  ];
  const byKey = new Map(written.map((row) => [rows.keyOf(row), row]));
  const untouched = batch.map((b) => b.row).filter((row) => !byKey.has(rows.keyOf(row)));
  for (const row of await rows.findMany(lib, untouched, trx)) byKey.set(rows.keyOf(row), row);
  return batch.flatMap(({ row }) => byKey.get(rows.keyOf(row)) ?? []);
}
