/**
 * Custom proxy list entries, read as the app family's clients read them: a plain http(s) URL (a CORS proxy),
 * or `|key=value;…|URL` where `type=proxy` or `type=api` (a provider API). Anything else is dropped.
 */
export interface ProxyEntry {
  type: 'proxy' | 'api';
  url: string;
}

const isHttpUrl = (text: string) => {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

export function parseProxyEntry(raw: string): ProxyEntry | null {
  const entry = raw.trim();
  if (!entry) return null;
  if (!entry.startsWith('|')) return isHttpUrl(entry) ? { type: 'proxy', url: entry } : null;
  const match = /^\|([^|]*)\|(.+)$/.exec(entry);
  if (!match) return null;
  const options = Object.fromEntries(
    match[1]!
      .split(';')
      .filter(Boolean)
      .map((pair) => {
        const [k = '', ...v] = pair.split('=');
        return [k.trim(), v.join('=').trim()];
      }),
  );
  const type = options.type ?? 'proxy';
  if (type !== 'proxy' && type !== 'api') return null;
  const url = match[2]!.trim();
  return isHttpUrl(url) ? { type, url } : null;
}

/** The entries worth keeping, as written (empty and invalid ones dropped). */
export const cleanProxyList = (entries: readonly string[]) =>
  entries.map((e) => e.trim()).filter((e) => parseProxyEntry(e) !== null);

export type ProxyTestResult = 'ok' | 'invalidUrl' | 'unreachable' | 'notProxy';

/**
 * Checks that a URL is a "simple proxy": it must relay a request to this instance's /ping.txt
 * ("pong"). A website answers with its own page instead. 3 s timeout, as the older clients' setup test.
 */
export async function testProxy(
  raw: string,
  origin = window.location.origin,
  fetchImpl: typeof fetch = fetch,
): Promise<ProxyTestResult> {
  const entry = parseProxyEntry(raw);
  if (!entry) return 'invalidUrl';
  if (entry.type === 'api') return 'ok';
  const target = new URL(entry.url);
  target.searchParams.set('destination', `${origin}/ping.txt`);
  let text: string;
  try {
    const response = await fetchImpl(target.toString(), { signal: AbortSignal.timeout(3_000) });
    text = await response.text();
  } catch {
    return 'unreachable';
  }
  return text.trim() === 'pong' ? 'ok' : 'notProxy';
}

/** A custom account server address: https:// is added when no scheme is given; no trailing slash. */
export function normalizeServerUrl(raw: string): string {
  const text = raw.trim().replace(/\/+$/, '');
  if (!text) return '';
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
}
