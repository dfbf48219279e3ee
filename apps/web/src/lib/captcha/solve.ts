import type { AltchaChallenge } from '@marquee/contract';
import { altchaPayload, solveAltcha, type AltchaSolution } from './altcha.ts';

/** Solves an ALTCHA challenge in a Web Worker (inline when workers are unavailable); resolves to the token. */
export async function solveAltchaChallenge(challenge: AltchaChallenge): Promise<string> {
  let solution: AltchaSolution | null;
  if (typeof Worker === 'undefined') {
    const { altchaHash } = await import('./altcha-hash.ts');
    solution = solveAltcha(challenge, altchaHash);
  } else {
    const worker = new Worker(new URL('./altcha.worker.ts', import.meta.url), { type: 'module' });
    try {
      solution = await new Promise<AltchaSolution | null>((resolve, reject) => {
        worker.onmessage = (e: MessageEvent<AltchaSolution | null>) => resolve(e.data);
        worker.onerror = (e) => reject(new Error(e.message || 'captcha worker failed'));
        worker.postMessage(challenge);
      });
    } finally {
      worker.terminate();
    }
  }
  if (!solution) throw new Error('no solution to the captcha challenge');
  return altchaPayload(challenge, solution);
}
