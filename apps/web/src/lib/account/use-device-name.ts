import { useEffect, useState } from 'react';
import type { Account } from '../../stores/account-store.ts';

/**
 * The readable name of a passphrase account's device (decrypted with its seed or the key in IndexedDB;
 * the code is loaded on demand, off the first view); null until then, for email accounts, and when it
 * cannot be decrypted.
 */
export function useDeviceName(account: Account | null | undefined): string | null {
  const blob = account?.deviceName;
  const userId = account?.userId ?? '';
  const seed = account?.seed ?? '';
  const deviceKey = account?.deviceKey;
  const [name, setName] = useState<{ blob: string; value: string | null } | null>(null);
  useEffect(() => {
    if (!blob || (!seed && !deviceKey)) return;
    let live = true;
    void import('./device-name.ts')
      .then(async (m) => m.readDeviceName(blob, await m.accountDeviceKey({ userId, seed, deviceKey })))
      .then((value) => {
        if (live) setName({ blob, value });
      });
    return () => {
      live = false;
    };
  }, [blob, userId, seed, deviceKey]);
  return name && name.blob === blob ? name.value : null;
}
