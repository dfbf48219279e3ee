/// <reference lib="dom" />
/**
 * Watch parties (decision 110), three figures, against the production server:
 * 1. drift — two Debian Chromium pages join one party by its invite page as guests and follow it; the
 *    host (the API) plays, then seeks; each player's distance from the room's position on the server clock
 *    (`data-drift-ms` of its party panel) is sampled for 30 s of play and for 15 s after the seek: p50,
 *    p95, max (goal p95 < 150 ms);
 * 2. messages — a full room (100 members, each with its event stream open) where every guest sends its
 *    chat allowance at once: messages per second the room delivers to all 100, and send → receipt latency;
 * 3. memory — RSS of the server before and after 1,000 rooms of 2 members, per room; with Redis
 *    (`BENCH_REDIS_URL`, default the local one) the bytes of a room's key, of 2 and of 100 members.
 *   node --import tsx bench/party.ts
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { chromium, type Page } from 'playwright-core';
import { PARTY_MAX_MEMBERS, partyPositionAt } from '../packages/contract/src/party-routes.ts';
import type { PartyJoined } from '../packages/contract/src/parties.ts';
import { registerAccount } from './support/accounts.ts';
import { ensureBuilt, rssMiB, startServer, type RunningServer } from './support/server.ts';

const INCEPTION = { type: 'movie', title: 'Inception', releaseYear: 2010, tmdbId: '27205' } as const;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'];
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const json = { 'content-type': 'application/json' };
const from = (i: number) => ({ 'x-forwarded-for': `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}` });
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const pct = (values: number[], p: number) =>
  sorted(values)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? NaN;
const summary = (values: number[]) =>
  `p50 ${pct(values, 50).toFixed(0)} ms, p95 ${pct(values, 95).toFixed(0)} ms, max ${values.reduce((a, b) => Math.max(a, b), -Infinity).toFixed(0)} ms (n=${values.length})`;

async function createParty(
  url: string,
  token: string,
  body: Record<string, unknown> = {},
): Promise<PartyJoined> {
  const answer = await fetch(`${url}/parties`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${token}` },
    body: JSON.stringify({ title: INCEPTION, name: 'Host', ...body }),
  });
  if (!answer.ok) throw new Error(`POST /parties answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as PartyJoined;
}

async function joinParty(url: string, partyId: string, name: string, i: number): Promise<PartyJoined> {
  const answer = await fetch(`${url}/parties/${partyId}/members`, {
    method: 'POST',
    headers: { ...json, ...from(i) },
    body: JSON.stringify({ name }),
  });
  if (!answer.ok) throw new Error(`join answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as PartyJoined;
}

const command = (url: string, partyId: string, token: string, body: unknown) =>
  fetch(`${url}/parties/${partyId}/commands`, {
    method: 'POST',
    headers: { ...json, 'x-party-token': token },
    body: JSON.stringify(body),
  });

/** Each page's distance from the room while `seconds` pass. */
async function sampleDrift(pages: Page[], seconds: number): Promise<number[]> {
  const samples: number[] = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    for (const page of pages) {
      const value = await page.getByTestId('party-panel').getAttribute('data-drift-ms');
      if (value !== null) samples.push(Math.abs(Number(value)));
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return samples;
}

async function drift(server: RunningServer): Promise<void> {
  const host = await registerAccount(server.url, 0);
  const made = await createParty(server.url, host.token);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const pages: Page[] = [];
    for (const [i, name] of ['Ana', 'Ben'].entries()) {
      const context = await browser.newContext({
        viewport: i === 0 ? { width: 1280, height: 800 } : { width: 390, height: 844 },
        extraHTTPHeaders: from(10 + i),
      });
      const page = await context.newPage();
      await page.goto(`${server.url}/party/${made.party.id}`);
      await page.getByTestId('party-join-name').fill(name);
      await page.getByTestId('party-join').click();
      await page.getByTestId('party-panel').waitFor();
      await page.locator('[data-testid="player"][data-status="playing"]').waitFor({ timeout: 30_000 });
      pages.push(page);
    }
    await command(server.url, made.party.id, made.member.token, { type: 'play', position: 0 });
    for (const page of pages)
      await page.waitForFunction(() => !document.querySelector<HTMLVideoElement>('video')?.paused, null, {
        timeout: 20_000,
      });
    const playing = await sampleDrift(pages, 30);
    console.log(
      `drift, 30 s of play (the last 20 s): ${summary(playing.slice(Math.floor(playing.length / 3)))}`,
    );
    const view = (await (
      await fetch(`${server.url}/parties/${made.party.id}`, {
        headers: { 'x-party-token': made.member.token },
      })
    ).json()) as PartyJoined['party'];
    const to = partyPositionAt(view.playback, Date.now()) + 120;
    await command(server.url, made.party.id, made.member.token, { type: 'seek', position: to });
    const seek = await sampleDrift(pages, 15);
    console.log(
      `drift after a seek of 2 min (5–15 s after it): ${summary(seek.slice(Math.floor(seek.length / 3)))}`,
    );
    console.log(
      `drift right after the seek (0–5 s, while loading): ${summary(seek.slice(0, Math.floor(seek.length / 3)))}`,
    );
  } finally {
    await browser.close();
  }
}

/** Reads a party's stream, counting chat lines by id and when each arrived. */
async function listen(
  url: string,
  partyId: string,
  token: string,
  seen: Map<string, number[]>,
  signal: AbortSignal,
) {
  const response = await fetch(`${url}/parties/${partyId}/events`, {
    headers: { 'x-party-token': token, accept: 'text/event-stream' },
    signal,
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!block.includes('event: chat')) continue;
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          const id = (JSON.parse(data!.slice(6)) as { id: string }).id;
          const times = seen.get(id) ?? [];
          times.push(performance.now());
          seen.set(id, times);
        }
      }
    } catch {
      // closed
    }
  })();
}

async function messages(server: RunningServer): Promise<void> {
  const host = await registerAccount(server.url, 1);
  const made = await createParty(server.url, host.token);
  const members = [made.member];
  for (let i = 1; i < PARTY_MAX_MEMBERS; i++)
    members.push((await joinParty(server.url, made.party.id, `Guest ${i}`, 100 + i)).member);
  const seen = new Map<string, number[]>();
  const controller = new AbortController();
  for (const m of members) await listen(server.url, made.party.id, m.token, seen, controller.signal);
  const perMember = 25;
  const sentAt = new Map<string, number>();
  const started = performance.now();
  let next = 0;
  const total = (members.length - 1) * perMember;
  const worker = async () => {
    while (next < total) {
      const n = next++;
      const member = members[1 + (n % (members.length - 1))]!;
      const t = performance.now();
      const answer = await fetch(`${server.url}/parties/${made.party.id}/messages`, {
        method: 'POST',
        headers: { ...json, 'x-party-token': member.token },
        body: JSON.stringify({ text: `message ${n}` }),
      });
      if (answer.ok) sentAt.set(((await answer.json()) as { id: string }).id, t);
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  const deadline = performance.now() + 60_000;
  const allIn = () => [...sentAt.keys()].every((id) => (seen.get(id)?.length ?? 0) >= members.length);
  while (!allIn() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const last = [...seen.values()].flat().reduce((a, b) => Math.max(a, b), 0);
  const latencies = [...sentAt.entries()].flatMap(([id, t]) => (seen.get(id) ?? []).map((at) => at - t));
  const seconds = (last - started) / 1000;
  console.log(
    `messages: ${sentAt.size} chat lines from ${members.length - 1} members to ${members.length} streams in ${seconds.toFixed(2)} s: ` +
      `${(sentAt.size / seconds).toFixed(0)} messages/s, ${(latencies.length / seconds).toFixed(0)} events/s delivered; send → receipt ${summary(latencies)}`,
  );
  console.log(
    `  delivered to every member: ${allIn() ? 'all' : 'NOT all (within 60 s)'}; server RSS ${rssMiB(server.child.pid!).toFixed(0)} MiB`,
  );
  controller.abort();
}

async function memory(server: RunningServer): Promise<void> {
  // New parties are limited per account (20 in 10 minutes): 50 hosts make 20 each.
  const hosts = [];
  for (let i = 0; i < 50; i++) hosts.push(await registerAccount(server.url, 10 + i));
  const before = rssMiB(server.child.pid!);
  for (let i = 0; i < 1_000; i++) {
    const made = await createParty(server.url, hosts[i % 50]!.token);
    await joinParty(server.url, made.party.id, 'Guest', 2_000 + (i % 50_000));
  }
  const after = rssMiB(server.child.pid!);
  console.log(
    `memory (rooms in the process): RSS ${before.toFixed(0)} → ${after.toFixed(0)} MiB for 1,000 rooms of 2: ${(((after - before) * 1024) / 1000).toFixed(1)} KiB a room`,
  );
}

async function redisMemory(): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
  } catch {
    console.log(`memory in Redis: no Redis at ${redisUrl}`);
    return;
  }
  const prefix = `bench-party-${randomBytes(4).toString('hex')}:`;
  const server = await startServer({
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    WATCH_PARTY_GUESTS: 'true',
    TRUST_PROXY: 'true',
  });
  try {
    const host = await registerAccount(server.url, 3);
    const made = await createParty(server.url, host.token);
    await joinParty(server.url, made.party.id, 'Guest', 5_000);
    const two = await redis.memory('USAGE', `${prefix}party:${made.party.id}`);
    for (let i = 2; i < PARTY_MAX_MEMBERS; i++)
      await joinParty(server.url, made.party.id, `Guest ${i}`, 5_000 + i);
    const hundred = await redis.memory('USAGE', `${prefix}party:${made.party.id}`);
    console.log(
      `memory in Redis: a room of 2 members ${two} bytes, of ${PARTY_MAX_MEMBERS} members ${hundred} bytes`,
    );
  } finally {
    await server.stop();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
}

async function main(): Promise<void> {
  ensureBuilt();
  const server = await startServer({ WATCH_PARTY_GUESTS: 'true', TRUST_PROXY: 'true' });
  try {
    await drift(server);
    await messages(server);
    await memory(server);
  } finally {
    await server.stop();
  }
  await redisMemory();
}

await main();
