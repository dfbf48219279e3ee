import { cleanListName, libraryKey, type BookmarkEntry, type LibraryMeta } from './library-rules.ts';
import type { LibraryData, OutboxOpInput } from './outbox.ts';

/*
 * The outbox ops of named lists, favourite episodes and the order of lists (p-stream's bookmark
 * groups, decision 097). A title on a list is on My List: each is a bookmark write carrying its lists.
 */

type BookmarkAdd = Extract<OutboxOpInput, { kind: 'bookmark-add' }>;

/** Names cleaned as the server takes them; invalid ones and repeats dropped (first kept). */
export const cleanNames = (names: readonly string[]) => [
  ...new Set(names.map(cleanListName).filter((n): n is string => n !== null)),
];

const bookmarkWrite = (meta: LibraryMeta, at: number): BookmarkAdd => ({
  kind: 'bookmark-add',
  type: meta.type,
  tmdbId: meta.tmdbId,
  meta: { title: meta.title, year: meta.year, poster: meta.poster },
  at,
});

/** The title bookmarked on exactly these lists. */
export const bookmarkListsOp = (meta: LibraryMeta, groups: readonly string[], at: number): OutboxOpInput => ({
  ...bookmarkWrite(meta, at),
  groups: cleanNames(groups),
});

/** The show's bookmark with the episode added to its favourites, or taken out of them. */
export function favoriteEpisodeOp(
  data: LibraryData,
  meta: LibraryMeta,
  episodeId: string,
  at: number,
): OutboxOpInput {
  const held = data.bookmarks[libraryKey(meta.type, meta.tmdbId)]?.favoriteEpisodes ?? [];
  const favoriteEpisodes = held.includes(episodeId)
    ? held.filter((id) => id !== episodeId)
    : [...held, episodeId];
  return { ...bookmarkWrite(meta, at), favoriteEpisodes };
}

/** The whole order of lists. */
export const groupOrderOp = (order: readonly string[], at: number): OutboxOpInput => ({
  kind: 'group-order',
  order: cleanNames(order),
  at,
});

/** A list changed everywhere: one bookmark write per bookmark holding it, then the order if it names it. */
function listEditOps(
  data: LibraryData & { groupOrder: readonly string[] },
  list: string,
  edit: (names: readonly string[]) => string[],
  at: number,
): OutboxOpInput[] {
  const ops: OutboxOpInput[] = [];
  for (const bookmark of Object.values(data.bookmarks))
    if (bookmark.groups?.includes(list))
      ops.push({ ...bookmarkWrite(metaOf(bookmark), at), groups: edit(bookmark.groups) });
  if (data.groupOrder.includes(list)) ops.push(groupOrderOp(edit(data.groupOrder), at));
  return ops;
}

const metaOf = (b: BookmarkEntry): LibraryMeta => ({
  tmdbId: b.tmdbId,
  type: b.type,
  title: b.title,
  year: b.year,
  poster: b.poster,
});

/** Renaming a list (none when the new name is not one the server takes, or is the same). */
export function renameListOps(
  data: LibraryData & { groupOrder: readonly string[] },
  from: string,
  to: string,
  at: number,
): OutboxOpInput[] {
  const name = cleanListName(to);
  if (name === null || name === from) return [];
  return listEditOps(data, from, (names) => cleanNames(names.map((n) => (n === from ? name : n))), at);
}

/** Deleting a list: off every bookmark holding it (the titles stay on My List) and out of the order. */
export const deleteListOps = (
  data: LibraryData & { groupOrder: readonly string[] },
  name: string,
  at: number,
): OutboxOpInput[] => listEditOps(data, name, (names) => names.filter((n) => n !== name), at);
