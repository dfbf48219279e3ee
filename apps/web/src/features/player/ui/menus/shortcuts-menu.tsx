import { useTranslation } from 'react-i18next';
import { MenuCard } from './menu-parts.tsx';

/** The keys and what they do (their handler: `useKeyboardShortcuts` in ../keyboard-shortcuts.ts). */
export const SHORTCUTS = [
  ['Space / K', 'playPause'],
  ['← / →', 'seek5'],
  ['J / L', 'seek10'],
  [', / .', 'frame'],
  ['↑ / ↓', 'volume'],
  ['M', 'mute'],
  ['< / >', 'speed'],
  ['F', 'fullscreen'],
  ['C', 'captions'],
  ['Esc', 'close'],
  ['R', 'roll'],
  ['?', 'help'],
] as const satisfies readonly (readonly [string, string])[];

/** `/shortcuts`: the list of keys (text, not choices: a panel). */
export function ShortcutsMenu({ onClose }: { onClose(): void }) {
  const { t } = useTranslation(['player']);
  return (
    <MenuCard
      title={t('player.shortcuts.title')}
      testId="shortcuts-list"
      back={{ label: t('player.menu.close'), go: onClose }}
      panel
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 px-3 py-2 text-sm">
        {SHORTCUTS.map(([keys, action]) => (
          <div key={action} className="contents">
            <dt>
              <kbd className="rounded bg-white/15 px-1.5 py-0.5 font-mono text-xs">{keys}</kbd>
            </dt>
            <dd className="text-white/80">{t(`player.shortcuts.${action}`)}</dd>
          </div>
        ))}
      </dl>
    </MenuCard>
  );
}
