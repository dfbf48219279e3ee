/*
 * Import from anywhere, export everything (issue 27, decision 096): pure readers and writers of other
 * services' files. Only the import/export page's lazy chunk imports this folder (papaparse and fflate
 * stay out of the first view).
 */
export { parse, parseFile, type ImportFile } from './parse.ts';
export {
  IMPORT_LIMITS,
  ImportRefused,
  type ImportEpisodeRef,
  type ImportFormat,
  type ImportKind,
  type ImportRecord,
  type ImportResult,
  type ImportTitleRef,
  type ParseOptions,
  type RefusalCode,
  type RefusalDetails,
  type SkippedRow,
} from './model.ts';
export {
  exportPStreamBackup,
  type PStreamBackupInput,
  type PStreamBookmarkInput,
  type PStreamExportOptions,
  type PStreamHistoryInput,
  type PStreamRatingInput,
  type PStreamProgressInput,
} from './export-pstream.ts';
export {
  exportLetterboxdCsv,
  type LetterboxdBookmark,
  type LetterboxdExportFiles,
  type LetterboxdExportInput,
  type LetterboxdPlay,
  type LetterboxdRating,
} from './export-letterboxd.ts';
