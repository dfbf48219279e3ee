import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { applyTheme } from '../../lib/theme.ts';
import { THEMES, usePreferencesStore, type PreferencesData } from '../../stores/index.ts';
import { Section } from './settings-ui.tsx';

type Theme = PreferencesData['theme'];

/** Live preview of the draft's theme while the page shows; the saved one comes back on leaving. */
export function useThemePreview(theme: Theme) {
  useEffect(() => {
    applyTheme(theme);
  }, [theme]);
  useEffect(() => () => applyTheme(usePreferencesStore.getState().theme), []);
}

/** Appearance: the themes as one radio group; the saved one is marked active. */
export function AppearanceSection({
  theme,
  savedTheme,
  onChange,
}: {
  /** The draft's theme (null: the default). */
  theme: Theme;
  savedTheme: Theme;
  onChange(theme: Theme): void;
}) {
  const { t } = useTranslation(['settings']);
  return (
    <Section id="appearance" title={t('settings.appearance.title')}>
      <div
        className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-5"
        role="radiogroup"
        aria-label={t('settings.appearance.title')}
      >
        {THEMES.map((name) => {
          const value = name === 'default' ? null : name;
          const active = theme === value;
          return (
            <button
              key={name}
              type="button"
              role="radio"
              aria-checked={active}
              onClick={() => onChange(value)}
              className={`theme-${name} flex flex-col items-start gap-3 rounded-xl border-2 bg-surface-1 p-4 text-start ${active ? 'border-accent' : 'border-transparent hover:border-white/10'}`}
              data-testid={`theme-${name}`}
            >
              <span className="h-8 w-full rounded-md bg-accent" />
              <span className="font-semibold text-fg">{t(`settings.appearance.themes.${name}`)}</span>
              {value === savedTheme && (
                <span className="rounded-full bg-accent/20 px-2 py-0.5 text-xs text-fg-accent">
                  {t('settings.appearance.active')}
                </span>
              )}
            </button>
          );
        })}
      </div>
    </Section>
  );
}
