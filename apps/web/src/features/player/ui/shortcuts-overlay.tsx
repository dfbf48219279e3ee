import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SHORTCUT_ACTIONS } from '../core/shortcut-bindings.ts';
import { usePlayerUi } from '../core/ui-store.ts';
import { useShortcutBindings, useShortcutNames } from './shortcut-names.ts';

/** A key as a key cap. */
export function KeyCap({ label }: { label: string }) {
  return (
    <kbd className="inline-flex min-w-6 justify-center rounded bg-white/15 px-1.5 py-0.5 font-mono text-xs">
      {label}
    </kbd>
  );
}

/**
 * Every shortcut over the video while the help key is held (keyboard-shortcuts.ts `helpKeyHold`).
 * Nothing in it takes focus or a click, so it is not a dialog: it is a labelled region inside a polite
 * live region that is always mounted (a live region added with its content is not announced), so a
 * screen reader reads the list once it appears without moving focus, after what it is saying. One column
 * on a phone, two once the player is wide (a container query: a watch party's player is narrower than
 * the window); it fades in only when the viewer allows motion.
 */
export function ShortcutsOverlay() {
  const { t } = useTranslation(['player']);
  const held = usePlayerUi((s) => s.shortcutsHeld);
  const { bindings } = useShortcutBindings();
  const names = useShortcutNames();
  const titleId = useId();
  return (
    <div aria-live="polite">
      {held && (
        <section
          aria-labelledby={titleId}
          className="@container pointer-events-none absolute inset-0 z-40 flex items-center justify-center bg-black/50 p-4 transition-opacity duration-150 starting:opacity-0 motion-reduce:transition-none"
          data-testid="shortcuts-overlay"
        >
          <div className="max-h-full w-full max-w-4xl overflow-hidden rounded-xl bg-neutral-900/90 p-4 text-start text-white shadow-2xl @2xl:p-6">
            <h2 id={titleId} className="mb-3 text-base font-bold @5xl:text-lg">
              {t('player.shortcuts.title')}
            </h2>
            <dl className="grid grid-cols-1 gap-x-10 gap-y-1.5 text-sm @2xl:grid-cols-2 @5xl:text-base">
              {SHORTCUT_ACTIONS.map((action) => (
                <div key={action} className="flex items-center justify-between gap-3">
                  <dt className="min-w-0 text-white/85">{names.action(action)}</dt>
                  <dd className="flex shrink-0 gap-1" data-testid={`held-keys-${action}`}>
                    {bindings[action].length ? (
                      bindings[action].map((k) => <KeyCap key={k} label={names.key(k)} />)
                    ) : (
                      <span className="text-white/60">{t('player.shortcuts.noKey')}</span>
                    )}
                  </dd>
                </div>
              ))}
              <div className="flex items-center justify-between gap-3">
                <dt className="min-w-0 text-white/85">{t('player.shortcuts.close')}</dt>
                <dd className="flex shrink-0 gap-1">
                  <KeyCap label={names.key('Escape')} />
                </dd>
              </div>
            </dl>
          </div>
        </section>
      )}
    </div>
  );
}
