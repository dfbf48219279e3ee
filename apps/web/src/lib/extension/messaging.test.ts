import { describe, expect, it, vi } from 'vitest';
import {
  ExtensionClient,
  extensionStateOf,
  isSupportedVersion,
  windowRelayChannel,
  type MessagingChannel,
} from './messaging.ts';

/** A fake relay: answers each message by name, or never. */
function fakeChannel(
  replies: Record<string, unknown | ((body: unknown) => unknown)>,
): MessagingChannel & { sent: { name: string; body: unknown }[] } {
  const sent: { name: string; body: unknown }[] = [];
  return {
    sent,
    send(name, body) {
      sent.push({ name, body });
      if (!(name in replies)) return new Promise(() => undefined);
      const r = replies[name];
      return Promise.resolve(typeof r === 'function' ? (r as (b: unknown) => unknown)(body) : r);
    },
  };
}

const fakeTime = () => {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: (ms: number) => {
      sleeps.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
};

describe('extension client', () => {
  it('accepts versions ^1.0.2', () => {
    expect(isSupportedVersion('1.0.2')).toBe(true);
    expect(isSupportedVersion('1.1.3')).toBe(true);
    expect(isSupportedVersion('1.0.1')).toBe(false);
    expect(isSupportedVersion('2.0.0')).toBe(false);
    expect(isSupportedVersion('0.9.9')).toBe(false);
    expect(isSupportedVersion('nope')).toBe(false);
  });

  it('maps hello replies to the six states', () => {
    expect(extensionStateOf(null)).toBe('unknown');
    expect(extensionStateOf({ success: false, error: 'boom' })).toBe('failed');
    expect(extensionStateOf({ success: true, version: '1.0.0', allowed: true, hasPermission: true })).toBe(
      'outdated',
    );
    expect(extensionStateOf({ success: true, version: '1.1.0', allowed: false, hasPermission: true })).toBe(
      'disallowed',
    );
    expect(extensionStateOf({ success: true, version: '1.1.0', allowed: true, hasPermission: false })).toBe(
      'noperms',
    );
    expect(extensionStateOf({ success: true, version: '1.1.0', allowed: true, hasPermission: true })).toBe(
      'success',
    );
  });

  it('waits until the page is 500 ms old, then says hello with a 500 ms timeout', async () => {
    const time = fakeTime();
    const channel = fakeChannel({});
    const client = new ExtensionClient(channel, { now: time.now, sleep: time.sleep });
    expect(await client.state()).toBe('unknown');
    expect(time.sleeps).toEqual([500, 500]);
    expect(channel.sent).toEqual([{ name: 'hello', body: {} }]);
    expect(client.isActive()).toBe(false);
  });

  it('no initial wait once the page is older than 500 ms; active after a good hello', async () => {
    let now = 2_000;
    const channel = fakeChannel({
      hello: { success: true, version: '1.1.3', allowed: true, hasPermission: true },
    });
    const sleep = vi.fn((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const client = new ExtensionClient(channel, { now: () => now, sleep });
    expect(await client.state()).toBe('success');
    expect(client.isActive()).toBe(true);
    now += 1;
    expect(sleep).toHaveBeenCalledTimes(1); // only the hello timeout race
  });

  it('relays makeRequest, prepareStream and openPage with their bodies', async () => {
    const time = fakeTime();
    const channel = fakeChannel({
      makeRequest: {
        success: true,
        response: { statusCode: 200, headers: {}, finalUrl: 'https://a.test/x', body: 'hi' },
      },
      prepareStream: { success: true },
      openPage: { success: true },
    });
    const client = new ExtensionClient(channel, { now: () => 1_000, sleep: time.sleep });
    const reply = await client.makeRequest({ url: 'https://a.test/x', method: 'GET' });
    expect(reply).toMatchObject({ success: true, response: { body: 'hi' } });
    await client.prepareStream({
      ruleId: 1,
      targetDomains: ['a.test'],
      requestHeaders: { referer: 'https://a.test' },
    });
    await client.openPage('PermissionGrant', 'https://marquee.test/media/x');
    expect(channel.sent.map((m) => m.name)).toEqual(['makeRequest', 'prepareStream', 'openPage']);
    expect(channel.sent[2]!.body).toEqual({
      page: 'PermissionGrant',
      redirectUrl: 'https://marquee.test/media/x',
    });
  });

  it('a throwing channel means no extension', async () => {
    const client = new ExtensionClient(
      { send: () => Promise.reject(new Error('gone')) },
      { now: () => 1_000 },
    );
    expect(await client.state()).toBe('unknown');
  });

  it('the window relay answers on the relayed reply with the same instance id', async () => {
    // A window stand-in: postMessage delivers to its listeners with itself as the source.
    const listeners = new Set<(e: MessageEvent) => void>();
    const fakeWindow = {
      addEventListener: (_: string, fn: (e: MessageEvent) => void) => listeners.add(fn),
      removeEventListener: (_: string, fn: (e: MessageEvent) => void) => listeners.delete(fn),
      postMessage: (data: unknown, origin: string) => {
        expect(origin).toBe('/');
        queueMicrotask(() =>
          [...listeners].forEach((fn) => fn({ data, source: fakeWindow } as unknown as MessageEvent)),
        );
      },
    } as unknown as Window;
    const relay = (event: MessageEvent) => {
      const data = event.data as { name: string; instanceId: string; relayed?: boolean };
      if (data.relayed) return;
      fakeWindow.postMessage(
        { name: data.name, instanceId: 'someone-else', relayed: true, body: 'wrong' },
        '/',
      );
      fakeWindow.postMessage(
        {
          name: data.name,
          instanceId: data.instanceId,
          relayed: true,
          body: { success: true, echoed: data.name },
        },
        '/',
      );
    };
    fakeWindow.addEventListener('message', relay);
    try {
      const reply = await windowRelayChannel(fakeWindow).send('hello', {});
      expect(reply).toEqual({ success: true, echoed: 'hello' });
    } finally {
      fakeWindow.removeEventListener('message', relay);
    }
  });
});
