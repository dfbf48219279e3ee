import { z } from 'zod';

/*
 * The web app's zod, for the forms' rules. The app runs under a Content-Security-Policy without
 * 'unsafe-eval' (decision 062); zod's object parser probes `new Function` to compile a fast path, which the
 * browser reports as a policy violation. Parsing without that compiled path is plenty fast for forms.
 * Every web module that builds schemas imports `z` from here (lint), so the setting comes first.
 */
z.config({ jitless: true });

export { z };
