/** Time through one seam, so tests (and the e2e suite, via ?now=) can pin the date. */
export const clock = {
  now: (): Date => new Date(),
};
