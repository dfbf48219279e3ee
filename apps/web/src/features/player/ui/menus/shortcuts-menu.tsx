import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeSyncedSettings } from '../../../../lib/sync/session.ts';
import { usePreferencesStore } from '../../../../stores/index.ts';
import {
  bindKey,
  changedActions,
  DEFAULT_BINDINGS,
  effectiveBindings,
  resetAction,
  resetAllBindings,
  SHORTCUT_ACTIONS,
  unbindableReason,
  type ShortcutAction,
  type ShortcutChange,
} from '../../core/shortcut-bindings.ts';
import { useShortcutBindings, useShortcutNames } from '../shortcut-names.ts';
import { KeyCap } from '../shortcuts-overlay.tsx';
import { MenuCard, ROW, RowError } from './menu-parts.tsx';

/** The viewer's changes as stored now (read at the moment of a change, never from an older render). */
const storedShortcuts = () => usePreferencesStore.getState().playerShortcuts;

/**
 * Keeps a change with the profile's synced settings (decision 112: `playerShortcuts`, only the changed
 * actions; null when none is left, so the defaults apply). The player's keys follow at once.
 */
const save = ({ overrides }: ShortcutChange) =>
  changeSyncedSettings({ playerShortcuts: Object.keys(overrides).length ? overrides : null });

/**
 * While `active`, takes the next key down before anything else sees it (a window listener in the capture
 * phase runs before the menu's keys and the player's shortcuts, useKeyboardShortcuts). `onKey` stops what
 * it takes; what it lets through (Tab, a modifier alone) goes on as usual.
 */
function useKeyCapture(active: boolean, onKey: (event: KeyboardEvent) => void) {
  const latest = useRef(onKey);
  useEffect(() => {
    latest.current = onKey;
  });
  useEffect(() => {
    if (!active) return;
    const listener = (event: KeyboardEvent) => latest.current(event);
    window.addEventListener('keydown', listener, true);
    return () => window.removeEventListener('keydown', listener, true);
  }, [active]);
}

/** What the panel says: one polite status line, and why a key was refused under its row. */
interface Said {
  status: string;
  problem: { action: ShortcutAction; text: string } | null;
}

/** Waiting for a key, changing, resetting: the panel's state and what it says about it. */
function useShortcutEditor(focusChange: (action: ShortcutAction) => void) {
  const { t } = useTranslation(['player']);
  const names = useShortcutNames();
  const [capturing, setCapturing] = useState<ShortcutAction | null>(null);
  const [said, setSaid] = useState<Said>({ status: '', problem: null });

  /** "K now does “Mute” instead of “Play or pause”." for each action that lost keys, else `otherwise`. */
  const outcome = (change: ShortcutChange, to: ShortcutAction, otherwise: string) =>
    change.took.length
      ? change.took
          .map(({ action, keys }) =>
            t('player.shortcuts.moved', {
              keys: names.keys(keys),
              from: names.action(action),
              to: names.action(to),
            }),
          )
          .join(' ')
      : otherwise;

  const bind = (action: ShortcutAction, key: string) => {
    const change = bindKey(storedShortcuts(), action, key);
    save(change);
    setCapturing(null);
    const keys = names.keys(effectiveBindings(change.overrides)[action]);
    const done = t('player.shortcuts.changed', { action: names.action(action), keys });
    setSaid({ status: outcome(change, action, done), problem: null });
  };

  const refuse = (action: ShortcutAction, text: string) =>
    setSaid((s) => ({ ...s, problem: { action, text } }));

  useKeyCapture(capturing !== null, (event) => {
    if (!capturing) return;
    // Tab moves focus as always (no keyboard trap); the wait ends.
    if (event.key === 'Tab') {
      setCapturing(null);
      setSaid({ status: '', problem: { action: capturing, text: t('player.shortcuts.tab') } });
      return;
    }
    const reason = event.key === 'Escape' ? null : unbindableReason(event);
    // Shift comes down before `?`, `<` and `>`: still waiting.
    if (reason === 'modifier') return;
    event.stopImmediatePropagation();
    // A chord stays the browser's (a reload, a tab switch).
    if (reason === 'withModifier') return refuse(capturing, t('player.shortcuts.withModifier'));
    event.preventDefault();
    if (event.repeat) return;
    if (event.key === 'Escape') {
      setCapturing(null);
      setSaid({ status: t('player.shortcuts.cancelled'), problem: null });
    } else if (reason === 'reserved')
      refuse(capturing, t('player.shortcuts.reserved', { key: names.key(event.key) }));
    else if (reason) refuse(capturing, t('player.shortcuts.unusable'));
    else bind(capturing, event.key);
  });

  return {
    capturing,
    said,
    start(action: ShortcutAction) {
      setCapturing(action);
      setSaid({ status: t('player.shortcuts.press', { action: names.action(action) }), problem: null });
    },
    reset(action: ShortcutAction) {
      // Its Reset button goes: focus moves to the row's Change first.
      focusChange(action);
      const change = resetAction(storedShortcuts(), action);
      save(change);
      setCapturing(null);
      const keys = names.keys(DEFAULT_BINDINGS[action]);
      const done = t('player.shortcuts.resetDone', { action: names.action(action), keys });
      setSaid({ status: outcome(change, action, done), problem: null });
    },
    resetAll() {
      focusChange(SHORTCUT_ACTIONS[0]!);
      save(resetAllBindings());
      setCapturing(null);
      setSaid({ status: t('player.shortcuts.resetAllDone'), problem: null });
    },
  };
}

/** A touch-sized button beside a row's keys. */
const ROW_BUTTON =
  'min-h-11 shrink-0 rounded-lg bg-white/10 px-3 text-sm hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-white';

/** One action: its name, its keys (text), Change, and Reset when the viewer changed it. */
function ShortcutRow({
  action,
  keys,
  isChanged,
  isCapturing,
  problem,
  onChange,
  onReset,
}: {
  action: ShortcutAction;
  keys: readonly string[];
  isChanged: boolean;
  isCapturing: boolean;
  problem: string | null;
  onChange(): void;
  onReset(): void;
}) {
  const { t } = useTranslation(['player']);
  const names = useShortcutNames();
  const problemId = useId();
  const label = names.action(action);
  return (
    <li data-testid={`shortcut-${action}`}>
      <div
        className={`flex items-center gap-2 rounded-lg py-1 ps-3 pe-1 ${isCapturing ? 'bg-white/10 ring-2 ring-accent' : ''}`}
      >
        <div className="min-w-0 flex-1 text-start">
          <span className="block text-sm">{label}</span>
          <span className="mt-1 flex flex-wrap gap-1" data-testid={`shortcut-keys-${action}`}>
            {keys.length ? (
              keys.map((k) => <KeyCap key={k} label={names.key(k)} />)
            ) : (
              <span className="text-xs text-white/60">{t('player.shortcuts.noKey')}</span>
            )}
          </span>
        </div>
        <button
          type="button"
          className={ROW_BUTTON}
          onClick={onChange}
          aria-label={t('player.shortcuts.changeFor', { action: label })}
          aria-describedby={problem ? problemId : undefined}
          data-change={action}
          data-testid={`change-${action}`}
        >
          {t('player.shortcuts.change')}
        </button>
        {isChanged && (
          <button
            type="button"
            className={ROW_BUTTON}
            onClick={onReset}
            aria-label={t('player.shortcuts.resetFor', { action: label })}
            data-testid={`reset-${action}`}
          >
            {t('player.shortcuts.reset')}
          </button>
        )}
      </div>
      {problem && <RowError id={problemId} text={problem} />}
    </li>
  );
}

/**
 * `/shortcuts`: every action with its keys, and where they are changed (issue 29). "Change" waits for the
 * next key (Escape cancels; a key that cannot be bound says why under its row) and binds it in place of
 * the action's keys, taking it from the action that had it (core/shortcut-bindings.ts); the polite status
 * line at the top says so. Controls, not choices: a panel (a dialog), walked with the arrows or Tab.
 */
export function ShortcutsMenu({ onClose }: { onClose(): void }) {
  const { t } = useTranslation(['player']);
  const names = useShortcutNames();
  const { overrides, bindings } = useShortcutBindings();
  const list = useRef<HTMLUListElement>(null);
  const focusChange = (action: ShortcutAction) =>
    list.current?.querySelector<HTMLElement>(`[data-change="${action}"]`)?.focus();
  const editor = useShortcutEditor(focusChange);
  const changed = changedActions(overrides);
  return (
    <MenuCard
      title={t('player.shortcuts.title')}
      testId="shortcuts-list"
      back={{ label: t('player.menu.close'), go: onClose }}
      panel
    >
      <p
        role="status"
        className="sticky top-0 z-10 -mx-2 -mt-2 mb-1 bg-neutral-900 px-5 py-2 text-sm text-white/90 empty:py-0"
        data-testid="shortcuts-status"
      >
        {editor.said.status}
      </p>
      <ul ref={list} className="flex flex-col gap-1">
        {SHORTCUT_ACTIONS.map((action) => (
          <ShortcutRow
            key={action}
            action={action}
            keys={bindings[action]}
            isChanged={changed.includes(action)}
            isCapturing={editor.capturing === action}
            problem={editor.said.problem?.action === action ? editor.said.problem.text : null}
            onChange={() => editor.start(action)}
            onReset={() => editor.reset(action)}
          />
        ))}
        <li className="flex items-center gap-2 py-2 ps-3 pe-1 text-sm">
          <span className="flex-1 text-start">{t('player.shortcuts.close')}</span>
          <KeyCap label={names.key('Escape')} />
        </li>
      </ul>
      {changed.length > 0 && (
        <button type="button" className={ROW} onClick={editor.resetAll} data-testid="reset-all-shortcuts">
          {t('player.shortcuts.resetAll')}
        </button>
      )}
      {bindings.help.length > 0 && (
        <p className="px-3 py-2 text-xs text-white/60">
          {t('player.shortcuts.holdHint', { key: names.keys(bindings.help) })}
        </p>
      )}
    </MenuCard>
  );
}
