import { z } from 'zod';

/*
 * The contract's zod. In a browser, parsing runs without zod's compiled fast path: zod decides when a
 * schema is created whether to compile one, probing `new Function`, and the web app's Content-Security-
 * Policy has no 'unsafe-eval' (decision 062), so the probe alone is reported as a violation. Setting it
 * here, in the module every schema module imports first, holds however a bundler orders the modules.
 * The server keeps the compiled path.
 */
if (typeof (globalThis as { window?: unknown }).window !== 'undefined') z.config({ jitless: true });

export { z };
