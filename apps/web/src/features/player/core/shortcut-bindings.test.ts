import { PLAYER_SHORTCUT_ACTIONS } from '@marquee/contract/values';
import { describe, expect, it } from 'vitest';
import {
  actionOfKey,
  bindKey,
  changedActions,
  DEFAULT_BINDINGS,
  effectiveBindings,
  keyLabel,
  resetAction,
  resetAllBindings,
  unbindableReason,
} from './shortcut-bindings.ts';

describe('the default keys', () => {
  it('are today’s, one action per key, for every action of the contract', () => {
    expect(Object.keys(DEFAULT_BINDINGS).sort()).toEqual([...PLAYER_SHORTCUT_ACTIONS].sort());
    const all = Object.values(DEFAULT_BINDINGS).flat();
    expect(new Set(all).size).toBe(all.length);
    const none = effectiveBindings({});
    expect(actionOfKey(none, ' ')).toBe('playPause');
    expect(actionOfKey(none, 'K')).toBe('playPause');
    expect(actionOfKey(none, 'ArrowLeft')).toBe('seekBack5');
    expect(actionOfKey(none, 'l')).toBe('seekForward10');
    expect(actionOfKey(none, ',')).toBe('frameBack');
    expect(actionOfKey(none, '>')).toBe('faster');
    expect(actionOfKey(none, '?')).toBe('help');
    expect(actionOfKey(none, 'x')).toBeNull();
    expect(actionOfKey(none, 'Escape')).toBeNull();
  });
});

describe('the effective bindings', () => {
  it('are the defaults with the viewer’s actions over them; unknown actions are ignored', () => {
    const b = effectiveBindings({ mute: ['x'], zoomIn: ['z'] });
    expect(b.mute).toEqual(['x']);
    expect(actionOfKey(b, 'm')).toBeNull();
    expect(actionOfKey(b, 'X')).toBe('mute');
    expect(actionOfKey(b, 'z')).toBeNull();
    expect(b.fullscreen).toEqual(['f']);
  });

  it('a key a changed action took leaves the action that had it by default', () => {
    const b = effectiveBindings({ mute: ['k'] });
    expect(b.playPause).toEqual([' ']);
    expect(actionOfKey(b, 'k')).toBe('mute');
  });

  it('an action stored with no keys has none; unusable and repeated keys are dropped', () => {
    const b = effectiveBindings({ roll: [], captions: ['Escape', 'Tab', 'Shift', 'C', 'c'] });
    expect(b.roll).toEqual([]);
    expect(b.captions).toEqual(['c']);
    // Two stored actions naming one key: the first in the contract's order keeps it.
    const both = effectiveBindings({ help: ['q'], mute: ['q'] });
    expect(both.mute).toEqual(['q']);
    expect(both.help).toEqual([]);
  });
});

describe('changing a key', () => {
  it('replaces the action’s keys; the stored map holds only what differs from the defaults', () => {
    const { overrides, took } = bindKey({}, 'fullscreen', 'G');
    expect(overrides).toEqual({ fullscreen: ['g'] });
    expect(took).toEqual([]);
    expect(effectiveBindings(overrides).fullscreen).toEqual(['g']);
    // Binding an action its default key again leaves nothing stored.
    expect(bindKey(overrides, 'fullscreen', 'f').overrides).toEqual({});
  });

  it('takes the key from the action that had it, which keeps its other keys', () => {
    const { overrides, took } = bindKey({}, 'mute', 'k');
    expect(took).toEqual([{ action: 'playPause', keys: ['k'] }]);
    expect(overrides).toEqual({ mute: ['k'], playPause: [' '] });
    const b = effectiveBindings(overrides);
    expect(actionOfKey(b, 'k')).toBe('mute');
    expect(actionOfKey(b, 'm')).toBeNull();
    expect(b.playPause).toEqual([' ']);
  });

  it('a single-key action that loses its key has none, stored as such', () => {
    const { overrides, took } = bindKey({}, 'roll', 'c');
    expect(took).toEqual([{ action: 'captions', keys: ['c'] }]);
    expect(overrides).toEqual({ roll: ['c'], captions: [] });
    expect(changedActions(overrides)).toEqual(['captions', 'roll']);
  });

  it('keeps a newer client’s actions as they were', () => {
    const { overrides } = bindKey({ zoomIn: ['z'], mute: ['x'] }, 'mute', 'n');
    expect(overrides).toEqual({ zoomIn: ['z'], mute: ['n'] });
  });

  it('a key back where it was by default leaves the map empty again', () => {
    const moved = bindKey({}, 'mute', 'k').overrides;
    const back = bindKey(bindKey(moved, 'playPause', 'k').overrides, 'mute', 'm').overrides;
    expect(back).toEqual({ playPause: ['k'] });
    expect(resetAction(back, 'playPause').overrides).toEqual({});
  });
});

describe('resetting', () => {
  it('gives one action its defaults back, taking them from whichever action had them', () => {
    const changed = bindKey(bindKey({}, 'mute', 'x').overrides, 'captions', 'm').overrides;
    expect(changed).toEqual({ mute: ['x'], captions: ['m'] });
    const { overrides, took } = resetAction(changed, 'mute');
    expect(took).toEqual([{ action: 'captions', keys: ['m'] }]);
    expect(overrides).toEqual({ captions: [] });
    expect(effectiveBindings(overrides).mute).toEqual(['m']);
  });

  it('all of them: nothing stored', () => {
    expect(resetAllBindings()).toEqual({ overrides: {}, took: [] });
  });
});

describe('keys that cannot be bound', () => {
  it('says why for Escape, Tab, Enter, modifiers alone, chords and non-keys', () => {
    expect(unbindableReason({ key: 'Escape' })).toBe('reserved');
    expect(unbindableReason({ key: 'Tab' })).toBe('reserved');
    expect(unbindableReason({ key: 'Enter' })).toBe('reserved');
    expect(unbindableReason({ key: 'Shift' })).toBe('modifier');
    expect(unbindableReason({ key: 'Control', ctrlKey: true })).toBe('modifier');
    expect(unbindableReason({ key: 'k', ctrlKey: true })).toBe('withModifier');
    expect(unbindableReason({ key: 'k', metaKey: true })).toBe('withModifier');
    expect(unbindableReason({ key: 'Dead' })).toBe('unusable');
    expect(unbindableReason({ key: 'Unidentified' })).toBe('unusable');
    expect(unbindableReason({ key: 'x'.repeat(30) })).toBe('unusable');
    for (const key of [' ', 'k', 'K', '?', 'PageUp', 'F2', 'ArrowLeft'])
      expect(unbindableReason({ key }), key).toBeNull();
  });

  it('are never bound, even from a stored map', () => {
    expect(bindKey({ roll: ['x'] }, 'mute', 'Enter')).toEqual({ overrides: { roll: ['x'] }, took: [] });
    expect(actionOfKey(effectiveBindings({ mute: ['Escape'] }), 'Escape')).toBeNull();
  });

  it('include the media keys the player answers itself (⏯ always plays or pauses); other media keys bind', () => {
    for (const key of ['MediaPlayPause', 'MediaStop', 'MediaFastForward', 'MediaTrackNext'])
      expect(unbindableReason({ key }), key).toBe('media');
    expect(unbindableReason({ key: 'MediaRecord' })).toBeNull();
    expect(bindKey({}, 'mute', 'MediaPlayPause')).toEqual({ overrides: {}, took: [] });
    // Stored by another client (the contract allows any key name): dropped, the others kept.
    const stored = effectiveBindings({ playPause: [' ', 'p', 'MediaPlayPause'] });
    expect(stored.playPause).toEqual([' ', 'p']);
    expect(actionOfKey(stored, 'MediaPlayPause')).toBeNull();
  });
});

describe('key names', () => {
  it('are short: Space (in the language given), arrows, letters in upper case', () => {
    expect(keyLabel(' ')).toBe('Space');
    expect(keyLabel(' ', 'Leertaste')).toBe('Leertaste');
    expect(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].map((k) => keyLabel(k))).toEqual([
      '←',
      '→',
      '↑',
      '↓',
    ]);
    expect(keyLabel('k')).toBe('K');
    expect(keyLabel('<')).toBe('<');
    expect(keyLabel('Escape')).toBe('Esc');
    expect(keyLabel('PageUp')).toBe('PageUp');
  });
});
