import { errorKey, type ErrorKey } from '../api/index.ts';
import type { AuthErrorKind } from './auth.ts';
import { PasskeyError, type PasskeyErrorKind } from './passkeys.ts';

/** What the viewer reads when a passkey ceremony stops on this side. */
const PASSKEY_TEXT = {
  cancelled: 'customer.passkeys.cancelled',
  unsupported: 'customer.passkeys.unsupported',
  noUnlock: 'customer.passkeys.noUnlock',
  unreadable: 'customer.passkeys.unreadable',
} as const satisfies Record<PasskeyErrorKind, string>;

export interface PasskeyProblem {
  key: (typeof PASSKEY_TEXT)[PasskeyErrorKind] | ErrorKey | `auth.errors.${AuthErrorKind}`;
  /** The viewer closed the browser's dialog (or let it time out): a status line, not an alert. */
  calm: boolean;
}

/**
 * The catalog key of a failed passkey sign-in or addition: the browser's side (PasskeyError), the 12 words
 * typed wrong or a passphrase sign-in refused (AuthError; auth.ts loads only then), or the server's code.
 */
export async function passkeyProblem(error: unknown): Promise<PasskeyProblem> {
  if (error instanceof PasskeyError)
    return { key: PASSKEY_TEXT[error.kind], calm: error.kind === 'cancelled' };
  const { AuthError } = await import('./auth.ts');
  if (error instanceof AuthError) return { key: `auth.errors.${error.kind}`, calm: false };
  return { key: errorKey(error), calm: false };
}
