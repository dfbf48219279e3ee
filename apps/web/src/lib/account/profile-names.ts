import type { CustomerUser } from '@marquee/contract';
import type { Account } from '../../stores/account-store.ts';
import { accountDeviceKey, encryptDeviceName, readDeviceName } from './device-name.ts';

/*
 * A passphrase account's profile names (its own and its household's) are sealed on the device with the
 * account's key, as its device names are, and the server stores them unread (decision 108). Email
 * accounts' names travel as they are. Everything the web keeps and shows is the readable name.
 */

type Who = Pick<Account, 'kind' | 'userId' | 'seed' | 'deviceKey'>;

/** The name as the server takes it from this account: sealed for a passphrase account. */
export async function sealedName(account: Who, name: string): Promise<string> {
  if (account.kind === 'email') return name;
  const key = await accountDeviceKey(account);
  // Without its key the device cannot be the account's (the key goes only at sign-out).
  if (!key) throw new Error('the account key is not on this device');
  return encryptDeviceName(name, key);
}

/** One name readable: '' when a passphrase account's name does not open with its key. */
export async function readableName(account: Who, name: string): Promise<string> {
  if (account.kind === 'email') return name;
  return name ? ((await readDeviceName(name, await accountDeviceKey(account))) ?? '') : '';
}

/**
 * The user with its names readable. A name that does not open with this account's key (written by a
 * client that did not seal it, or damaged) reads as '': the screens then show the profile's place-holder.
 */
export async function readableUser(account: Who, user: CustomerUser): Promise<CustomerUser> {
  if (account.kind === 'email') return user;
  const [fullname, ...names] = await Promise.all([
    readableName(account, user.fullname),
    ...user.profiles.map((p) => readableName(account, p.fullname)),
  ]);
  return {
    ...user,
    fullname: fullname ?? '',
    profiles: user.profiles.map((p, i) => ({ ...p, fullname: names[i] ?? '' })),
  };
}
