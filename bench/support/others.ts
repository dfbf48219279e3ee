/**
 * The other users of a shared-server benchmark (big-library.ts, history-import.ts): accounts with a
 * small library each, and their small requests — their bookmarks, their progress and a progress save —
 * at a steady rate, whose latency is what a big account must not spoil.
 */
import { registerAccount } from './accounts.ts';

/** The other users' requests per second, all together (a steady rate: latency, not throughput, is measured). */
export const RATE = Number(process.env.BENCH_RATE ?? 200);
export const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
export const OTHERS = 20;

export interface Account {
  id: string;
  headers: Record<string, string>;
}

export async function register(url: string, n: number): Promise<Account> {
  const { id, token } = await registerAccount(url, n);
  return { id, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } };
}

export async function put(url: string, a: Account, path: string, body: string): Promise<Response> {
  const res = await fetch(`${url}/users/${a.id}${path}`, { method: 'PUT', headers: a.headers, body });
  if (!res.ok) throw new Error(`PUT ${path}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  await res.arrayBuffer();
  return res;
}

/** `count` accounts (numbered from `first`), each with 50 bookmarks and 100 episodes of progress. */
export async function seedOthers(url: string, first = 1, count = OTHERS): Promise<Account[]> {
  const at = Date.now() - 60 * 60_000;
  const others: Account[] = [];
  for (let n = first; n < first + count; n++) {
    const a = await register(url, n);
    const bookmarks = Array.from({ length: 50 }, (_, i) => ({
      tmdbId: String(1000 + i),
      meta: {
        title: `Movie ${i}`,
        year: 2000 + (i % 25),
        poster: `/api/images/w342/p${i}.jpg`,
        type: 'movie',
      },
    }));
    await put(url, a, '/bookmarks', JSON.stringify(bookmarks));
    const progress = Array.from({ length: 100 }, (_, i) => ({
      tmdbId: '10000',
      meta: { title: 'Show 0', year: 2010, type: 'show' },
      duration: 2700,
      watched: 60 + i,
      seasonId: `s${Math.floor(i / 10)}`,
      episodeId: `e${i}`,
      seasonNumber: 1 + Math.floor(i / 10),
      episodeNumber: 1 + (i % 10),
      updatedAt: new Date(at + i).toISOString(),
    }));
    await put(url, a, '/progress/import', JSON.stringify(progress));
    others.push(a);
  }
  return others;
}

export interface Figures {
  p50: number;
  p99: number;
  max: number;
  rps: number;
  errors: number;
}

/**
 * The other users: their bookmarks, their progress and a progress save, in turn, one request every
 * 1/RATE s for DURATION_S, each sent at its time whatever the others are waiting for (an open loop,
 * like independent users; a closed loop, or a rate limiter that sends bursts, would measure its own
 * queue). Latency counts from when a request was due.
 */
export async function othersLoad(url: string, others: Account[], seconds = DURATION_S): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  const pending = new Set<Promise<void>>();
  const send = async (i: number, due: number) => {
    const a = others[i % others.length]!;
    const save = {
      meta: { title: 'Bench show', year: 2020, type: 'show' },
      duration: 2700,
      watched: i % 2700,
      seasonId: 's1',
      episodeId: `e${i % 5}`,
      seasonNumber: 1,
      episodeNumber: 1 + (i % 5),
    };
    const res =
      i % 3 === 0
        ? await fetch(`${url}/users/${a.id}/bookmarks`, { headers: a.headers })
        : i % 3 === 1
          ? await fetch(`${url}/users/${a.id}/progress`, { headers: a.headers })
          : await fetch(`${url}/users/${a.id}/progress/3000`, {
              method: 'PUT',
              headers: a.headers,
              body: JSON.stringify(save),
            });
    await res.arrayBuffer();
    latencies.push(performance.now() - due);
    if (!res.ok) errors++;
  };
  const start = performance.now();
  const count = Math.round(RATE * seconds);
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const request: Promise<void> = send(i, due)
      .catch(() => void errors++)
      .finally(() => pending.delete(request));
    pending.add(request);
  }
  await Promise.all(pending);
  const sorted = latencies.sort((x, y) => x - y);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { p50: at(0.5), p99: at(0.99), max: at(1), rps: latencies.length / seconds, errors };
}
