/**
 * Accounts for benchmarks, made the way the family's clients make them (passphrase keys, a signed
 * challenge). Works against Marquee and against the older servers that speak the same protocol.
 */
import { deriveKeys, newMnemonic } from '../../apps/server/test/passphrase-client.ts';

export interface BenchAccount {
  id: string;
  token: string;
}

/** Registers one account; `index` picks a distinct client address so registration limits stay out of the way. */
export async function registerAccount(url: string, index: number): Promise<BenchAccount> {
  const keys = deriveKeys(newMnemonic());
  const headers = {
    'x-forwarded-for': `198.51.${100 + Math.floor(index / 250)}.${(index % 250) + 1}`,
    'content-type': 'application/json',
  };
  const start = await fetch(`${url}/auth/register/start`, { method: 'POST', headers, body: '{}' });
  if (!start.ok) throw new Error(`register/start answered ${start.status}: ${await start.text()}`);
  const { challenge } = (await start.json()) as { challenge: string };
  const complete = await fetch(`${url}/auth/register/complete`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      namespace: 'movie-web',
      publicKey: keys.publicKey,
      challenge: { code: challenge, signature: keys.sign(challenge) },
      device: keys.encryptDevice('bench'),
      profile: { colorA: '#0A54FF', colorB: '#CF2E68', icon: 'couch' },
    }),
  });
  if (!complete.ok)
    throw new Error(`register/complete answered ${complete.status}: ${await complete.text()}`);
  const done = (await complete.json()) as { user: { id: string }; token: string };
  return { id: done.user.id, token: done.token };
}
