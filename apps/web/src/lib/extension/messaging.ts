/**
 * Client of the app family's browser extension (the app family's protocols): messages `hello`, `makeRequest`,
 * `prepareStream`, `openPage` relayed over window.postMessage by the extension's content script. Every
 * message waits until the page is 500 ms old (the extension's relay needs that long); `hello` gives up
 * after 500 ms (no extension).
 */

export interface MessagingChannel {
  /** Sends one message and resolves with the extension's reply body. */
  send(name: string, body: unknown): Promise<unknown>;
}

export type ExtensionReply<T = object> = ({ success: true } & T) | { success: false; error: string };

export interface HelloReply {
  version: string;
  allowed: boolean;
  hasPermission: boolean;
}

export interface MakeRequestBody {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: unknown;
  bodyType?: 'string' | 'FormData' | 'URLSearchParams' | 'object';
  readHeaders?: string[];
}

export interface MakeRequestReply {
  response: { statusCode: number; headers: Record<string, string>; finalUrl: string; body: unknown };
}

export interface PrepareStreamBody {
  ruleId: number;
  targetDomains?: string[];
  requestHeaders?: Record<string, string>;
  responseHeaders?: Record<string, string>;
}

/** Rule ids of prepareStream (the app family's). */
export const RULE_IDS = { PREPARE_STREAM: 1, SET_DOMAINS_HLS: 2, SET_DOMAINS_HLS_AUDIO: 3 } as const;

export type ExtensionState = 'unknown' | 'failed' | 'disallowed' | 'noperms' | 'outdated' | 'success';

/** Accepted versions: semver `^1.0.2` (1.x from 1.0.2 on). */
export function isSupportedVersion(version: string): boolean {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(version.trim());
  if (!m) return false;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (major !== 1) return false;
  return minor > 0 || patch >= 2;
}

/** The extension's state from its hello reply (null = no reply: not installed or not enabled here). */
export function extensionStateOf(reply: ExtensionReply<HelloReply> | null): ExtensionState {
  if (!reply) return 'unknown';
  if (!reply.success) return 'failed';
  if (!isSupportedVersion(reply.version)) return 'outdated';
  if (!reply.allowed) return 'disallowed';
  if (!reply.hasPermission) return 'noperms';
  return 'success';
}

export interface ExtensionClientOptions {
  readyDelayMs?: number;
  helloTimeoutMs?: number;
  /** Milliseconds since the page loaded. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class ExtensionClient {
  private active = false;
  private readonly readyDelayMs: number;
  private readonly helloTimeoutMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly channel: MessagingChannel,
    o: ExtensionClientOptions = {},
  ) {
    this.readyDelayMs = o.readyDelayMs ?? 500;
    this.helloTimeoutMs = o.helloTimeoutMs ?? 500;
    this.now = o.now ?? (() => performance.now());
    this.sleep = o.sleep ?? defaultSleep;
  }

  /** Whether the last hello found a usable extension (right version, allowed, with permission). */
  isActive(): boolean {
    return this.active;
  }

  private async send<T>(name: string, body: unknown, timeoutMs?: number): Promise<ExtensionReply<T> | null> {
    const wait = this.readyDelayMs - this.now();
    if (wait > 0) await this.sleep(wait);
    try {
      const reply = (await (timeoutMs === undefined
        ? this.channel.send(name, body)
        : Promise.race([
            this.channel.send(name, body),
            this.sleep(timeoutMs).then(() => null),
          ]))) as ExtensionReply<T> | null;
      if (!reply || typeof reply !== 'object') {
        this.active = false;
        return null;
      }
      return reply;
    } catch {
      this.active = false;
      return null;
    }
  }

  async hello(): Promise<ExtensionReply<HelloReply> | null> {
    const reply = await this.send<HelloReply>('hello', {}, this.helloTimeoutMs);
    this.active = extensionStateOf(reply) === 'success';
    return reply;
  }

  async state(): Promise<ExtensionState> {
    return extensionStateOf(await this.hello());
  }

  makeRequest(body: MakeRequestBody) {
    return this.send<MakeRequestReply>('makeRequest', body);
  }

  prepareStream(body: PrepareStreamBody) {
    return this.send<object>('prepareStream', body);
  }

  /** Opens one of the extension's pages (PermissionGrant) and comes back to `redirectUrl`. */
  openPage(page: string, redirectUrl: string) {
    return this.send<object>('openPage', { page, redirectUrl });
  }
}

/** The relay of @plasmohq/messaging: post `{name, body, instanceId}`, take the first relayed reply with that id. */
export function windowRelayChannel(win: Window = window): MessagingChannel {
  return {
    send(name, body) {
      const instanceId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
      return new Promise((resolve) => {
        const onMessage = (event: MessageEvent) => {
          if (event.source !== win) return;
          const data = event.data as { relayed?: boolean; instanceId?: string; body?: unknown } | null;
          if (!data || data.relayed !== true || data.instanceId !== instanceId) return;
          win.removeEventListener('message', onMessage);
          resolve(data.body);
        };
        win.addEventListener('message', onMessage);
        win.postMessage({ name, body, instanceId }, '/');
      });
    },
  };
}

let client: ExtensionClient | undefined;
/** The page's extension client. */
export function extensionClient(): ExtensionClient {
  client ??= new ExtensionClient(windowRelayChannel());
  return client;
}
