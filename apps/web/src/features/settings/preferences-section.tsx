import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { numberFormat } from '../../lib/intl.ts';
import { AUDIO_LANGUAGES, audioLanguageOf, LANGUAGES, languageNames } from '../../lib/languages.ts';
import { cleanProxyList } from '../../lib/proxy-entries.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { looksLikeTv, TV_MODE_SETTINGS, type TvModeSetting } from '../../lib/tv/tv-mode.ts';
import { WATCHED_SHARE, WATCHED_THRESHOLD_CHOICES } from '../../stores/library/history-rules.ts';
import { STILL_WATCHING_CHOICES, type StillWatching } from '../../stores/player-settings-rules.ts';
import type { SettingsValues } from './save-settings.ts';
import { Section, SelectSetting, Toggle } from './settings-ui.tsx';
import { SourceOrderSetting } from './source-order.tsx';
import type { EditSettings } from './use-settings-draft.ts';

/** A language as the language pickers show it: its own name, and its name in the UI language when different. */
function languageLabel(code: string, uiLanguage: string) {
  const names = languageNames(code, uiLanguage);
  return names.native === names.local ? names.native : `${names.native} — ${names.local}`;
}

/**
 * The preferred audio language of library titles: the UI language's (the default, which follows the UI
 * language when it changes) or one of the UI languages' own. Synced like the UI language.
 */
function AudioLanguageSetting({
  value,
  uiLanguage,
  onChange,
}: {
  value: string | null;
  uiLanguage: string;
  onChange(value: string | null): void;
}) {
  const { t, i18n } = useTranslation(['settings']);
  const followed = languageNames(audioLanguageOf(uiLanguage), i18n.language).local;
  return (
    <SelectSetting
      id="settings-audio-language"
      label={t('settings.preferences.audioLanguage')}
      value={value ?? ''}
      options={[
        { value: '', label: t('settings.preferences.audioLanguageDefault', { language: followed }) },
        ...AUDIO_LANGUAGES.map((code) => ({
          value: code,
          label: languageLabel(code, i18n.language),
          lang: code,
        })),
      ]}
      onChange={(v) => onChange(v || null)}
      notes={[{ id: 'settings-audio-language-note', text: t('settings.preferences.audioLanguageNote') }]}
      testId="audio-language-select"
    />
  );
}

/**
 * When a movie or an episode counts as watched (a play in the history): a share of its length, 90 % by
 * default, 100 % only at the end. Synced per profile. A share set elsewhere that is not one of the
 * choices (another client's) is shown as it is until another is chosen.
 */
function WatchedThresholdSetting({ value, onChange }: { value: number; onChange(value: number): void }) {
  const { t, i18n } = useTranslation(['settings']);
  const percent = numberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  const choices: readonly number[] = WATCHED_THRESHOLD_CHOICES.includes(
    value as (typeof WATCHED_THRESHOLD_CHOICES)[number],
  )
    ? WATCHED_THRESHOLD_CHOICES
    : [...WATCHED_THRESHOLD_CHOICES, value].sort((a, b) => a - b);
  const label = (share: number) => {
    const text = percent.format(share);
    if (share === WATCHED_SHARE) return t('settings.preferences.watchedThresholdDefault', { percent: text });
    if (share === 1) return t('settings.preferences.watchedThresholdFinished', { percent: text });
    return text;
  };
  return (
    <SelectSetting
      id="settings-watched-threshold"
      label={t('settings.preferences.watchedThreshold')}
      value={String(value)}
      options={choices.map((share) => ({ value: String(share), label: label(share) }))}
      onChange={(v) => onChange(Number(v))}
      notes={[
        { id: 'settings-watched-threshold-note', text: t('settings.preferences.watchedThresholdNote') },
      ]}
      testId="watched-threshold-select"
    />
  );
}

const TV_MODE_LABELS = {
  auto: 'settings.preferences.tvModeAuto',
  on: 'settings.preferences.tvModeOn',
  off: 'settings.preferences.tvModeOff',
} as const satisfies Record<TvModeSetting, string>;

/**
 * TV mode (docs/decisions/114-tv-mode.md): the 10-foot layout, automatic (on in TV browsers; the note says
 * whether this one was taken for one), on or off. A setting of this device: it is about its screen.
 */
function TvModeChoice({ value, onChange }: { value: TvModeSetting; onChange(value: TvModeSetting): void }) {
  const { t } = useTranslation(['settings']);
  // The browser does not change while the page is open: asked once.
  const [isTv] = useState(() => looksLikeTv(typeof navigator === 'undefined' ? '' : navigator.userAgent));
  return (
    <SelectSetting
      id="settings-tv-mode"
      label={t('settings.preferences.tvMode')}
      value={value}
      options={TV_MODE_SETTINGS.map((setting) => ({ value: setting, label: t(TV_MODE_LABELS[setting]) }))}
      onChange={(v) => onChange(v as TvModeSetting)}
      notes={[
        { id: 'settings-tv-mode-note', text: t('settings.preferences.tvModeNote') },
        {
          id: 'settings-tv-mode-detected',
          text: isTv ? t('settings.preferences.tvModeDetected') : t('settings.preferences.tvModeNotDetected'),
          testId: 'tv-mode-detected',
        },
      ]}
      testId="tv-mode-select"
    />
  );
}

const stillWatchingValue = (v: StillWatching) => `${v.episodes}:${v.minutes}`;

/**
 * When the player asks "Are you still watching?" (decision 112): never, or after a number of episodes
 * started on their own or a time played without input, whichever comes first. Synced per profile; a
 * value another client set that is not one of the choices is shown as it is.
 */
function StillWatchingSetting({
  value,
  onChange,
}: {
  value: StillWatching;
  onChange(v: StillWatching): void;
}) {
  const { t, i18n } = useTranslation(['settings']);
  const choices = STILL_WATCHING_CHOICES.some((c) => stillWatchingValue(c) === stillWatchingValue(value))
    ? STILL_WATCHING_CHOICES
    : [...STILL_WATCHING_CHOICES, value];
  const duration = (minutes: number) =>
    minutes % 60 === 0
      ? numberFormat(i18n.language, { style: 'unit', unit: 'hour', unitDisplay: 'long' }).format(minutes / 60)
      : numberFormat(i18n.language, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(minutes);
  const label = (c: StillWatching) => {
    if (!c.episodes && !c.minutes) return t('settings.preferences.stillWatchingNever');
    if (!c.minutes) return t('settings.preferences.stillWatchingEpisodes', { count: c.episodes });
    if (!c.episodes) return t('settings.preferences.stillWatchingTime', { duration: duration(c.minutes) });
    return t('settings.preferences.stillWatchingEither', {
      count: c.episodes,
      duration: duration(c.minutes),
    });
  };
  return (
    <SelectSetting
      id="settings-still-watching"
      label={t('settings.preferences.stillWatching')}
      value={stillWatchingValue(value)}
      options={choices.map((c) => ({ value: stillWatchingValue(c), label: label(c) }))}
      onChange={(v) => onChange(choices.find((c) => stillWatchingValue(c) === v) ?? value)}
      notes={[{ id: 'settings-still-watching-note', text: t('settings.preferences.stillWatchingNote') }]}
      testId="still-watching-select"
    />
  );
}

/**
 * Preferences: the UI and audio languages, TV mode, thumbnails, autoplay (only where the instance allows it or
 * the draft has custom proxies), when a title counts as watched, the player's pause overlay and "Are you
 * still watching?", and the source order.
 */
export function PreferencesSection({ draft, edit }: { draft: SettingsValues; edit: EditSettings }) {
  const { t, i18n } = useTranslation(['settings']);
  const autoplayAllowed =
    runtimeConfig().allowAutoplay || (draft.proxyEnabled && cleanProxyList(draft.proxyUrls).length > 0);
  return (
    <Section id="preferences" title={t('settings.preferences.title')}>
      <div className="flex flex-col gap-4">
        <SelectSetting
          id="settings-language"
          label={t('settings.preferences.language')}
          value={draft.language}
          options={LANGUAGES.map((code) => ({
            value: code,
            label: languageLabel(code, i18n.language),
            lang: code,
          }))}
          onChange={(language) => edit({ language })}
          notes={[{ id: 'settings-language-note', text: t('settings.preferences.languageNote') }]}
          testId="language-select"
        />
        <AudioLanguageSetting
          value={draft.audioLanguage}
          uiLanguage={draft.language}
          onChange={(audioLanguage) => edit({ audioLanguage })}
        />
        <TvModeChoice value={draft.tvMode} onChange={(tvMode) => edit({ tvMode })} />
        <Toggle
          id="settings-thumbnails"
          label={t('settings.preferences.thumbnails')}
          description={t('settings.preferences.thumbnailsText')}
          checked={draft.enableThumbnails}
          onChange={(v) => edit({ enableThumbnails: v })}
        />
        <Toggle
          id="settings-autoplay"
          label={t('settings.preferences.autoplay')}
          description={
            autoplayAllowed
              ? t('settings.preferences.autoplayText')
              : t('settings.preferences.autoplayUnavailable')
          }
          checked={draft.enableAutoplay && autoplayAllowed}
          disabled={!autoplayAllowed}
          onChange={(v) => edit({ enableAutoplay: v })}
        />
        <WatchedThresholdSetting
          value={draft.watchedThreshold}
          onChange={(watchedThreshold) => edit({ watchedThreshold })}
        />
        <Toggle
          id="settings-hide-spoilers"
          label={t('settings.preferences.hideSpoilers')}
          description={t('settings.preferences.hideSpoilersText')}
          checked={draft.hideSpoilers}
          onChange={(v) => edit({ hideSpoilers: v })}
        />
        <Toggle
          id="settings-hide-watched"
          label={t('settings.preferences.hideWatched')}
          description={t('settings.preferences.hideWatchedText')}
          checked={draft.hideWatchedInDiscover}
          onChange={(v) => edit({ hideWatchedInDiscover: v })}
        />
        <Toggle
          id="settings-pause-overlay"
          label={t('settings.preferences.pauseOverlay')}
          description={t('settings.preferences.pauseOverlayText')}
          checked={draft.enablePauseOverlay}
          onChange={(v) => edit({ enablePauseOverlay: v })}
        />
        <StillWatchingSetting
          value={draft.stillWatching}
          onChange={(stillWatching) => edit({ stillWatching })}
        />
        <SourceOrderSetting enabled={draft.enableSourceOrder} order={draft.sourceOrder} onChange={edit} />
      </div>
    </Section>
  );
}
