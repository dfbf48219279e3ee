export interface StreamEvent {
  event: string;
  data: unknown;
}

/** A server-sent events stream read over real HTTP, event by event (library and party streams). */
export class StreamReader {
  readonly events: StreamEvent[] = [];
  private buffer = '';
  private waiters: (() => void)[] = [];
  readonly done: Promise<void>;

  constructor(
    readonly response: Response,
    private readonly controller: AbortController,
  ) {
    this.done = this.read();
  }

  private async read(): Promise<void> {
    const reader = this.response.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = this.buffer.indexOf('\n\n')) >= 0) {
          const block = this.buffer.slice(0, end);
          this.buffer = this.buffer.slice(end + 2);
          const lines = block.split('\n').filter((l) => l && !l.startsWith(':'));
          if (lines.length === 0) continue;
          const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
          const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
          this.events.push({ event, data: data === undefined ? null : JSON.parse(data) });
        }
        for (const wake of this.waiters.splice(0)) wake();
      }
    } catch {
      // aborted
    } finally {
      for (const wake of this.waiters.splice(0)) wake();
    }
  }

  /** Resolves when `count` events of this name arrived (fails after `ms`). */
  async waitFor(name: string, count = 1, ms = 5_000): Promise<StreamEvent[]> {
    const deadline = Date.now() + ms;
    for (;;) {
      const seen = this.events.filter((e) => e.event === name);
      if (seen.length >= count) return seen;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no ${count}× "${name}" within ${ms} ms; got ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.controller.abort();
  }
}
