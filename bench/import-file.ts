/**
 * The browser's side of a 50,000-row import (issue 27, decision 099): a Trakt history of 50,000 plays
 * (40,000 episodes of 200 shows, 10,000 plays of 1,800 films) read by the web app's own reader, turned
 * into titles to match, planned, merged into an empty library and then into one that already holds it
 * (the same file again), and cut into the pages the account is sent. Prints each step's time and the
 * heap after. The server's side (the pages arriving while others use it) is bench/history-import.ts.
 * Run: node --import tsx bench/import-file.ts
 */
import { performance } from 'node:perf_hooks';
import { parse } from '../apps/web/src/features/transfer/formats/index.ts';
import {
  allRecords,
  defaultChoices,
  planImport,
  titleQueries,
  type TitleMatch,
} from '../apps/web/src/features/transfer/import/import-plan.ts';
import { mergeInBulk } from '../apps/web/src/stores/library/bulk-merge.ts';
import { noRemovals, type LibraryData } from '../apps/web/src/stores/library/outbox.ts';
import { importPayload } from '../apps/web/src/lib/sync/wire.ts';

const EPISODE_PLAYS = 40_000;
const FILM_PLAYS = 10_000;
const SHOWS = 200;
const FILMS = 1_800;
const START = Date.UTC(2014, 0, 1);

function traktHistory(): string {
  const entries: unknown[] = [];
  for (let i = 0; i < EPISODE_PLAYS; i++) {
    const show = i % SHOWS;
    const n = Math.floor(i / SHOWS);
    entries.push({
      id: i + 1,
      watched_at: new Date(START + i * 2 * 60 * 60_000).toISOString(),
      action: 'watch',
      type: 'episode',
      episode: {
        season: 1 + Math.floor(n / 20),
        number: 1 + (n % 20),
        title: `Episode ${n}`,
        ids: { trakt: 900_000 + i },
      },
      show: {
        title: `Show ${show}`,
        year: 2000 + (show % 20),
        ids: { trakt: 50_000 + show, tmdb: 70_000 + show },
      },
    });
  }
  for (let i = 0; i < FILM_PLAYS; i++) {
    const film = i % FILMS;
    entries.push({
      id: EPISODE_PLAYS + i + 1,
      watched_at: new Date(START + 7 * 60_000 + i * 8 * 60 * 60_000).toISOString(),
      action: 'watch',
      type: 'movie',
      movie: {
        title: `Film ${film}`,
        year: 1970 + (film % 50),
        ids: { trakt: 10_000 + film, tmdb: 1_000 + film },
      },
    });
  }
  return JSON.stringify(entries);
}

/** What the server would answer: every show found, each episode asked about given its own ids. */
function matchesFor(queries: ReturnType<typeof titleQueries>['queries']): Map<string, TitleMatch> {
  return new Map(
    queries.map((q) => [
      q.key,
      {
        status: 'matched',
        match: {
          id: q.tmdbId!,
          type: q.type ?? 'movie',
          title: q.title,
          year: q.year ?? null,
          releaseDate: null,
          poster: null,
        },
        candidates: [],
        episodes: q.episodes.map((e) => ({
          seasonId: `${q.tmdbId}-s${e.season}`,
          seasonNumber: e.season!,
          seasonTitle: '',
          id: `${q.tmdbId}-s${e.season}e${e.number}`,
          number: e.number!,
          title: '',
        })),
      },
    ]),
  );
}

async function main() {
  const time = async <T>(label: string, work: () => T | Promise<T>): Promise<T> => {
    const started = performance.now();
    const out = await work();
    console.log(`${label.padEnd(44)} ${(performance.now() - started).toFixed(0).padStart(6)} ms`);
    return out;
  };
  const file = new TextEncoder().encode(traktHistory());
  console.log(
    `Trakt history: ${EPISODE_PLAYS + FILM_PLAYS} plays, ${(file.length / 1024 / 1024).toFixed(1)} MB`,
  );
  const result = await time('read (parse)', () => parse({ name: 'watched-history.json', bytes: file }));
  const records = allRecords([result]);
  const { queries, known } = await time('titles to match', () => titleQueries(records));
  console.log(
    `  ${queries.length} titles to look up (${queries.reduce((n, q) => n + q.episodes.length, 0)} episodes), ${known.size} named completely`,
  );
  const matches = matchesFor(queries);
  const plan = await time('plan', () => planImport(records, matches, queries, defaultChoices(), known));
  const empty: LibraryData = { bookmarks: {}, progress: {}, history: {}, removals: noRemovals() };
  const first = await time('merge into an empty library', () => mergeInBulk(empty, plan.ops));
  const pages = await time('wire items of what changed', () => importPayload(first.changed));
  const again = await time('merge the same file again', () => mergeInBulk(first.data, plan.ops));
  console.log(
    `  plays added: ${Object.keys(first.changed.history).length}; sent: ${pages.history.length}; second time: ${Object.keys(again.changed.history).length}`,
  );
  console.log(`heap used after: ${(process.memoryUsage().heapUsed / 1024 / 1024).toFixed(0)} MB`);
}

await main();
