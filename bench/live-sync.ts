/**
 * Live sync (issue 13, decision 079), two figures:
 *
 * 1. Push latency across processes: two production servers (node apps/server/dist/main.js, built first if
 *    needed) on one PostgreSQL database and Redis. 40 device streams (8 accounts × 5 devices) are held
 *    by the second server; a sixth device of each account writes through the first (a bookmark or a
 *    progress write, in turn). Latency = from sending the write to each stream receiving `changed`.
 *    Prints p50/p95/p99/max over every (write, stream) pair, and the write's own p50.
 * 2. Progress writes per viewer-minute: the web app's library store and sync engine (the real modules)
 *    driven by the player's cadence — a save every 3 s while playing, a pause and a seek each minute —
 *    on a virtual clock for 10 minutes; counts the PUTs sent before (every save sent at once) and after
 *    (saves while playing held for 15 s).
 * 3. What one local save writes on the device (decision 080), for a library of 2,000 bookmarks and 2,000
 *    titles with progress and a pending outbox: the whole library as one localStorage value (before) and
 *    the IndexedDB entries it changed (after), in bytes of JSON.
 *
 * Run: node --import tsx bench/live-sync.ts   (PostgreSQL: BENCH_DATABASE_URL or 127.0.0.1:5432/test;
 * Redis: BENCH_REDIS_URL or 127.0.0.1:6379)
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deriveKeys, newMnemonic } from '../apps/server/test/passphrase-client.ts';
import { Cleanup, createPgDatabase, startMarquee } from '../deploy/test/support.ts';
import { memoryStorage, setAppStorage } from '../apps/web/src/lib/storage.ts';
import {
  PROGRESS_HOLD_MS,
  setOutboxRecording,
  useLibraryStore,
  type LibraryStoreData,
} from '../apps/web/src/stores/library/library-store.ts';
import { diffEntries, OutboxOrder } from '../apps/web/src/stores/library/library-entries.ts';
import { SyncEngine } from '../apps/web/src/lib/sync/sync-engine.ts';
import { ensureBuilt, ROOT } from './support/server.ts';

const pgAdminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ACCOUNTS = 8;
const LISTENERS_PER_ACCOUNT = 5;
const WRITES_PER_ACCOUNT = 25;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

interface Session {
  userId: string;
  token: string;
}

/** Each account signs in from an address of its own (sign-up limits are per address). */
async function post(url: string, body: unknown, address: string): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'bench', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Registers an account (or signs it in again with the same keys) the way the clients do. */
async function signIn(
  base: string,
  keys: ReturnType<typeof deriveKeys>,
  register: boolean,
  address: string,
): Promise<Session> {
  const start = (await post(
    `${base}/auth/${register ? 'register' : 'login'}/start`,
    register ? {} : { publicKey: keys.publicKey },
    address,
  )) as {
    challenge: string;
  };
  const body = {
    namespace: 'movie-web',
    publicKey: keys.publicKey,
    challenge: { code: start.challenge, signature: keys.sign(start.challenge) },
    device: keys.encryptDevice('Bench device'),
    ...(register ? { profile: { colorA: '#0A54FF', colorB: '#CF2E68', icon: 'couch' } } : {}),
  };
  const done = (await post(`${base}/auth/${register ? 'register' : 'login'}/complete`, body, address)) as {
    user: { id: string };
    token: string;
  };
  return { userId: done.user.id, token: done.token };
}

/** Opens a library stream; calls `onChanged` with the arrival time of each `changed` event. */
async function listen(
  base: string,
  s: Session,
  onChanged: (at: number) => void,
  signal: AbortSignal,
): Promise<void> {
  const res = await fetch(`${base}/users/${s.userId}/events`, {
    headers: { authorization: `Bearer ${s.token}`, accept: 'text/event-stream' },
    signal,
  });
  if (res.status !== 200) throw new Error(`stream: ${res.status}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        const at = performance.now();
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.includes('event: ready')) ready();
          if (block.includes('event: changed')) onChanged(at);
        }
      }
    } catch {
      // aborted at the end
    }
  })();
  await isReady;
}

async function pushLatency(): Promise<void> {
  ensureBuilt();
  const cleanup = new Cleanup();
  const work = mkdtempSync(path.join(tmpdir(), 'marquee-bench-live-'));
  cleanup.add('remove the temp folder', () => rmSync(work, { recursive: true, force: true }));
  const controller = new AbortController();
  cleanup.add('close the streams', () => controller.abort());
  try {
    const database = await createPgDatabase(pgAdminUrl, 'mq_bench_live');
    cleanup.add('drop the database', () => database.drop());
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `bench-live-${randomBytes(4).toString('hex')}:`,
      DATA_DIR: path.join(work, 'data'),
      CAPTCHA_PROVIDER: 'none',
      TMDB_API_KEY: '',
      JUSTWATCH_URL: 'http://127.0.0.1:9',
      TRUST_PROXY: 'true',
    };
    mkdirSync(env.DATA_DIR);
    const [writer, holder] = await Promise.all(
      ['writer', 'holder'].map((name) => startMarquee(name, { cwd: ROOT, env }).then((p) => cleanup.proc(p))),
    );

    const latencies: number[] = [];
    const writeTimes: number[] = [];
    for (let a = 0; a < ACCOUNTS; a++) {
      const keys = deriveKeys(newMnemonic());
      const address = `10.0.0.${a + 1}`;
      const author = await signIn(writer!.url, keys, true, address);
      let sentAt = 0;
      let heard = 0;
      for (let l = 0; l < LISTENERS_PER_ACCOUNT; l++) {
        const device = await signIn(holder!.url, keys, false, address);
        await listen(
          holder!.url,
          device,
          (at) => {
            latencies.push(at - sentAt);
            heard += 1;
          },
          controller.signal,
        );
      }
      for (let w = 0; w < WRITES_PER_ACCOUNT; w++) {
        const expected = heard + LISTENERS_PER_ACCOUNT;
        sentAt = performance.now();
        const progress = w % 2 === 1;
        const res = await fetch(
          progress
            ? `${writer!.url}/users/${author.userId}/progress/603`
            : `${writer!.url}/users/${author.userId}/bookmarks/${1000 + w}`,
          {
            method: progress ? 'PUT' : 'POST',
            headers: { authorization: `Bearer ${author.token}`, 'content-type': 'application/json' },
            body: JSON.stringify(
              progress
                ? {
                    meta: { title: 'The Matrix', year: 1999, type: 'movie' },
                    duration: 8160,
                    watched: 60 * w,
                  }
                : { meta: { title: `Title ${w}`, year: 2000, type: 'movie' } },
            ),
          },
        );
        writeTimes.push(performance.now() - sentAt);
        if (!res.ok) throw new Error(`write ${res.status}`);
        const deadline = performance.now() + 5_000;
        while (heard < expected && performance.now() < deadline) await new Promise((r) => setImmediate(r));
        if (heard < expected)
          throw new Error(
            `only ${heard - expected + LISTENERS_PER_ACCOUNT} of ${LISTENERS_PER_ACCOUNT} streams heard write ${w}`,
          );
      }
    }
    latencies.sort((x, y) => x - y);
    writeTimes.sort((x, y) => x - y);
    console.log(
      `push latency across processes (${ACCOUNTS * WRITES_PER_ACCOUNT} writes × ${LISTENERS_PER_ACCOUNT} streams = ${latencies.length} deliveries, PostgreSQL + Redis):`,
    );
    console.log(
      `  p50 ${ms(percentile(latencies, 50))}  p95 ${ms(percentile(latencies, 95))}  p99 ${ms(percentile(latencies, 99))}  max ${ms(latencies.at(-1)!)}  (the write itself: p50 ${ms(percentile(writeTimes, 50))})`,
    );
  } finally {
    await cleanup.run();
  }
}

/** Ten minutes of the player's cadence through the real library store and sync engine; PUTs sent. */
async function progressWrites(hold: boolean): Promise<number> {
  setAppStorage(memoryStorage());
  setOutboxRecording(() => true);
  useLibraryStore.getState().clear();
  let now = Date.UTC(2026, 10, 23, 20);
  const realNow = Date.now;
  Date.now = () => now;
  const timers: { fn: () => void; at: number }[] = [];
  let sent = 0;
  const engine = new SyncEngine({
    outbox: () => useLibraryStore.getState().outbox,
    remove: (id) => useLibraryStore.getState().removeOp(id),
    canSend: () => true,
    send: async () => void (sent += 1),
    onAuthError: () => undefined,
    now: () => now,
    timers: {
      set: (fn, delay) => timers.push({ fn, at: now + delay }),
      clear: (handle) => {
        const i = (handle as number) - 1;
        if (timers[i]) timers[i]!.at = Infinity;
      },
    },
  });
  const meta = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };
  const save = async (watched: number, urgent: boolean) => {
    useLibraryStore.getState().saveProgress({ meta, watched, duration: 8160 }, { hold: hold && !urgent });
    if (urgent) useLibraryStore.getState().sendHeldNow();
    await engine.flush(); // the app flushes right after every change
  };
  try {
    let position = 0;
    for (let second = 3; second <= 600; second += 3) {
      now += 3_000;
      position += 3;
      for (const timer of timers.filter((t) => t.at <= now)) {
        timer.at = Infinity;
        timer.fn();
        await engine.flush();
      }
      const inMinute = second % 60;
      if (inMinute === 30)
        await save(position, true); // a pause
      else if (inMinute === 45) {
        position += 120; // a seek
        await save(position, true);
      } else await save(position, false);
    }
    await save(position, true); // leaving
    return sent;
  } finally {
    Date.now = realNow;
  }
}

/** Bytes one save while playing writes: the whole library (one value) vs the entries it changed. */
function localSaveBytes(): { whole: number; entries: number; count: number } {
  setOutboxRecording(() => true);
  useLibraryStore.getState().clear();
  const at = Date.UTC(2026, 10, 23, 20);
  const bookmarks: LibraryStoreData['bookmarks'] = {};
  const progress: LibraryStoreData['progress'] = {};
  for (let i = 0; i < 2_000; i++) {
    const meta = {
      tmdbId: String(10_000 + i),
      type: 'movie' as const,
      title: `Title ${i}`,
      year: 2000,
      poster: null,
    };
    bookmarks[`movie:${meta.tmdbId}`] = { ...meta, updatedAt: at };
    progress[`movie:${meta.tmdbId}`] = {
      ...meta,
      updatedAt: at,
      progress: { watched: 60, duration: 6000 },
      seasons: {},
      episodes: {},
    };
  }
  useLibraryStore.setState({ bookmarks, progress });
  const meta = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };
  for (let i = 0; i < 20; i++) useLibraryStore.getState().addBookmark({ ...meta, tmdbId: String(i) });
  useLibraryStore.getState().saveProgress({ meta, watched: 30, duration: 8160 }, { hold: true });
  const prev = useLibraryStore.getState();
  prev.saveProgress({ meta, watched: 33, duration: 8160 }, { hold: true });
  const next = useLibraryStore.getState();
  const changes = diffEntries(prev, next, new OutboxOrder());
  const pick = ({ bookmarks, progress, removals, outbox, profile, stash }: LibraryStoreData) => ({
    bookmarks,
    progress,
    removals,
    outbox,
    profile,
    stash,
  });
  return {
    whole: JSON.stringify({ state: pick(next), version: 1 }).length,
    entries: JSON.stringify(changes).length,
    count: changes.puts.length + changes.dels.length,
  };
}

await pushLatency();
const before = await progressWrites(false);
const after = await progressWrites(true);
console.log(
  `progress writes per viewer-minute (a save every 3 s, a pause and a seek each minute, 10 min): before ${(before / 10).toFixed(1)}, after ${(after / 10).toFixed(1)} (held up to ${PROGRESS_HOLD_MS / 1000} s)`,
);
const bytes = localSaveBytes();
console.log(
  `one local save while playing (2,000 bookmarks, 2,000 titles with progress): before ${(bytes.whole / 1024).toFixed(0)} KB (the whole library), after ${bytes.entries} bytes (${bytes.count} IndexedDB operations)`,
);
