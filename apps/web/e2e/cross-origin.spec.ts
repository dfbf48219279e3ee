import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';

/*
 * An existing client of the app family (sudo-flix / movie-web), run on its own origin against the ALTCHA
 * instance of playwright.config.ts: it only speaks the account protocol (the app family's sync API), cannot
 * solve ALTCHA, and calls the API with fetch + `Authorization: Bearer` from another origin, so every
 * call needs CORS (preflights included). Decision 015.
 */

const api = `http://127.0.0.1:${process.env.E2E_ALTCHA_PORT ?? 4181}`;

interface ClientConfig {
  api: string;
  mnemonic: string;
  /** the app family's sync API test vector: this mnemonic, and a code whose signature is known. */
  vector: { mnemonic: string; code: string };
}

interface Step {
  step: string;
  status?: number;
  body?: any;
  error?: string;
}

/**
 * The page's script (serialised into the HTML, so it uses nothing from this module): key derivation
 * with WebCrypto exactly as the family's clients do it — PBKDF2-HMAC-SHA256(mnemonic, "mnemonic",
 * 2048) → 32-byte seed = the Ed25519 private key (RFC 8032, PKCS#8-wrapped to import it) and the AES-GCM
 * key of the device name — then the protocol calls, each recorded as a step.
 */
async function protocolClient(cfg: ClientConfig): Promise<Step[]> {
  const steps: Step[] = [];
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
  const base64url = (bytes: Uint8Array) =>
    base64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

  async function keysOf(mnemonic: string) {
    const password = await crypto.subtle.importKey('raw', utf8(mnemonic), 'PBKDF2', false, ['deriveBits']);
    const seed = new Uint8Array(
      await crypto.subtle.deriveBits(
        { name: 'PBKDF2', hash: 'SHA-256', salt: utf8('mnemonic'), iterations: 2048 },
        password,
        256,
      ),
    );
    // PKCS#8 PrivateKeyInfo for Ed25519 (RFC 8410): a fixed 16-byte DER prefix, then the 32-byte seed.
    const pkcs8 = new Uint8Array(48);
    pkcs8.set([
      0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
    ]);
    pkcs8.set(seed, 16);
    const signingKey = await crypto.subtle.importKey('pkcs8', pkcs8, { name: 'Ed25519' }, true, ['sign']);
    const jwk = await crypto.subtle.exportKey('jwk', signingKey);
    const aes = await crypto.subtle.importKey('raw', seed, 'AES-GCM', false, ['encrypt', 'decrypt']);
    return {
      /** base64url without padding: the JWK's `x` is exactly that. */
      publicKey: jwk.x!,
      sign: async (code: string) =>
        base64url(new Uint8Array(await crypto.subtle.sign('Ed25519', signingKey, utf8(code)))),
      /** base64(iv).base64(ciphertext).base64(tag), 16-byte IV, 128-bit tag (the app family's sync API). */
      async encryptDevice(name: string) {
        const iv = crypto.getRandomValues(new Uint8Array(16));
        const sealed = new Uint8Array(
          await crypto.subtle.encrypt({ name: 'AES-GCM', iv, tagLength: 128 }, aes, utf8(name)),
        );
        return [iv, sealed.slice(0, -16), sealed.slice(-16)].map(base64).join('.');
      },
      async decryptDevice(blob: string) {
        const [iv, ct, tag] = blob.split('.').map(fromBase64);
        const sealed = new Uint8Array(ct!.length + tag!.length);
        sealed.set(ct!);
        sealed.set(tag!, ct!.length);
        const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: iv!, tagLength: 128 }, aes, sealed);
        return new TextDecoder().decode(plain);
      },
    };
  }

  /** One call as the clients make it: JSON in and out, the bearer token when signed in. */
  async function call(
    step: string,
    method: string,
    path: string,
    options: { token?: string; body?: unknown; jsonHeader?: boolean } = {},
  ) {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined || options.jsonHeader) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    try {
      const response = await fetch(`${cfg.api}${path}`, {
        method,
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      });
      const text = await response.text();
      const result: Step = { step, status: response.status, body: text ? JSON.parse(text) : null };
      steps.push(result);
      return result.body;
    } catch (error) {
      // A CORS refusal surfaces here as a TypeError ("Failed to fetch").
      steps.push({ step, error: String(error) });
      throw error;
    }
  }

  try {
    const vector = await keysOf(cfg.vector.mnemonic);
    steps.push({
      step: 'test vector',
      body: { publicKey: vector.publicKey, signature: await vector.sign(cfg.vector.code) },
    });

    const keys = await keysOf(cfg.mnemonic);
    const meta = await call('meta', 'GET', '/meta');
    // The client asks for a reCAPTCHA token only when /meta says so (the app family's sync API); it never knows ALTCHA.
    const start = await call('register start', 'POST', '/auth/register/start', {
      body: meta.hasCaptcha ? { captchaToken: 'unsolvable' } : {},
    });
    const registered = await call('register complete', 'POST', '/auth/register/complete', {
      body: {
        namespace: 'movie-web',
        publicKey: keys.publicKey,
        challenge: { code: start.challenge, signature: await keys.sign(start.challenge) },
        device: await keys.encryptDevice('Cross-origin phone'),
        profile: { colorA: '#2E65CF', colorB: '#2E65CF', icon: 'userGroup' },
      },
    });
    const login = await call('login start', 'POST', '/auth/login/start', {
      body: { publicKey: keys.publicKey },
    });
    const signedIn = await call('login complete', 'POST', '/auth/login/complete', {
      body: {
        namespace: 'movie-web',
        publicKey: keys.publicKey,
        challenge: { code: login.challenge, signature: await keys.sign(login.challenge) },
        device: await keys.encryptDevice('Cross-origin laptop'),
      },
    });
    const token: string = signedIn.token;
    const me = await call('me', 'GET', '/users/@me', { token });
    steps.push({ step: 'device name', body: await keys.decryptDevice(me.session.device) });

    const uid: string = registered.user.id;
    const meta603 = {
      title: 'The Matrix',
      year: 1999,
      poster: 'https://image.tmdb.org/t/p/w342/matrix.jpg',
      type: 'movie',
    };
    await call('add bookmark', 'POST', `/users/${uid}/bookmarks/603`, {
      token,
      body: { tmdbId: '603', meta: meta603 },
    });
    await call('save progress', 'PUT', `/users/${uid}/progress/603`, {
      token,
      body: { meta: meta603, tmdbId: '603', duration: 8160, watched: 1234 },
    });
    await call('read bookmarks', 'GET', `/users/${uid}/bookmarks`, { token });
    await call('read progress', 'GET', `/users/${uid}/progress`, { token });
    // What the clients send for a removal: a JSON content type and no body at all.
    await call('delete bookmark', 'DELETE', `/users/${uid}/bookmarks/603`, { token, jsonHeader: true });
    await call('bookmarks after delete', 'GET', `/users/${uid}/bookmarks`, { token });
  } catch (error) {
    if (!steps.at(-1)?.error) steps.push({ step: 'client', error: String(error) });
  }
  return steps;
}

function clientPage(cfg: ClientConfig): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Protocol client</title>
<body><h1>Protocol client</h1><script type="module">
window.__steps = (${protocolClient.toString()})(${JSON.stringify(cfg)});
window.__steps.then((steps) => { window.__done = steps; });
</script></body></html>`;
}

let site: Server;
let siteUrl: string;

test.beforeAll(async () => {
  const cfg: ClientConfig = {
    api,
    mnemonic: generateMnemonic(wordlist),
    vector: {
      mnemonic: 'awkward safe differ large subway junk gallery flight left glue fault glory',
      code: '6f1c2b8e-1d2a-4c3b-9e4f-5a6b7c8d9e0f',
    },
  };
  site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(clientPage(cfg));
  });
  // Another port is another origin (scheme, host and port all count).
  siteUrl = await new Promise<string>((resolve) =>
    site.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(site.address() as AddressInfo).port}`)),
  );
});

test.afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
});

test('an existing client on another origin registers without a captcha, signs in and syncs on an ALTCHA instance', async ({
  page,
}) => {
  await page.goto(`${siteUrl}/`);
  expect(await page.evaluate(() => location.origin)).not.toBe(new URL(api).origin);
  const handle = await page.waitForFunction(() => (window as any).__done as Step[] | undefined, undefined, {
    timeout: 20_000,
  });
  const steps = (await handle.jsonValue()) as Step[];
  const byName = (name: string) => {
    const step = steps.find((s) => s.step === name);
    expect(step, `step "${name}" ran: ${JSON.stringify(steps.at(-1))}`).toBeDefined();
    expect(step!.error, `${name}: ${step!.error}`).toBeUndefined();
    return step!;
  };
  const ok = (name: string) => {
    const step = byName(name);
    expect(step.status, `${name}: ${JSON.stringify(step.body)}`).toBe(200);
    return step.body;
  };

  // WebCrypto derives byte-identical keys and signatures (the app family's sync API vectors).
  expect(byName('test vector').body).toEqual({
    publicKey: '9icC8Nazxbe-I7xnJgSBc5sWSIkRChBlSOWULWtnxkA',
    signature: 'hLdbjm9sgkbWEXWVEWPMuAEjDqQ1MQvTOnyxTbofBoJQ9oLN_3mIgxLye2dC6UCIFc-v1180YvnKVeAR1UhYBg',
  });

  // ALTCHA is the default captcha, which these clients cannot solve: /meta does not ask for one.
  expect(ok('meta')).toMatchObject({ hasCaptcha: false });
  expect(ok('register start').challenge).toMatch(/^[0-9a-f-]{36}$/);
  const registered = ok('register complete');
  expect(registered.user).toMatchObject({ namespace: 'movie-web', profile: { icon: 'userGroup' } });
  expect(ok('login start').challenge).toMatch(/^[0-9a-f-]{36}$/);
  const signedIn = ok('login complete');
  expect(signedIn.user.id).toBe(registered.user.id);
  expect(signedIn.session.id).not.toBe(registered.session.id);
  const me = ok('me');
  expect(me.user.id).toBe(registered.user.id);
  expect(me.session.id).toBe(signedIn.session.id);
  // The encrypted device name made the round trip byte for byte.
  expect(byName('device name').body).toBe('Cross-origin laptop');

  expect(ok('add bookmark')).toMatchObject({
    tmdbId: '603',
    meta: { title: 'The Matrix', year: 1999, type: 'movie' },
  });
  expect(ok('save progress')).toMatchObject({ tmdbId: '603', duration: 8160, watched: 1234 });
  expect(ok('read bookmarks')).toEqual([expect.objectContaining({ tmdbId: '603' })]);
  // Lists carry the durations as strings, as the older server did.
  expect(ok('read progress')).toEqual([
    expect.objectContaining({ tmdbId: '603', duration: '8160', watched: '1234' }),
  ]);
  expect(ok('delete bookmark')).toEqual({ tmdbId: '603' });
  expect(ok('bookmarks after delete')).toEqual([]);
});
