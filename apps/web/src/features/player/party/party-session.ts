import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { PartyCommand, PartyReaction, PartyView } from '@marquee/contract';
import { ApiError } from '../../../lib/api/errors.ts';
import { partyApi, readPartyEvents, type PartyEvent } from '../../../lib/api/party-api.ts';
import { clockOffset } from './drift.ts';

/*
 * One watch party on this device (decision 110): its member token, the room as last heard, the chat, and
 * the connection to the server (a stream that reconnects by itself). It outlives the player view, which
 * is mounted again for every episode.
 */

export interface ChatLine {
  id: string;
  memberId: string;
  name: string;
  text: string;
  at: number;
}
export interface ReactionBurst {
  id: string;
  name: string;
  reaction: PartyReaction;
}

export type PartyStatus = 'connecting' | 'live' | 'reconnecting' | 'ended' | 'left';

export interface PartyState {
  partyId: string | null;
  memberId: string | null;
  view: PartyView | null;
  status: PartyStatus;
  /** Why the last command or message was refused (an API error code), shown in the panel. */
  errorCode: string | null;
  chat: ChatLine[];
  reactions: ReactionBurst[];
  /** Server clock − this device's clock (ms). */
  offsetMs: number;
  /** This player's distance from the room in ms (positive: ahead), as last measured. */
  driftMs: number | null;
}

const initial: PartyState = {
  partyId: null,
  memberId: null,
  view: null,
  status: 'connecting',
  errorCode: null,
  chat: [],
  reactions: [],
  offsetMs: 0,
  driftMs: null,
};

export const partyStore = createStore<PartyState>(() => ({ ...initial }));
export const useParty = <T>(selector: (s: PartyState) => T): T => useStore(partyStore, selector);

/** The server's time now, on this device's clock corrected by the party's offset. */
export const serverNow = () => Date.now() + partyStore.getState().offsetMs;

const CHAT_KEPT = 200;
const REACTIONS_SHOWN = 12;
const MEMBER_KEY = (partyId: string) => `marquee:party:${partyId}`;

/** A member's token for a party, kept for this tab (a reload joins again as the same member). */
export interface PartyMembership {
  memberId: string;
  token: string;
}

export function savedMembership(partyId: string): PartyMembership | null {
  try {
    const raw = sessionStorage.getItem(MEMBER_KEY(partyId));
    const parsed = raw ? (JSON.parse(raw) as Partial<PartyMembership>) : null;
    return parsed?.memberId && parsed.token ? { memberId: parsed.memberId, token: parsed.token } : null;
  } catch {
    return null;
  }
}

export function saveMembership(partyId: string, membership: PartyMembership): void {
  try {
    sessionStorage.setItem(MEMBER_KEY(partyId), JSON.stringify(membership));
  } catch {
    // Private mode without storage: the party works until the tab reloads.
  }
}

function forgetMembership(partyId: string): void {
  try {
    sessionStorage.removeItem(MEMBER_KEY(partyId));
  } catch {
    // nothing kept
  }
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Keeps the newer of two views of the room (a command's answer may cross the stream's event). */
function newer(current: PartyView | null, next: PartyView): PartyView {
  return current && current.version > next.version ? current : next;
}

/** The party this device is in: connects, reconnects, sends commands and messages. */
export class PartySession {
  private readonly controller = new AbortController();

  constructor(
    readonly partyId: string,
    private readonly membership: PartyMembership,
  ) {}

  get memberId(): string {
    return this.membership.memberId;
  }

  start(initialView?: PartyView): void {
    partyStore.setState({
      ...initial,
      partyId: this.partyId,
      memberId: this.membership.memberId,
      view: initialView ?? null,
    });
    void this.run();
  }

  stop(): void {
    this.controller.abort();
  }

  private get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The server clock's offset: five round trips, the shortest wins. */
  private async measureClock(): Promise<void> {
    const samples = [];
    for (let i = 0; i < 5 && !this.signal.aborted; i++) {
      const sentAt = Date.now();
      const { now } = await partyApi.clock({ signal: this.signal });
      samples.push({ sentAt, serverNow: now, receivedAt: Date.now() });
    }
    partyStore.setState({ offsetMs: clockOffset(samples) });
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.signal.aborted) {
      try {
        if (failures === 0 || failures % 5 === 0) await this.measureClock();
        await readPartyEvents(this.partyId, this.membership.token, this.signal, (event) => {
          failures = 0;
          return this.hear(event);
        });
        if (this.signal.aborted || this.finished()) return;
        // The server closed the stream (its age, or the process is going away): at once to another.
        partyStore.setState({ status: 'reconnecting' });
      } catch (error) {
        if (this.signal.aborted) return;
        if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
          this.end(error.status === 404 ? 'ended' : 'left');
          return;
        }
        failures++;
        partyStore.setState({ status: 'reconnecting' });
        await wait(Math.min(10_000, 500 * 2 ** Math.min(failures, 5)), this.signal);
      }
    }
  }

  private finished(): boolean {
    const { status } = partyStore.getState();
    return status === 'ended' || status === 'left';
  }

  private end(status: 'ended' | 'left'): void {
    forgetMembership(this.partyId);
    partyStore.setState({ status });
  }

  private hear(event: PartyEvent): void | 'stop' {
    switch (event.event) {
      case 'state':
        partyStore.setState((s) => ({ view: newer(s.view, event.data), status: 'live' }));
        return;
      case 'chat':
        partyStore.setState((s) => ({ chat: [...s.chat, event.data].slice(-CHAT_KEPT) }));
        return;
      case 'reaction':
        partyStore.setState((s) => ({ reactions: [...s.reactions, event.data].slice(-REACTIONS_SHOWN) }));
        return;
      case 'closed':
        this.end(event.data.reason);
        return 'stop';
    }
  }

  private headers() {
    return { 'x-party-token': this.membership.token };
  }

  /** Sends a command; the room it answers is shown at once (the stream brings it to the others). */
  async command(command: PartyCommand): Promise<void> {
    try {
      const view = await partyApi.command({
        params: { partyId: this.partyId },
        body: command,
        // The account's token too: a new title is checked against what this viewer may play.
        headers: this.headers(),
      });
      partyStore.setState((s) => ({ view: newer(s.view, view), errorCode: null }));
    } catch (error) {
      partyStore.setState({ errorCode: error instanceof ApiError ? error.code : 'unknown' });
    }
  }

  async say(body: { text: string } | { reaction: PartyReaction }): Promise<boolean> {
    try {
      await partyApi.message({
        params: { partyId: this.partyId },
        body,
        headers: this.headers(),
        token: null,
      });
      partyStore.setState({ errorCode: null });
      return true;
    } catch (error) {
      partyStore.setState({ errorCode: error instanceof ApiError ? error.code : 'unknown' });
      return false;
    }
  }

  async leave(): Promise<void> {
    this.stop();
    await partyApi
      .leave({ params: { partyId: this.partyId }, headers: this.headers(), token: null, keepalive: true })
      .catch(() => undefined);
    this.end('left');
  }
}

let current: PartySession | null = null;

/** The party session of this tab for `partyId`, started with its saved membership (null: none saved). */
export function sessionFor(partyId: string): PartySession | null {
  if (current?.partyId === partyId) return current;
  const membership = savedMembership(partyId);
  if (!membership) return null;
  current?.stop();
  current = new PartySession(partyId, membership);
  current.start();
  return current;
}

/** Starts the session of a party just created or joined here. */
export function beginSession(partyId: string, membership: PartyMembership, view: PartyView): PartySession {
  saveMembership(partyId, membership);
  current?.stop();
  current = new PartySession(partyId, membership);
  current.start(view);
  return current;
}

/** Leaves the party this tab is in. */
export async function leaveParty(): Promise<void> {
  const session = current;
  current = null;
  await session?.leave();
}
