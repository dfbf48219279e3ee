import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePreferencesStore } from '../../stores/preferences-store.ts';
import { focused, press, stubBoxes } from './test-layout.ts';
import { useTvModeDocument } from './tv-mode.ts';
import { useTvNavigation } from './use-tv-navigation.ts';

const goHome = () => undefined;

/** A page under the app root, which hands the device's setting down (app.tsx). */
function Page() {
  useTvModeDocument(usePreferencesStore((s) => s.tvMode));
  useTvNavigation(goHome);
  return (
    <main>
      <button type="button" id="first" data-rect="20 100 100 40">
        1
      </button>
      <button type="button" id="second" data-rect="140 100 100 40">
        2
      </button>
    </main>
  );
}

/** Waits until the lazily loaded navigation answers the arrows (a state, not a time). */
async function waitForNavigation() {
  await vi.waitFor(() => {
    document.getElementById('first')!.focus();
    press('ArrowRight');
    expect(focused()).toBe('second');
  });
}

beforeEach(() => {
  stubBoxes();
});

afterEach(() => {
  act(() => usePreferencesStore.setState({ tvMode: 'auto' }));
  vi.restoreAllMocks();
});

describe('useTvNavigation', () => {
  it('answers the arrows only while TV mode is on', async () => {
    act(() => usePreferencesStore.setState({ tvMode: 'off' }));
    render(<Page />);
    document.getElementById('first')!.focus();
    expect(press('ArrowRight').defaultPrevented).toBe(false);
    expect(press('Escape').defaultPrevented).toBe(false);
    expect(focused()).toBe('first');

    act(() => usePreferencesStore.setState({ tvMode: 'on' }));
    await waitForNavigation();

    act(() => usePreferencesStore.setState({ tvMode: 'off' }));
    document.getElementById('first')!.focus();
    expect(press('ArrowRight').defaultPrevented).toBe(false);
    expect(focused()).toBe('first');
  });
});
