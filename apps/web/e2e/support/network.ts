import type { Page, Request } from '@playwright/test';

/**
 * Resolves once the page has had no request in flight for `quietMs` (from now on, unlike
 * `waitForLoadState('networkidle')`, which is only the first such moment after a navigation). For
 * checking that something was NOT requested: anything the page was going to ask for has been asked.
 * Event streams are not waited for.
 */
export async function networkQuiet(page: Page, quietMs = 500, timeoutMs = 15_000): Promise<void> {
  const inFlight = new Set<Request>();
  let lastChange = Date.now();
  const started = (request: Request) => {
    // An event stream (the signed-in library's live sync) stays open for the page's life.
    if (request.headers()['accept'] === 'text/event-stream') return;
    inFlight.add(request);
    lastChange = Date.now();
  };
  const ended = (request: Request) => {
    inFlight.delete(request);
    lastChange = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (inFlight.size === 0 && Date.now() - lastChange >= quietMs) return;
      if (Date.now() > deadline) throw new Error(`the network did not go quiet within ${timeoutMs} ms`);
      // Poll the page (not a sleep: each round trip lets its requests start or end).
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))),
      );
    }
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}
