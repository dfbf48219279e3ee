import {
  ImportRefused,
  parseFile,
  type ImportResult,
  type ParseOptions,
  type RefusalCode,
  type RefusalDetails,
} from '../formats/index.ts';

/** What reading answers: every file's records, or the refusal of one (then nothing is imported). */
export type ParseReply =
  { ok: true; results: ImportResult[] } | { ok: false; refusal: RefusalDetails & { code: RefusalCode } };

/** Reads each file; the first refused file refuses the whole choice. Other errors are thrown. */
export async function parseAll(files: readonly File[], options: ParseOptions): Promise<ParseReply> {
  try {
    const results: ImportResult[] = [];
    for (const file of files) results.push(await parseFile(file, options));
    return { ok: true, results };
  } catch (error) {
    if (!(error instanceof ImportRefused)) throw error;
    const { code, file, row, column, columns, files: names } = error;
    return { ok: false, refusal: { code, file, row, column, columns, files: names } };
  }
}
