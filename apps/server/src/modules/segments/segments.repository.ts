import type { Kysely } from 'kysely';
import type { SegmentType } from '@marquee/contract';
import type { Database, MediaSegmentDetectionsTable } from '../../db/schema.ts';

/** A viewer's mark, as stored. Milliseconds. */
export interface StoredMark {
  type: SegmentType;
  userId: string;
  startMs: number;
  endMs: number;
  updatedAt: number;
}

/** What detection found in one version of a file. Milliseconds; null: nothing of that type. */
export interface StoredDetection {
  fileId: string;
  fileVersion: string;
  groupKey: string;
  state: 'done' | 'failed';
  intro: { startMs: number; endMs: number } | null;
  credits: { startMs: number; endMs: number } | null;
  detail: string | null;
  detectedAt: number;
}

/** What detection read from one version of a file (see MediaSegmentAnalysesTable). */
export type AnalysisKind = 'intro-print' | 'credits-print' | 'black';
export interface StoredAnalysis {
  fileVersion: string;
  offsetMs: number;
  data: string;
}

const bounds = (start: number | null, end: number | null) =>
  start === null || end === null ? null : { startMs: Number(start), endMs: Number(end) };

function detectionOf(row: MediaSegmentDetectionsTable): StoredDetection {
  return {
    fileId: row.file_id,
    fileVersion: row.file_version,
    groupKey: row.group_key,
    state: row.state,
    intro: bounds(row.intro_start_ms, row.intro_end_ms),
    credits: bounds(row.credits_start_ms, row.credits_end_ms),
    detail: row.detail,
    detectedAt: Number(row.detected_at),
  };
}

/** SQL for the segments of library videos (decision 111): viewers' marks, detections, analyses. */
export class SegmentsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every viewer's marks of this version of a file. */
  async marks(fileId: string, fileVersion: string): Promise<StoredMark[]> {
    const rows = await this.db
      .selectFrom('media_segment_marks')
      .select(['type', 'user_id', 'start_ms', 'end_ms', 'updated_at'])
      .where('file_id', '=', fileId)
      .where('file_version', '=', fileVersion)
      .execute();
    return rows.map((row) => ({
      type: row.type as SegmentType,
      userId: row.user_id,
      startMs: Number(row.start_ms),
      endMs: Number(row.end_ms),
      updatedAt: Number(row.updated_at),
    }));
  }

  /** The viewer's mark of this type (replacing theirs, of whichever version). */
  async putMark(
    fileId: string,
    fileVersion: string,
    mark: Pick<StoredMark, 'type' | 'userId' | 'startMs' | 'endMs' | 'updatedAt'>,
  ): Promise<void> {
    const values = {
      file_version: fileVersion,
      start_ms: mark.startMs,
      end_ms: mark.endMs,
      updated_at: mark.updatedAt,
    };
    await this.db
      .insertInto('media_segment_marks')
      .values({ file_id: fileId, type: mark.type, user_id: mark.userId, ...values })
      .onConflict((oc) => oc.columns(['file_id', 'type', 'user_id']).doUpdateSet(values))
      .execute();
  }

  /** Takes the viewer's mark of this type back; says whether there was one. */
  async deleteMark(fileId: string, type: SegmentType, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('media_segment_marks')
      .where('file_id', '=', fileId)
      .where('type', '=', type)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The detections of these files, by file id (any version: the caller compares). */
  async detections(fileIds: readonly string[]): Promise<Map<string, StoredDetection>> {
    const out = new Map<string, StoredDetection>();
    // Both databases cap the parameters of one statement.
    for (let i = 0; i < fileIds.length; i += 1000) {
      const rows = await this.db
        .selectFrom('media_segment_detections')
        .selectAll()
        .where('file_id', 'in', fileIds.slice(i, i + 1000))
        .execute();
      for (const row of rows) out.set(row.file_id, detectionOf(row));
    }
    return out;
  }

  async saveDetection(d: StoredDetection): Promise<void> {
    const values = {
      file_version: d.fileVersion,
      group_key: d.groupKey,
      state: d.state,
      intro_start_ms: d.intro?.startMs ?? null,
      intro_end_ms: d.intro?.endMs ?? null,
      credits_start_ms: d.credits?.startMs ?? null,
      credits_end_ms: d.credits?.endMs ?? null,
      detail: d.detail,
      detected_at: d.detectedAt,
    };
    await this.db
      .insertInto('media_segment_detections')
      .values({ file_id: d.fileId, ...values })
      .onConflict((oc) => oc.column('file_id').doUpdateSet(values))
      .execute();
  }

  /** What was read from this version of a file, if it was. */
  async analysis(fileId: string, kind: AnalysisKind, fileVersion: string): Promise<StoredAnalysis | null> {
    const row = await this.db
      .selectFrom('media_segment_analyses')
      .select(['file_version', 'offset_ms', 'data'])
      .where('file_id', '=', fileId)
      .where('kind', '=', kind)
      .where('file_version', '=', fileVersion)
      .executeTakeFirst();
    return row ? { fileVersion: row.file_version, offsetMs: Number(row.offset_ms), data: row.data } : null;
  }

  async saveAnalysis(
    fileId: string,
    kind: AnalysisKind,
    analysis: StoredAnalysis,
    now: number,
  ): Promise<void> {
    const values = {
      file_version: analysis.fileVersion,
      offset_ms: analysis.offsetMs,
      data: analysis.data,
      made_at: now,
    };
    await this.db
      .insertInto('media_segment_analyses')
      .values({ file_id: fileId, kind, ...values })
      .onConflict((oc) => oc.columns(['file_id', 'kind']).doUpdateSet(values))
      .execute();
  }
}
