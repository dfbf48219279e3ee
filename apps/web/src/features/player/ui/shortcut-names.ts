import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { listFormat } from '../../../lib/intl.ts';
import { usePreferencesStore } from '../../../stores/index.ts';
import { effectiveBindings, keyLabel, type ShortcutAction } from '../core/shortcut-bindings.ts';

/** The viewer's stored changes and every action's keys as they act now (core/shortcut-bindings.ts). */
export function useShortcutBindings() {
  const overrides = usePreferencesStore((s) => s.playerShortcuts);
  const bindings = useMemo(() => effectiveBindings(overrides), [overrides]);
  return { overrides, bindings };
}

/** Actions and keys as the shortcut panel and the held overlay name them, in the interface language. */
export function useShortcutNames() {
  const { t, i18n } = useTranslation(['player']);
  return useMemo(() => {
    const key = (k: string) => keyLabel(k, t('player.shortcuts.spaceKey'));
    return {
      action: (action: ShortcutAction) => t(`player.shortcuts.${action}`),
      key,
      /** Keys in a sentence: "Space or K"; "No key" for none. */
      keys: (keys: readonly string[]) =>
        keys.length
          ? listFormat(i18n.language, { type: 'disjunction' }).format(keys.map(key))
          : t('player.shortcuts.noKey'),
    };
  }, [t, i18n.language]);
}
