import type { CustomerUser } from '@marquee/contract';
import { dateTimeFormat } from './intl.ts';

export type MembershipState = 'active' | 'ended' | 'none';

/** Whether the account's membership runs now (its end in the future), ended, or never existed. */
export function membershipState(
  user: Pick<CustomerUser, 'endSubcriptionDate'> | null | undefined,
  now: Date,
): { state: MembershipState; end: Date | null } {
  const end = user?.endSubcriptionDate ? new Date(user.endSubcriptionDate) : null;
  if (!end || Number.isNaN(end.getTime())) return { state: 'none', end: null };
  return { state: end.getTime() > now.getTime() ? 'active' : 'ended', end };
}

/** The membership end as a long date and time, in the UI language. */
export function longDateTime(date: Date, locale: string): string {
  try {
    return dateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(date);
  } catch {
    return date.toUTCString();
  }
}
