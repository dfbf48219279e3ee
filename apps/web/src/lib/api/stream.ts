import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { libraryEventNames, scrapeEventNames, sourceRoutes, syncRoutes } from '@marquee/contract/values';
// Types only (see client.ts): event data types come from the contract's event schemas.
import type {
  LibraryEventData,
  ScrapeAllEventData,
  ScrapeEmbedEventData,
  ScrapeSourceEventData,
  sourcesEndpoints,
  syncEndpoints,
} from '@marquee/contract';
import { networkError } from './errors.ts';
import { send, type CallInput, type RequestInput } from './client.ts';

/** The event-stream endpoints and the data of each of their events, by event name. */
interface StreamData {
  scrape: ScrapeAllEventData;
  scrapeSource: ScrapeSourceEventData;
  scrapeEmbed: ScrapeEmbedEventData;
  /** The library stream of a device (decision 079), on the account server. */
  events: LibraryEventData;
}
type StreamKey = keyof StreamData;
type Routes = typeof sourceRoutes & { events: typeof syncRoutes.events };
type StreamEndpoints = typeof sourcesEndpoints & { events: typeof syncEndpoints.events };
/** The stream endpoint a route value is (routes differ by their literal path). */
type KeyOf<R> = { [K in StreamKey]: Routes[K] extends R ? K : never }[StreamKey];
export type StreamRoute = Routes[StreamKey];

/** One event of a stream: its name and its data, typed together. */
export type StreamEvent<D> = { [K in keyof D]: { event: K; data: D[K] } }[keyof D];
export type StreamEventOf<R extends StreamRoute> = StreamEvent<StreamData[KeyOf<R>]>;

export interface StreamOptions {
  /** Sees the answer's status and headers before anything else (an X-Token header comes with errors too). */
  onResponse?: (answer: { status: number; headers: Headers }) => void;
  /** Called for every chunk that arrives, keep-alive comments included (a client's dead-stream watchdog). */
  onActivity?: () => void;
}

/** Return it from the handler to stop reading (a terminal event was handled). */
export const STOP = 'stop';

const scrapeNames: ReadonlySet<string> = new Set(scrapeEventNames);
const libraryNames: ReadonlySet<string> = new Set(libraryEventNames);

/**
 * Reads an event stream of the contract (the scrape endpoints, the library stream) with fetch, so headers can be sent and read
 * (EventSource cannot). A non-2xx answer throws the ApiError of its JSON body before any event; each event
 * of a known name with JSON data reaches `onEvent`, typed by the contract's event schemas. Resolves to
 * 'stopped' when the handler returned STOP, 'ended' when the stream closed first. No timeout by default.
 */
export async function stream<R extends StreamRoute>(
  route: R,
  input: CallInput<StreamEndpoints[KeyOf<R>]> & StreamOptions,
  onEvent: (event: StreamEventOf<R>) => void | typeof STOP,
): Promise<'stopped' | 'ended'> {
  const request = input as RequestInput & StreamOptions;
  const library = route.path === syncRoutes.events.path;
  const known = library ? libraryNames : scrapeNames;
  const response = await send(route, library ? 'account' : 'instance', request, {
    accept: 'text/event-stream',
    timeoutMs: 0,
    ...(request.onResponse ? { onResponse: request.onResponse } : {}),
  });
  return readEvents(
    response,
    (message) => {
      const name = message.event ?? 'message';
      if (!known.has(name)) return undefined;
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        return undefined; // not JSON: not an event of ours
      }
      return onEvent({ event: name, data } as StreamEventOf<R>);
    },
    request.signal,
    request.onActivity,
  );
}

/** Feeds a Response body through the parser; events cross chunk borders freely. */
export async function readEvents(
  response: Response,
  onMessage: (message: EventSourceMessage) => void | typeof STOP,
  signal?: AbortSignal,
  onActivity?: () => void,
): Promise<'stopped' | 'ended'> {
  if (!response.body) return 'ended';
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => queue.push(message) });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  // The caller's abort closes the connection itself (the fetch's own signal only covered the headers).
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal?.aborted) throw error;
        throw networkError();
      }
      if (signal?.aborted) throw signal.reason ?? new DOMException('Aborted', 'AbortError');
      if (!chunk.done) onActivity?.();
      parser.feed(chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true }));
      while (queue.length) {
        if (onMessage(queue.shift()!) === STOP) {
          if (!chunk.done) await reader.cancel().catch(() => undefined);
          return 'stopped';
        }
      }
      // A last event not followed by an empty line is dropped, as browsers do.
      if (chunk.done) return 'ended';
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}
