import { useEffect, useState } from 'react';

/** The readable name of an encrypted device name (decryption code is loaded on demand, off the first view). */
export function useDeviceName(blob: string | null | undefined, seed: string | null | undefined): string | null {
  const [name, setName] = useState<{ blob: string; value: string | null } | null>(null);
  useEffect(() => {
    if (!blob || !seed) return;
    let live = true;
    void import('./device-name.ts').then((m) => {
      if (live) setName({ blob, value: m.readDeviceName(blob, seed) });
    });
    return () => {
      live = false;
    };
  }, [blob, seed]);
  return name && name.blob === blob ? name.value : null;
}
