/// <reference lib="webworker" />
import type { AltchaChallenge } from '@marquee/contract';
import { solveAltcha } from './altcha.ts';
import { altchaHash } from './altcha-hash.ts';

// Solves off the main thread so the page stays responsive while the proof of work runs.
self.onmessage = (event: MessageEvent<AltchaChallenge>) => {
  self.postMessage(solveAltcha(event.data, altchaHash));
};
