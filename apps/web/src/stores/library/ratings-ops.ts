import { ratingWrite, type RatingEntry, type RatingWrite } from './ratings-rules.ts';

/*
 * A file's rating as a change of an import (docs/decisions/103-ratings.md). Apart from the store's own
 * ops, so only the import's code carries it.
 */

/**
 * A rating of a file (or a backup) as a change for the bulk import (`mergeInBulk`, `importIntoLibrary`):
 * dated `updatedAt` when the record has one, else when it was rated — so importing the same file again
 * is no change. Null when the value is not a rating the server takes (1–10).
 */
export const ratingImportOp = (
  record: Omit<RatingEntry, 'updatedAt'> & { updatedAt?: number },
  now: number,
): RatingWrite | null => ratingWrite(record, record.rating, record.ratedAt, record.updatedAt, now);
