import 'fake-indexeddb/auto';
import { expect, it } from 'vitest';
import { importDeviceKey, indexedDbKeyStore } from './device-key.ts';

it('keeps the device key in IndexedDB: a key put is read back (still not extractable) until deleted', async () => {
  const store = indexedDbKeyStore();
  const key = await importDeviceKey(new Uint8Array(32).fill(7));
  await store.put('u1', key);
  const read = await store.get('u1');
  expect(read?.extractable).toBe(false);
  // The key read back decrypts what the one put encrypted.
  const iv = new Uint8Array(12);
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv },
    key,
    new TextEncoder().encode('Laptop'),
  );
  const opened = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, read!, sealed);
  expect(new TextDecoder().decode(opened)).toBe('Laptop');
  await store.delete('u1');
  expect(await store.get('u1')).toBeUndefined();
  await store.put('u2', key);
  await store.clear();
  expect(await store.get('u2')).toBeUndefined();
});
