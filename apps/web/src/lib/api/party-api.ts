import { partyEventNames, partyRoutes, PARTY_TOKEN_HEADER } from '@marquee/contract/values';
import type { partyEndpoints, PartyView } from '@marquee/contract';
import type { z } from 'zod';
import { group, send } from './client.ts';
import { readEvents, STOP } from './stream.ts';

/** Watch parties (decision 110): the player's party code is the only caller. */
export const partyApi = group<typeof partyEndpoints>(partyRoutes, 'instance');

type PartyEvents = typeof partyEndpoints.events.events;
/** One event of a party's stream, typed by the contract's event schemas. */
export type PartyEvent = {
  [K in keyof PartyEvents]: { event: K; data: z.output<PartyEvents[K]> };
}[keyof PartyEvents];

const names: ReadonlySet<string> = new Set(partyEventNames);

/**
 * Reads a party's event stream as its member (`token`): `state` on connecting and after every change,
 * chat, reactions, and `closed`. A refusal throws its ApiError before any event. Resolves when the stream
 * ends ('ended') or the handler returned STOP.
 */
export async function readPartyEvents(
  partyId: string,
  token: string,
  signal: AbortSignal,
  onEvent: (event: PartyEvent) => void | typeof STOP,
  onActivity?: () => void,
): Promise<'stopped' | 'ended'> {
  const response = await send(
    partyRoutes.events,
    'instance',
    { params: { partyId }, headers: { [PARTY_TOKEN_HEADER]: token }, signal, token: null },
    { accept: 'text/event-stream', timeoutMs: 0 },
  );
  return readEvents(
    response,
    (message) => {
      const name = message.event ?? 'message';
      if (!names.has(name)) return undefined;
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        return undefined;
      }
      return onEvent({ event: name, data } as PartyEvent);
    },
    signal,
    onActivity,
  );
}

export type { PartyView };
export { STOP };
