import { describe, expect, it } from 'vitest';
import { ProcessCaptionRelayStore } from './caption-relay-store.ts';

describe('captions relayed in one process (decision 113)', () => {
  it('keep within their total size, the least recently used going first', async () => {
    const store = new ProcessCaptionRelayStore(60_000, 100);
    const caption = (text: string) => ({ vtt: text, expiresAt: 1 });
    await store.put('a', caption('x'.repeat(20)), 60_000);
    await store.put('b', caption('y'.repeat(20)), 60_000);
    expect(await store.get('a')).toEqual(caption('x'.repeat(20)));
    // 40 + 40 bytes held (UTF-16); a third of 40 does not fit: `b`, the least recently read, goes.
    await store.put('c', caption('z'.repeat(20)), 60_000);
    expect(await store.get('b')).toBeNull();
    expect(await store.get('a')).not.toBeNull();
    expect(await store.get('c')).not.toBeNull();
    // One bigger than the whole bound is not kept at all.
    await store.put('d', caption('w'.repeat(60)), 60_000);
    expect(await store.get('d')).toBeNull();
  });
});
