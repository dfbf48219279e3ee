import { useEffect, useMemo, useState } from 'react';
import { useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { firstErrorKey } from '../../lib/account/form-resolver.ts';
import { useDeviceName } from '../../lib/account/use-device-name.ts';
import { startLanguage } from '../../lib/languages.ts';
import { useAccountStore, usePreferencesStore, useSubtitlesStore } from '../../stores/index.ts';
import { emailDraftOf } from './email-sections.tsx';
import type { SaveResult, SettingsValues } from './save-settings.ts';
import { SETTINGS_ERROR_ORDER, settingsErrorInput, settingsResolver } from './settings-form.ts';
import type { SettingsService } from './settings-service.ts';

/** One of the settings form's messages (`SETTINGS_ERROR_ORDER`). */
export type SettingsErrorKey = (typeof SETTINGS_ERROR_ORDER)[number];
/** Changes some values of the draft (an unsaved edit). */
export type EditSettings = (patch: Partial<SettingsValues>) => void;

/** What is saved now, in the draft's shape. */
export function useSavedSettings(): SettingsValues {
  const account = useAccountStore((s) => s.account);
  const backendUrl = useAccountStore((s) => s.backendUrl);
  const proxyUrls = useAccountStore((s) => s.proxyUrls);
  const prefs = usePreferencesStore();
  const styling = useSubtitlesStore((s) => s.styling);
  const deviceName = useDeviceName(account);
  return useMemo(
    () => ({
      account:
        account && account.kind !== 'email'
          ? { profile: account.profile, deviceName: deviceName ?? '' }
          : null,
      email: account?.kind === 'email' ? emailDraftOf(account) : null,
      language: startLanguage(prefs.language),
      audioLanguage: prefs.audioLanguage,
      theme: prefs.theme,
      enableThumbnails: prefs.enableThumbnails,
      tvMode: prefs.tvMode,
      enableAutoplay: prefs.enableAutoplay,
      watchedThreshold: prefs.watchedThreshold,
      enablePauseOverlay: prefs.enablePauseOverlay,
      stillWatching: prefs.stillWatching,
      hideSpoilers: prefs.hideSpoilers,
      hideWatchedInDiscover: prefs.hideWatchedInDiscover,
      enableSourceOrder: prefs.enableSourceOrder,
      sourceOrder: prefs.sourceOrder,
      styling,
      proxyEnabled: proxyUrls !== null,
      proxyUrls: proxyUrls ?? [],
      serverEnabled: backendUrl !== null,
      serverUrl: backendUrl ?? '',
    }),
    [
      account,
      deviceName,
      prefs.language,
      prefs.audioLanguage,
      prefs.theme,
      prefs.enableThumbnails,
      prefs.tvMode,
      prefs.enableAutoplay,
      prefs.watchedThreshold,
      prefs.enablePauseOverlay,
      prefs.stillWatching,
      prefs.hideSpoilers,
      prefs.hideWatchedInDiscover,
      prefs.enableSourceOrder,
      prefs.sourceOrder,
      styling,
      proxyUrls,
      backendUrl,
    ],
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The settings draft: every edit is a draft until `save`; `reset` throws the draft away.
 * The form (react-hook-form) holds the draft; `service.save` saves it and says which sections were saved
 * and which failed (`result`), and the draft keeps the unsaved values. `onInvalid` hears the first problem
 * of a refused save (the page shows its section); the field with it then takes the focus.
 */
export function useSettingsDraft(service: SettingsService, onInvalid: (key: SettingsErrorKey) => void) {
  const saved = useSavedSettings();
  const resolver = useMemo(() => settingsResolver(saved), [saved]);
  const form = useForm<SettingsValues>({ defaultValues: saved, resolver, shouldFocusError: false });
  const draft = useWatch({ control: form.control }) as SettingsValues;
  const { isDirty, isSubmitting, errors } = form.formState;
  const [result, setResult] = useState<SaveResult | null>(null);

  // Until the user edits something, the draft follows what is saved (the device name decrypts late; a sync may land).
  useEffect(() => {
    if (!isDirty) form.reset(saved);
  }, [saved, isDirty, form]);
  const edit: EditSettings = (patch) => {
    setResult(null);
    for (const [name, value] of Object.entries(patch)) {
      form.setValue(name as keyof SettingsValues, value as never, { shouldDirty: true });
      // A message about a field goes once the field changes (the next save checks again).
      form.clearErrors(name as keyof SettingsValues);
    }
  };

  const reset = () => {
    form.reset(saved);
    setResult(null);
  };

  const refused = (problems: FieldErrors<SettingsValues>) => {
    setResult(null);
    const key = firstErrorKey(problems, SETTINGS_ERROR_ORDER);
    if (key) onInvalid(key);
    // After the section shows: the field with the problem takes the focus.
    const values = form.getValues();
    if (key) setTimeout(() => document.getElementById(settingsErrorInput(key, values))?.focus());
  };

  const save = form.handleSubmit(async () => {
    setResult(null);
    const values = form.getValues();
    const outcome = await service.save(values, saved);
    // Everything saved: the draft follows what is saved again. Otherwise it keeps every value, so the
    // sections that failed can be saved again.
    if (!outcome.failed.length) form.reset(values);
    // A new server signs out, but the viewer stays here and reads the outcome (no jump to /).
    setResult(outcome);
  }, refused);

  return {
    saved,
    draft,
    errors,
    /** The first message of the draft's problems, if any. */
    errorKey: firstErrorKey(errors, SETTINGS_ERROR_ORDER),
    // Only the viewer's own edits count: a draft that differs while it is not edited (a sign-out or a sync
    // landing during a save) is about to follow what is saved (the effect above), not an unsaved change.
    changed: isDirty && !same(draft, saved),
    saving: isSubmitting,
    result,
    edit,
    reset,
    save,
  };
}
