import type { QueryClient } from '@tanstack/react-query';
import { saveSettings, type SaveResult, type SettingsValues } from './save-settings.ts';

/**
 * What the settings page asks of the outside world: saving the form. The page is handed one (tests pass
 * a fake); the app's is `settingsService`, which saves section by section (`saveSettings`).
 */
export interface SettingsService {
  /** Saves what differs between `values` and `saved`; says which sections were saved and which failed. */
  save(values: SettingsValues, saved: SettingsValues): Promise<SaveResult>;
}

/** The app's settings service: `saveSettings`, refreshing the device list through `queryClient`. */
export function settingsService(queryClient: QueryClient): SettingsService {
  return { save: (values, saved) => saveSettings(values, saved, { queryClient }) };
}
