import { useQueryClient } from '@tanstack/react-query';
import { CloseIcon } from '../../components/close-icon.tsx';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { APP_VERSION } from '@marquee/contract/values';
import { Button } from '../../components/button.tsx';
import { firstErrorKey } from '../../lib/account/form-resolver.ts';
import { useDeviceName } from '../../lib/account/use-device-name.ts';
import { accountBaseUrl } from '../../lib/api/index.ts';
import {
  AUDIO_LANGUAGES,
  audioLanguageOf,
  LANGUAGES,
  languageNames,
  startLanguage,
} from '../../lib/languages.ts';
import { cleanProxyList, parseProxyEntry, testProxy, type ProxyTestResult } from '../../lib/proxy-entries.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { applyTheme } from '../../lib/theme.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import {
  SUBTITLE_COLORS,
  THEMES,
  clampStyling,
  useAccountStore,
  usePreferencesStore,
  useSubtitlesStore,
  type SubtitleStyling,
} from '../../stores/index.ts';
import { AccountSection } from './account-section.tsx';
import { emailDraftOf, EmailAccountSection, MembershipSection, SecuritySection } from './email-sections.tsx';
import { saveSettings, type SaveResult, type SettingsValues } from './save-settings.ts';
import {
  saveResultText,
  SETTINGS_ERROR_ORDER,
  settingsErrorInput,
  settingsErrorSection,
  settingsResolver,
} from './settings-form.ts';
import { Section, Slider, Toggle } from './settings-ui.tsx';
import { SourceOrderSetting } from './source-order.tsx';

const INPUT =
  'w-full rounded-lg border border-white/10 bg-surface-1 px-3 py-2 text-fg placeholder:text-fg-muted focus:border-accent focus:outline-none';

type Draft = SettingsValues;

/** What is saved now, in the draft's shape. */
function useSaved(): Draft {
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
      enableAutoplay: prefs.enableAutoplay,
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
      prefs.enableAutoplay,
      prefs.enableSourceOrder,
      prefs.sourceOrder,
      styling,
      proxyUrls,
      backendUrl,
    ],
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function ProxyRow({
  value,
  onChange,
  onRemove,
  index,
  refused,
}: {
  value: string;
  onChange: (v: string) => void;
  onRemove: () => void;
  index: number;
  /** Save refused this entry (it is not a valid URL). */
  refused: boolean;
}) {
  const { t } = useTranslation(['settings']);
  const [result, setResult] = useState<ProxyTestResult | 'testing' | null>(null);
  const invalid = value.trim() !== '' && parseProxyEntry(value) === null;
  const message = invalid || refused ? 'invalidUrl' : result;
  const messageId = `proxy-${index}-message`;
  return (
    <li className="flex flex-col gap-1">
      <div className="flex gap-2">
        <label htmlFor={`proxy-${index}`} className="sr-only">
          {t('settings.connections.proxyUrl', { number: index + 1 })}
        </label>
        <input
          id={`proxy-${index}`}
          value={value}
          aria-invalid={message === 'invalidUrl' || undefined}
          aria-describedby={message && message !== 'testing' ? messageId : undefined}
          onChange={(e) => {
            onChange(e.target.value);
            setResult(null);
          }}
          placeholder={t('settings.connections.proxyPlaceholder')}
          className={INPUT}
          dir="ltr"
        />
        <Button
          variant="secondary"
          disabled={!value.trim() || result === 'testing'}
          onClick={() => {
            setResult('testing');
            void testProxy(value).then(setResult);
          }}
        >
          {t('settings.connections.test')}
        </Button>
        <Button
          variant="ghost"
          onClick={onRemove}
          aria-label={t('settings.connections.removeProxy', { number: index + 1 })}
        >
          <CloseIcon />
        </Button>
      </div>
      {message && message !== 'testing' && (
        <p
          id={messageId}
          className={`text-sm ${message === 'ok' ? 'text-green-300' : 'text-red-300'}`}
          role={message === 'ok' ? 'status' : 'alert'}
          data-testid={messageId}
        >
          {t(`settings.connections.proxyResult.${message}`)}
        </p>
      )}
    </li>
  );
}

function CaptionPreview({ styling }: { styling: SubtitleStyling }) {
  const { t } = useTranslation(['settings']);
  return (
    <div
      className="flex h-40 items-end justify-center rounded-xl bg-gradient-to-br from-indigo-900 via-slate-800 to-amber-800 p-6"
      aria-hidden="true"
    >
      <span
        className="rounded px-2 py-1 text-center"
        style={{
          color: styling.color,
          fontSize: `${1.5 * styling.size}em`,
          fontWeight: styling.bold ? 700 : 400,
          backgroundColor: `rgba(0,0,0,${styling.backgroundOpacity})`,
          backdropFilter: styling.backgroundBlur
            ? `blur(${Math.round(styling.backgroundBlur * 64)}px)`
            : undefined,
        }}
      >
        {t('settings.captions.sample')}
      </span>
    </div>
  );
}

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
    <div className="rounded-xl bg-surface-1 p-4">
      <label htmlFor="settings-audio-language" className="mb-2 block font-semibold text-fg">
        {t('settings.preferences.audioLanguage')}
      </label>
      <select
        id="settings-audio-language"
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value || null)}
        aria-describedby="settings-audio-language-note"
        className={INPUT}
        data-testid="audio-language-select"
      >
        <option value="">{t('settings.preferences.audioLanguageDefault', { language: followed })}</option>
        {AUDIO_LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {languageLabel(code, i18n.language)}
          </option>
        ))}
      </select>
      <p id="settings-audio-language-note" className="mt-2 text-sm text-fg-muted">
        {t('settings.preferences.audioLanguageNote')}
      </p>
    </div>
  );
}

const SECTIONS = ['account', 'preferences', 'appearance', 'captions', 'connections'] as const;
/** Email accounts: account, membership and security first; the sidebar shows one section at a time. */
const EMAIL_SECTIONS = [
  'account',
  'membership',
  'security',
  'preferences',
  'appearance',
  'captions',
  'connections',
] as const;
type SectionId = (typeof EMAIL_SECTIONS)[number];

/**
 * `/settings`: every edit is a draft until Save; Reset throws the draft away.
 * The form (react-hook-form) holds the draft; `saveSettings` saves it section by section and says which
 * sections were saved and which failed, which the page tells the user (and keeps the unsaved values).
 */
export function SettingsPage() {
  const { t, i18n } = useTranslation(['accountSettings', 'auth', 'customer', 'errors', 'settings']);
  const { t: tResult } = useTranslation(['errors', 'settings']);
  usePageTitle(t('settings.title'));
  const queryClient = useQueryClient();
  const config = runtimeConfig();
  const saved = useSaved();
  const resolver = useMemo(() => settingsResolver(saved), [saved]);
  const form = useForm<Draft>({ defaultValues: saved, resolver, shouldFocusError: false });
  const draft = useWatch({ control: form.control }) as Draft;
  const { isDirty, isSubmitting, errors } = form.formState;
  const [result, setResult] = useState<SaveResult | null>(null);
  const resultRef = useRef<HTMLParagraphElement>(null);
  const account = useAccountStore((s) => s.account);
  const oneAtATime = account?.kind === 'email';
  // Memberships exist only where the instance takes payments (the variant decides what is offered).
  const sections: readonly SectionId[] = oneAtATime
    ? EMAIL_SECTIONS.filter((id) => id !== 'membership' || config.paymentGateway)
    : SECTIONS;
  const { hash } = useLocation();
  const hashSection = hash.slice(1) as SectionId;
  const [chosen, setChosen] = useState<SectionId | null>(null);
  const active: SectionId = chosen ?? (sections.includes(hashSection) ? hashSection : 'account');
  const on = Object.fromEntries(EMAIL_SECTIONS.map((id) => [id, !oneAtATime || active === id])) as Record<
    SectionId,
    boolean
  >;
  const errorKey = firstErrorKey(errors, SETTINGS_ERROR_ORDER);
  const deviceError = errorKey === 'accountSettings.deviceLengthError';

  // Until the user edits something, the draft follows what is saved (the device name decrypts late; a sync may land).
  useEffect(() => {
    if (!isDirty) form.reset(saved);
  }, [saved, isDirty, form]);
  const edit = (patch: Partial<Draft>) => {
    setResult(null);
    for (const [name, value] of Object.entries(patch)) {
      form.setValue(name as keyof Draft, value as never, { shouldDirty: true });
      // A message about a field goes once the field changes (the next save checks again).
      form.clearErrors(name as keyof Draft);
    }
  };
  // Only the viewer's own edits count: a draft that differs while it is not edited (a sign-out or a sync
  // landing during a save) is about to follow what is saved (the effect above), not an unsaved change.
  const changed = isDirty && !same(draft, saved);

  // Live preview of the theme while here; the saved one comes back on leaving.
  useEffect(() => {
    applyTheme(draft.theme);
  }, [draft.theme]);
  useEffect(() => () => applyTheme(usePreferencesStore.getState().theme), []);

  // The outcome of a save is announced and focused, so keyboard and screen-reader users land on it.
  useEffect(() => {
    if (result) resultRef.current?.focus();
  }, [result]);

  const reset = () => {
    form.reset(saved);
    setResult(null);
  };

  const onInvalid = (problems: FieldErrors<Draft>) => {
    setResult(null);
    const key = firstErrorKey(problems, SETTINGS_ERROR_ORDER);
    if (oneAtATime && key) setChosen(settingsErrorSection(key));
    // After the section shows: the field with the problem takes the focus.
    const values = form.getValues();
    if (key) setTimeout(() => document.getElementById(settingsErrorInput(key, values))?.focus());
  };

  const save = form.handleSubmit(async () => {
    setResult(null);
    const values = form.getValues();
    const outcome = await saveSettings(values, saved, { queryClient });
    // Everything saved: the draft follows what is saved again. Otherwise it keeps every value, so the
    // sections that failed can be saved again.
    if (!outcome.failed.length) form.reset(values);
    // A new server signs out, but the viewer stays here and reads the outcome (no jump to /).
    setResult(outcome);
  }, onInvalid);

  const autoplayAllowed =
    config.allowAutoplay || (draft.proxyEnabled && cleanProxyList(draft.proxyUrls).length > 0);
  const percent = (v: number) => `${Math.round(v * 100)}%`;
  const setStyling = (patch: Partial<SubtitleStyling>) =>
    edit({ styling: clampStyling(patch, draft.styling) });

  return (
    <div className="flex flex-col gap-8 py-8 lg:flex-row">
      <aside className="lg:sticky lg:top-24 lg:w-56 lg:self-start">
        <h1 className="mb-4 text-3xl font-bold text-fg">{t('settings.title')}</h1>
        <nav aria-label={t('settings.title')} className="flex flex-wrap gap-2 lg:flex-col">
          {sections.map((id) => {
            const label =
              id === 'membership' || id === 'security'
                ? t(`accountSettings.sections.${id}`)
                : t(`settings.${id}.title`);
            return oneAtATime ? (
              <a
                key={id}
                href={`#${id}`}
                onClick={(e) => {
                  e.preventDefault();
                  setChosen(id);
                  window.history.replaceState(window.history.state, '', `#${id}`);
                }}
                aria-current={active === id ? 'page' : undefined}
                className={`inline-flex min-h-11 items-center rounded-lg px-3 py-2 text-sm font-semibold hover:bg-surface-2 hover:text-fg ${active === id ? 'bg-surface-2 text-fg' : 'text-fg-muted'}`}
                data-testid={`settings-nav-${id}`}
              >
                {label}
              </a>
            ) : (
              <a
                key={id}
                href={`#${id}`}
                className="inline-flex min-h-11 items-center rounded-lg px-3 py-2 text-sm font-semibold text-fg-muted hover:bg-surface-2 hover:text-fg"
              >
                {label}
              </a>
            );
          })}
        </nav>
        <dl className="mt-6 hidden space-y-1 rounded-xl bg-surface-2 p-4 text-xs text-fg-muted lg:block">
          <dt className="font-semibold text-fg">{t('settings.info.server')}</dt>
          <dd className="break-all" dir="ltr">
            {accountBaseUrl() || window.location.origin}
          </dd>
          <dt className="font-semibold text-fg">{t('settings.info.user')}</dt>
          <dd className="break-all">{account?.userId ?? t('settings.info.notLoggedIn')}</dd>
          <dt className="font-semibold text-fg">{t('settings.info.version')}</dt>
          <dd>{APP_VERSION}</dd>
        </dl>
      </aside>

      <div className="flex min-w-0 flex-1 flex-col gap-10 pb-24">
        {oneAtATime && account && draft.email ? (
          <>
            {on.account && (
              <EmailAccountSection
                account={account}
                draft={draft.email}
                setDraft={(email) => edit({ email })}
                deviceError={deviceError}
              />
            )}
            {on.membership && config.paymentGateway && <MembershipSection />}
            {on.security && <SecuritySection />}
          </>
        ) : (
          <>
            <AccountSection draft={draft.account} setDraft={(a) => edit({ account: a })} />
            {/* Either kind of account can hold a membership. */}
            {account && config.paymentGateway && <MembershipSection />}
          </>
        )}

        {on.preferences && (
          <Section id="preferences" title={t('settings.preferences.title')}>
            <div className="flex flex-col gap-4">
              <div className="rounded-xl bg-surface-1 p-4">
                <label htmlFor="settings-language" className="mb-2 block font-semibold text-fg">
                  {t('settings.preferences.language')}
                </label>
                <select
                  id="settings-language"
                  value={draft.language}
                  onChange={(e) => edit({ language: e.target.value })}
                  className={INPUT}
                  data-testid="language-select"
                >
                  {LANGUAGES.map((code) => (
                    <option key={code} value={code} lang={code}>
                      {languageLabel(code, i18n.language)}
                    </option>
                  ))}
                </select>
                <p className="mt-2 text-sm text-fg-muted">{t('settings.preferences.languageNote')}</p>
              </div>
              <AudioLanguageSetting
                value={draft.audioLanguage}
                uiLanguage={draft.language}
                onChange={(audioLanguage) => edit({ audioLanguage })}
              />
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
              <SourceOrderSetting
                enabled={draft.enableSourceOrder}
                order={draft.sourceOrder}
                onChange={edit}
              />
            </div>
          </Section>
        )}

        {on.appearance && (
          <Section id="appearance" title={t('settings.appearance.title')}>
            <div
              className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-5"
              role="radiogroup"
              aria-label={t('settings.appearance.title')}
            >
              {THEMES.map((name) => {
                const value = name === 'default' ? null : name;
                const active = draft.theme === value;
                return (
                  <button
                    key={name}
                    type="button"
                    role="radio"
                    aria-checked={active}
                    onClick={() => edit({ theme: value })}
                    className={`theme-${name} flex flex-col items-start gap-3 rounded-xl border-2 bg-surface-1 p-4 text-start ${active ? 'border-accent' : 'border-transparent hover:border-white/10'}`}
                    data-testid={`theme-${name}`}
                  >
                    <span className="h-8 w-full rounded-md bg-accent" />
                    <span className="font-semibold text-fg">{t(`settings.appearance.themes.${name}`)}</span>
                    {value === saved.theme && (
                      <span className="rounded-full bg-accent/20 px-2 py-0.5 text-xs text-fg-accent">
                        {t('settings.appearance.active')}
                      </span>
                    )}
                  </button>
                );
              })}
            </div>
          </Section>
        )}

        {on.captions && (
          <Section id="captions" title={t('settings.captions.title')}>
            <div className="flex flex-col gap-5">
              <CaptionPreview styling={draft.styling} />
              <Slider
                id="caption-opacity"
                label={t('settings.captions.backgroundOpacity')}
                value={draft.styling.backgroundOpacity}
                min={0}
                max={1}
                step={0.01}
                format={percent}
                onChange={(v) => setStyling({ backgroundOpacity: v })}
              />
              <Slider
                id="caption-blur"
                label={t('settings.captions.backgroundBlur')}
                value={draft.styling.backgroundBlur}
                min={0}
                max={1}
                step={0.01}
                format={percent}
                onChange={(v) => setStyling({ backgroundBlur: v })}
              />
              <Slider
                id="caption-size"
                label={t('settings.captions.size')}
                value={Math.min(2, draft.styling.size)}
                min={0.01}
                max={2}
                step={0.01}
                format={percent}
                onChange={(v) => setStyling({ size: v })}
              />
              <Toggle
                id="caption-bold"
                label={t('settings.captions.bold')}
                checked={draft.styling.bold}
                onChange={(v) => setStyling({ bold: v })}
              />
              <fieldset>
                <legend className="mb-2 text-sm font-semibold text-fg">{t('settings.captions.color')}</legend>
                <div className="flex gap-2">
                  {SUBTITLE_COLORS.map((color) => (
                    <label key={color} className="flex h-11 w-11 cursor-pointer items-center justify-center">
                      <input
                        type="radio"
                        name="caption-color"
                        checked={draft.styling.color === color}
                        onChange={() => setStyling({ color })}
                        className="peer sr-only"
                      />
                      <span
                        className="block h-9 w-9 rounded-full ring-offset-2 ring-offset-bg peer-checked:ring-2 peer-checked:ring-accent peer-focus-visible:ring-2"
                        style={{ backgroundColor: color }}
                      />
                      <span className="sr-only">{t('auth.profile.colorName', { color })}</span>
                    </label>
                  ))}
                </div>
              </fieldset>
            </div>
          </Section>
        )}

        {on.connections && (
          <Section id="connections" title={t('settings.connections.title')}>
            <div className="flex flex-col gap-4">
              <Toggle
                id="settings-proxy"
                label={t('settings.connections.proxy')}
                description={t('settings.connections.proxyText')}
                checked={draft.proxyEnabled}
                // Turned on: a first empty entry to fill in.
                onChange={(v) =>
                  edit(
                    v && !draft.proxyUrls.length ? { proxyEnabled: v, proxyUrls: [''] } : { proxyEnabled: v },
                  )
                }
              />
              {draft.proxyEnabled && (
                <div className="rounded-xl bg-surface-1 p-4">
                  <ul className="flex flex-col gap-3">
                    {draft.proxyUrls.map((url, i) => (
                      <ProxyRow
                        key={i}
                        index={i}
                        value={url}
                        refused={Boolean(errors.proxyUrls?.[i])}
                        onChange={(v) =>
                          edit({ proxyUrls: draft.proxyUrls.map((u, j) => (j === i ? v : u)) })
                        }
                        onRemove={() => edit({ proxyUrls: draft.proxyUrls.filter((_, j) => j !== i) })}
                      />
                    ))}
                  </ul>
                  {errors.proxyUrls?.message && (
                    <p
                      id="proxy-list-error"
                      role="alert"
                      className="mt-3 text-sm text-red-300"
                      data-testid="proxy-list-error"
                    >
                      {t('settings.connections.proxyEmpty')}
                    </p>
                  )}
                  <Button
                    id="settings-add-proxy"
                    variant="secondary"
                    className="mt-3"
                    aria-describedby={errors.proxyUrls?.message ? 'proxy-list-error' : undefined}
                    onClick={() => edit({ proxyUrls: [...draft.proxyUrls, ''] })}
                  >
                    {t('settings.connections.addProxy')}
                  </Button>
                </div>
              )}
              <Toggle
                id="settings-server"
                label={t('settings.connections.server')}
                description={t('settings.connections.serverText')}
                checked={draft.serverEnabled}
                onChange={(v) => edit({ serverEnabled: v })}
              />
              {draft.serverEnabled && (
                <div className="rounded-xl bg-surface-1 p-4">
                  <label htmlFor="settings-server-url" className="mb-1 block text-sm font-semibold text-fg">
                    {t('settings.connections.serverUrl')}
                  </label>
                  <input
                    id="settings-server-url"
                    value={draft.serverUrl}
                    onChange={(e) => edit({ serverUrl: e.target.value })}
                    placeholder={t('settings.connections.serverPlaceholder')}
                    className={INPUT}
                    dir="ltr"
                    aria-invalid={errors.serverUrl ? true : undefined}
                    aria-describedby={errors.serverUrl ? 'server-url-error' : undefined}
                  />
                  {errors.serverUrl && (
                    <p
                      id="server-url-error"
                      role="alert"
                      className="mt-2 text-sm text-red-300"
                      data-testid="server-url-error"
                    >
                      {t('settings.connections.proxyResult.invalidUrl')}
                    </p>
                  )}
                  {account && (
                    <p className="mt-2 text-sm text-amber-300">{t('settings.connections.serverLogout')}</p>
                  )}
                </div>
              )}
            </div>
          </Section>
        )}
      </div>

      {result && (
        <div className={`fixed inset-x-0 z-40 px-4 ${changed ? 'bottom-20' : 'bottom-4'}`}>
          <p
            ref={resultRef}
            tabIndex={-1}
            role={result.failed.length ? 'alert' : 'status'}
            className={`mx-auto max-w-xl rounded-lg px-4 py-3 text-sm shadow-xl focus:outline-none focus-visible:ring-2 focus-visible:ring-accent ${result.failed.length ? 'bg-red-900/90 text-red-100' : 'bg-green-900/90 text-green-100'}`}
            data-testid="save-result"
          >
            {saveResultText(result, tResult, i18n.language)}
          </p>
        </div>
      )}
      {changed && (
        <div
          className="fixed inset-x-0 bottom-0 z-40 border-t border-white/10 bg-surface-2/95 backdrop-blur"
          data-testid="save-bar"
        >
          <div className="mx-auto flex max-w-screen-2xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
            <p className="text-sm text-fg">{errorKey ? t(errorKey) : t('settings.unsaved')}</p>
            <div className="flex gap-3">
              <Button variant="secondary" onClick={reset}>
                {t('settings.reset')}
              </Button>
              <Button onClick={() => void save()} disabled={isSubmitting}>
                {t('settings.save')}
              </Button>
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
