import type { AltchaChallenge } from '@marquee/contract';

/**
 * ALTCHA v1 proof of work (the app family's protocols): find n in 0…maxnumber with hex(SHA(salt + n)) equal to
 * the challenge; the token is base64(JSON{algorithm, challenge, number, salt, signature, took}).
 */
export type HexHash = (algorithm: string, text: string) => string;

export interface AltchaSolution {
  number: number;
  took: number;
}

export function solveAltcha(
  challenge: AltchaChallenge,
  hash: HexHash,
  now: () => number = () => Date.now(),
): AltchaSolution | null {
  const started = now();
  const target = challenge.challenge.toLowerCase();
  for (let n = 0; n <= challenge.maxnumber; n++) {
    if (hash(challenge.algorithm, challenge.salt + n) === target) return { number: n, took: now() - started };
  }
  return null;
}

export function altchaPayload(challenge: AltchaChallenge, solution: AltchaSolution): string {
  const json = JSON.stringify({
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number: solution.number,
    salt: challenge.salt,
    signature: challenge.signature,
    took: solution.took,
  });
  return btoa(json);
}
