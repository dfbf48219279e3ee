import type { AuthMethod, RuntimeConfig } from '@marquee/contract';

/**
 * The sign-in methods /login and /register offer, first shown first: the subscription variant leads
 * with email, the discovery variant with the passphrase; only enabled ones.
 */
export function authMethodOrder(config: Pick<RuntimeConfig, 'variant' | 'authMethods'>): AuthMethod[] {
  const enabled = config.authMethods.length ? config.authMethods : (['passphrase'] as AuthMethod[]);
  const first: AuthMethod = config.variant === 'subscription' ? 'email' : 'passphrase';
  return [...enabled].sort((a, b) => (a === first ? -1 : b === first ? 1 : 0));
}

/** The method a page shows: `?method=` when it is enabled, else the first. */
export function chosenMethod(order: readonly AuthMethod[], asked: string | null): AuthMethod {
  return order.find((m) => m === asked) ?? order[0] ?? 'passphrase';
}
