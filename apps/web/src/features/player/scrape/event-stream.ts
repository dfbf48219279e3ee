export interface StreamEvent {
  event: string;
  data: string;
}

/**
 * Splits a text/event-stream into events (WHATWG rules that matter here): `event:` and `data:` fields,
 * `:` comments ignored, an empty line ends an event, several data lines join with a newline. An event
 * without a name is `message`.
 */
export class EventStreamParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];

  push(chunk: string): StreamEvent[] {
    this.buffer += chunk;
    const out: StreamEvent[] = [];
    let index: number;
    while ((index = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, index);
      const breakLength = this.buffer.startsWith('\r\n', index) ? 2 : 1;
      this.buffer = this.buffer.slice(index + breakLength);
      const done = this.line(line);
      if (done) out.push(done);
    }
    return out;
  }

  /** What is left when the stream closes (an event not followed by an empty line is dropped, as browsers do). */
  end(): StreamEvent[] {
    return [];
  }

  private line(line: string): StreamEvent | null {
    if (line === '') {
      if (this.data.length === 0) {
        this.event = '';
        return null;
      }
      const event = { event: this.event || 'message', data: this.data.join('\n') };
      this.event = '';
      this.data = [];
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    return null;
  }
}

/** Reads a fetch Response body as events. */
export async function* readEventStream(response: Response): AsyncGenerator<StreamEvent> {
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parser = new EventStreamParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode());
    yield* parser.end();
  } finally {
    reader.releaseLock();
  }
}
