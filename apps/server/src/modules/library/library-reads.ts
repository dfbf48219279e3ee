import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { LibraryReadQuery } from '@marquee/contract';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { sendEmpty, sendJson, type PreSerialised, type SentReply } from '../../plugins/contract-route.ts';
import type { LibraryKind } from './library-versions.ts';
import { LIBRARY_BATCH_ROWS, yieldToOthers, type LibraryRef } from './library.ts';

/*
 * Reads of big libraries (decision 072): conditional (ETag = the library's change number), paged by
 * change number for our client, and the whole list for existing clients built in slices so that no
 * other request waits behind it.
 */

/** Where a page read resumes: after change number `after`; removals only when numbered above `floor`. */
export interface LibraryCursor {
  after: number;
  floor: number;
}

const badCursor = () =>
  new AppError(400, 'bad_request', 'The cursor is not valid: pass the `next` of the previous page');

export const encodeCursor = (cursor: LibraryCursor) =>
  Buffer.from(JSON.stringify({ a: cursor.after, f: cursor.floor })).toString('base64url');

export function decodeCursor(text: string): LibraryCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  const { a, f } = (parsed ?? {}) as { a?: unknown; f?: unknown };
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(f) || (a as number) < 0 || (f as number) < 0)
    throw badCursor();
  return { after: a as number, floor: f as number };
}

/** Page size when a client names none. */
export const DEFAULT_PAGE_ROWS = 1000;

/** What a page read starts from: a cursor, changes since a version, or (neither) the whole library. */
export function startOf(query: LibraryReadQuery): { cursor: LibraryCursor | null; since: number | null } {
  if (query.cursor !== undefined) return { cursor: decodeCursor(query.cursor), since: null };
  if (query.updatedSince !== undefined) return { cursor: null, since: Number(query.updatedSince) };
  return { cursor: null, since: null };
}

export const isPageRead = (query: LibraryReadQuery) =>
  query.limit !== undefined || query.cursor !== undefined || query.updatedSince !== undefined;

/**
 * The ETag of a library's reads: its kind and change number, and whose library it is (one URL serves
 * every household profile of an account). Weak, as compression changes the bytes.
 */
export function libraryEtag(lib: LibraryRef, kind: LibraryKind, version: number): string {
  const owner = createHash('sha256')
    .update(`${lib.userId}\u0000${lib.profileId}`)
    .digest('base64url')
    .slice(0, 12);
  return `W/"${kind}-${version}-${owner}"`;
}

/** Whether an If-None-Match header names this ETag (weak comparison, lists and `*` allowed). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}

/**
 * Serialises a JSON array slice by slice: `next()` gives the following rows (already in their wire
 * shape), an empty array ends it. The event loop is yielded between slices. `unchanged()`, asked
 * after every slice, can abandon the work (the answer is then null).
 */
export async function jsonArrayInSlices<T>(
  next: () => Promise<readonly T[]>,
  unchanged?: () => Promise<boolean>,
): Promise<PreSerialised<T[]> | null> {
  const parts: Buffer[] = [];
  for (;;) {
    const rows = await next();
    if (rows.length > 0) {
      const text = JSON.stringify(rows);
      // Each slice is `[…]`: its inner part, comma-separated from the previous one.
      parts.push(Buffer.from((parts.length ? ',' : '') + text.slice(1, -1), 'utf8'));
    }
    if (unchanged && !(await unchanged())) return null;
    if (rows.length === 0) break;
    await yieldToOthers();
  }
  return Buffer.concat([Buffer.from('['), ...parts, Buffer.from(']')]) as PreSerialised<T[]>;
}

/**
 * The whole list of a library as one state of it, built slice by slice (`slices(trx)` gives the
 * `next` of jsonArrayInSlices). First read outside any transaction, checking the library's version
 * after every slice: a write coming in abandons the attempt. Then, on PostgreSQL, one read in a
 * snapshot transaction (it locks nothing, only holds a pool connection). On SQLite, new attempts after
 * growing pauses (50 ms to 0.8 s, ~3 s in all: the batches of an import come and go), and after the
 * last one a transaction, which holds the database while it reads — so it is the last resort.
 */
export async function wholeListJson<T>(
  db: Kysely<Database>,
  dialect: Dialect,
  version: (trx: Kysely<Database>) => Promise<number>,
  slices: (trx: Kysely<Database>) => () => Promise<readonly T[]>,
): Promise<{ version: number; json: PreSerialised<T[]> }> {
  const attempts = dialect === 'postgres' ? 1 : 8;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0)
      await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** (attempt - 1), 800)));
    const start = await version(db);
    const json = await jsonArrayInSlices(slices(db), async () => (await version(db)) === start);
    if (json) return { version: start, json };
  }
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => ({ version: await version(trx), json: (await jsonArrayInSlices(slices(trx)))! }));
}

/** An in-memory array (an import's answer) serialised in slices. */
export async function jsonArrayOf<T>(items: readonly T[]): Promise<PreSerialised<T[]>> {
  let offset = 0;
  const json = await jsonArrayInSlices(async () => {
    const slice = items.slice(offset, offset + LIBRARY_BATCH_ROWS * 2);
    offset += slice.length;
    return slice;
  });
  return json!;
}

/** One page of a library read (the contract's `BookmarksPage` and `ProgressPage`). */
export interface LibraryPage<Item, Removal> {
  items: Item[];
  removed: Removal[];
  reset: boolean;
  next: string | null;
  version: string;
}

/** What the read route needs of a library (modules/library/library-store.ts gives it). */
export interface LibraryReads<Item, Removal> {
  kind: LibraryKind;
  version(lib: LibraryRef): Promise<number>;
  page(lib: LibraryRef, query: LibraryReadQuery): Promise<LibraryPage<Item, Removal>>;
  /** The whole list as the older servers sent it, and the change number it reflects. */
  listJson(lib: LibraryRef): Promise<{ version: number; json: PreSerialised<Item[]> }>;
}

/**
 * GET of a library: 304 when If-None-Match names its current ETag (checked before anything is read),
 * one page with `limit`/`cursor`/`updatedSince`, otherwise the whole list (sent by this function).
 */
export async function answerLibraryRead<Item, Removal>(
  request: FastifyRequest,
  reply: FastifyReply,
  reader: LibraryReads<Item, Removal>,
  lib: LibraryRef,
  query: LibraryReadQuery,
): Promise<LibraryPage<Item, Removal> | SentReply<Item[]>> {
  const answered = await answerPageRead(request, reply, reader, lib, query);
  if (answered) return answered;
  const { version, json } = await reader.listJson(lib);
  return sendJson(reply.header('etag', libraryEtag(lib, reader.kind, version)), json);
}

/**
 * The part of a library GET every kind shares: 304 when If-None-Match names the current ETag, or the
 * page `limit`/`cursor`/`updatedSince` ask for; null when the whole list is asked for (a kind whose
 * whole list has a shape of its own answers it then, with `libraryEtag` of the version it read).
 */
export async function answerPageRead<Item, Removal>(
  request: FastifyRequest,
  reply: FastifyReply,
  reader: Pick<LibraryReads<Item, Removal>, 'kind' | 'version' | 'page'>,
  lib: LibraryRef,
  query: LibraryReadQuery,
): Promise<LibraryPage<Item, Removal> | SentReply<never> | null> {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch && query.cursor === undefined) {
    const etag = libraryEtag(lib, reader.kind, await reader.version(lib));
    if (etagMatches(ifNoneMatch, etag)) return sendEmpty(reply.code(304).header('etag', etag));
  }
  if (!isPageRead(query)) return null;
  const page = await reader.page(lib, query);
  reply.header('etag', libraryEtag(lib, reader.kind, Number(page.version)));
  return page;
}
