/**
 * Delay before retry number `attempt` (1, 2, …): exponential from `baseMs`, capped at `maxMs`, with
 * "equal jitter" — half fixed, half random — so it never collapses to zero and many clients that lost
 * the server at once do not come back at the same instant.
 */
export function backoffDelay(
  attempt: number,
  { baseMs = 1_000, maxMs = 5 * 60_000, random = Math.random } = {},
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(attempt, 1) - 1, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
