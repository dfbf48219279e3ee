/**
 * The first view of `/` as a browser receives it from the production server: every script it loads
 * (the chunks its route loads lazily included), the bytes each moved over the wire (body, compressed,
 * and with its response headers), the encoding, and the totals against the budget of 150 KB of
 * JavaScript on the wire. Also the other resources' bytes, and the whole page's.
 * A fresh browser with an empty cache, Debian Chromium.   node --import tsx bench/first-view.ts
 */
import { chromium } from 'playwright-core';
import { ensureBuilt, startServer } from './support/server.ts';

const BUDGET = 150 * 1024;
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Row {
  url: string;
  type: string;
  encoding: string;
  headerBytes: number;
  wireBytes: number;
}

async function main() {
  ensureBuilt();
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const rows = new Map<string, Row>();
    cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
      rows.set(requestId, {
        url: new URL(response.url).pathname,
        type,
        encoding: String(response.headers['content-encoding'] ?? 'identity'),
        headerBytes: response.encodedDataLength,
        wireBytes: 0,
      });
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const row = rows.get(requestId);
      if (row) row.wireBytes = encodedDataLength;
    });
    await page.goto(server.url, { waitUntil: 'networkidle' });
    await page.getByTestId('greeting').waitFor();

    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    const all = [...rows.values()];
    const scripts = all.filter((r) => r.type === 'Script');
    console.log('| script | encoding | body on the wire | with headers |');
    console.log('|---|---|---|---|');
    for (const r of scripts)
      console.log(`| ${r.url} | ${r.encoding} | ${kb(r.wireBytes - r.headerBytes)} | ${kb(r.wireBytes)} |`);
    const body = scripts.reduce((s, r) => s + r.wireBytes - r.headerBytes, 0);
    const withHeaders = scripts.reduce((s, r) => s + r.wireBytes, 0);
    console.log(
      `\nfirst view of /: ${scripts.length} scripts, ${kb(body)} of JavaScript on the wire (${kb(withHeaders)} with headers); budget ${kb(BUDGET)} → ${body <= BUDGET ? 'within budget' : 'OVER BUDGET'}`,
    );
    const others = all.filter((r) => r.type !== 'Script');
    for (const type of [...new Set(others.map((r) => r.type))]) {
      const of = others.filter((r) => r.type === type);
      console.log(`${type}: ${of.length} requests, ${kb(of.reduce((s, r) => s + r.wireBytes, 0))}`);
    }
    console.log(
      `whole page: ${all.length} requests, ${kb(all.reduce((s, r) => s + r.wireBytes, 0))} on the wire`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
