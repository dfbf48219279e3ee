import { createChallenge, verifySolution } from 'altcha-lib/v1';
import { describe, expect, it } from 'vitest';
import { altchaPayload, solveAltcha } from './altcha.ts';
import { altchaHash } from './altcha-hash.ts';

describe('ALTCHA v1 solver', () => {
  it('solves a challenge made by altcha-lib, and the server-side check accepts the token', async () => {
    const hmacKey = 'test-hmac-key';
    const c = await createChallenge({ hmacKey, maxNumber: 5_000, expires: new Date(Date.now() + 60_000) });
    const challenge = {
      algorithm: c.algorithm,
      challenge: c.challenge,
      maxnumber: c.maxnumber ?? 5_000,
      salt: c.salt,
      signature: c.signature,
    };
    const solution = solveAltcha(challenge, altchaHash);
    expect(solution).not.toBeNull();
    const token = altchaPayload(challenge, solution!);
    expect(await verifySolution(token, hmacKey, true)).toBe(true);
    expect(
      await verifySolution(
        altchaPayload(challenge, { number: solution!.number + 1, took: 1 }),
        hmacKey,
        true,
      ),
    ).toBe(false);
  });

  it('gives up past maxnumber', () => {
    expect(
      solveAltcha(
        { algorithm: 'SHA-256', challenge: 'ff', maxnumber: 10, salt: 'x', signature: 's' },
        altchaHash,
      ),
    ).toBeNull();
  });

  it('supports SHA-1 and SHA-512 too', () => {
    expect(altchaHash('SHA-1', 'abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(altchaHash('SHA-256', 'abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
