import '../../lib/account-catalog.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { accountPaths, APP_VERSION } from '@marquee/contract';
import { updateCustomer } from '../../lib/account/customer-api.ts';
import { Button } from '../../components/button.tsx';
import { useDeviceName } from '../../lib/account/use-device-name.ts';
import { LANGUAGES, languageNames, startLanguage } from '../../lib/languages.ts';
import {
  cleanProxyList,
  normalizeServerUrl,
  parseProxyEntry,
  testProxy,
  type ProxyTestResult,
} from '../../lib/proxy-entries.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { accountBaseUrl, accountRequest } from '../../lib/sync/account-api.ts';
import { changeSyncedSettings, logout } from '../../lib/sync/session.ts';
import { applyTheme } from '../../lib/theme.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import {
  SUBTITLE_COLORS,
  THEMES,
  clampStyling,
  useAccountStore,
  usePreferencesStore,
  useSubtitlesStore,
  type PreferencesData,
  type SubtitleStyling,
} from '../../stores/index.ts';
import { AccountSection, type AccountDraft } from './account-section.tsx';
import {
  emailDraftOf,
  EmailAccountSection,
  isProfileIcon,
  MembershipSection,
  SecuritySection,
  type EmailAccountDraft,
} from './email-sections.tsx';
import { Section, Slider, Toggle } from './settings-ui.tsx';
import { SourceOrderSetting } from './source-order.tsx';

const INPUT =
  'w-full rounded-lg border border-white/10 bg-surface-1 px-3 py-2 text-fg placeholder:text-fg-muted focus:border-accent focus:outline-none';

interface Draft {
  account: AccountDraft | null;
  /** Email accounts (instead of `account`). */
  email: EmailAccountDraft | null;
  language: string;
  theme: PreferencesData['theme'];
  enableThumbnails: boolean;
  enableAutoplay: boolean;
  enableSourceOrder: boolean;
  sourceOrder: string[];
  styling: SubtitleStyling;
  proxyEnabled: boolean;
  proxyUrls: string[];
  serverEnabled: boolean;
  serverUrl: string;
}

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
}: {
  value: string;
  onChange: (v: string) => void;
  onRemove: () => void;
  index: number;
}) {
  const { t } = useTranslation();
  const [result, setResult] = useState<ProxyTestResult | 'testing' | null>(null);
  const invalid = value.trim() !== '' && parseProxyEntry(value) === null;
  const message = invalid ? 'invalidUrl' : result;
  return (
    <li className="flex flex-col gap-1">
      <div className="flex gap-2">
        <label htmlFor={`proxy-${index}`} className="sr-only">
          {t('settings.connections.proxyUrl', { number: index + 1 })}
        </label>
        <input
          id={`proxy-${index}`}
          value={value}
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
          <svg
            viewBox="0 0 24 24"
            className="h-4 w-4"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.5"
            aria-hidden="true"
          >
            <path d="M6 6l12 12M18 6 6 18" />
          </svg>
        </Button>
      </div>
      {message && message !== 'testing' && (
        <p
          className={`text-sm ${message === 'ok' ? 'text-green-300' : 'text-red-300'}`}
          role={message === 'ok' ? 'status' : 'alert'}
        >
          {t(`settings.connections.proxyResult.${message}`)}
        </p>
      )}
    </li>
  );
}

function CaptionPreview({ styling }: { styling: SubtitleStyling }) {
  const { t } = useTranslation();
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

const SECTIONS = ['account', 'preferences', 'appearance', 'captions', 'connections'] as const;
/** Email accounts (seed 001 §2): account, membership and security first; the sidebar shows one section at a time. */
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

/** Draft device names must not be empty (seed 001 §5, key deviceLengthError); an unchanged one is left alone. */
function deviceNameMissing(draft: Draft, saved: Draft): boolean {
  if (draft.email) return !draft.email.deviceName.trim();
  return Boolean(
    draft.account &&
    saved.account &&
    draft.account.deviceName !== saved.account.deviceName &&
    !draft.account.deviceName.trim(),
  );
}

/**
 * `/settings` (client-behaviour §7): every edit is a draft until Save; Reset throws the draft away.
 * Language, theme and proxy list sync to the account through the outbox; profile and device name are
 * saved on the server directly; a new account server signs out first.
 */
export function SettingsPage() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('settings.title'));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const config = runtimeConfig();
  const saved = useSaved();
  const [draft, setDraft] = useState<Draft>(saved);
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const account = useAccountStore((s) => s.account);
  const oneAtATime = account?.kind === 'email';
  const sections: readonly SectionId[] = oneAtATime ? EMAIL_SECTIONS : SECTIONS;
  const { hash } = useLocation();
  const hashSection = hash.slice(1) as SectionId;
  const [chosen, setChosen] = useState<SectionId | null>(null);
  const active: SectionId = chosen ?? (sections.includes(hashSection) ? hashSection : 'account');
  const on = Object.fromEntries(EMAIL_SECTIONS.map((id) => [id, !oneAtATime || active === id])) as Record<
    SectionId,
    boolean
  >;
  const [deviceError, setDeviceError] = useState(false);

  // Until the user edits something, the draft follows what is saved (the device name decrypts late; a sync may land).
  useEffect(() => {
    if (!touched) setDraft(saved);
  }, [saved, touched]);
  const edit = (patch: Partial<Draft>) => {
    setTouched(true);
    setDraft((d) => ({ ...d, ...patch }));
  };
  const changed = !same(draft, saved);

  // Live preview of the theme while here; the saved one comes back on leaving.
  useEffect(() => {
    applyTheme(draft.theme);
  }, [draft.theme]);
  useEffect(() => () => applyTheme(usePreferencesStore.getState().theme), []);

  const reset = () => {
    setDraft(saved);
    setTouched(false);
    setError(null);
    setDeviceError(false);
  };

  const save = async () => {
    setError(null);
    if (deviceNameMissing(draft, saved)) {
      setDeviceError(true);
      if (oneAtATime) setChosen('account');
      return setError(t('accountSettings.deviceLengthError'));
    }
    if (draft.email && !draft.email.fullname.trim()) {
      if (oneAtATime) setChosen('account');
      return setError(t('customer.errors.fullnameRequired'));
    }
    setDeviceError(false);
    setSaving(true);
    try {
      const serverUrl = draft.serverEnabled ? normalizeServerUrl(draft.serverUrl) || null : null;
      const serverChanged = serverUrl !== (saved.serverEnabled ? saved.serverUrl : null);
      if (serverChanged) {
        // Another account server: this account does not live there.
        await logout();
        useAccountStore.getState().setBackendUrl(serverUrl);
      }
      const synced: Parameters<typeof changeSyncedSettings>[0] = {};
      if (draft.language !== saved.language) synced.applicationLanguage = draft.language;
      if (draft.theme !== saved.theme) synced.applicationTheme = draft.theme;
      const proxies = draft.proxyEnabled ? cleanProxyList(draft.proxyUrls) : null;
      if (!same(proxies, saved.proxyEnabled ? saved.proxyUrls : null)) synced.proxyUrls = proxies;
      if (draft.enableAutoplay !== saved.enableAutoplay) synced.enableAutoplay = draft.enableAutoplay;
      if (!same(draft.styling, saved.styling)) synced.subtitleStyling = draft.styling;
      if (Object.keys(synced).length) changeSyncedSettings(synced);
      usePreferencesStore.getState().setPreferences({
        enableThumbnails: draft.enableThumbnails,
        enableSourceOrder: draft.enableSourceOrder,
        sourceOrder: draft.sourceOrder,
      });

      const current = useAccountStore.getState().account;
      if (!serverChanged && current && draft.email && saved.email) {
        const { fullname, icon, deviceName } = draft.email;
        if (fullname.trim() !== saved.email.fullname || icon !== saved.email.icon) {
          // The answer's user replaces the stored one.
          await updateCustomer({ fullname: fullname.trim(), ...(isProfileIcon(icon) ? { icon } : {}) });
        }
        if (deviceName.trim() !== saved.email.deviceName) {
          await accountRequest('PATCH', accountPaths.session, {
            params: { sid: current.sessionId },
            body: { deviceName: deviceName.trim() },
          });
          useAccountStore.getState().updateAccount({ deviceName: deviceName.trim() });
        }
      }
      if (!serverChanged && current && draft.account && saved.account) {
        if (!same(draft.account.profile, saved.account.profile)) {
          await accountRequest('PATCH', accountPaths.user, {
            params: { uid: current.userId },
            body: { profile: draft.account.profile },
          });
          useAccountStore.getState().updateAccount({ profile: draft.account.profile });
        }
        const name = draft.account.deviceName.trim();
        if (name && name !== saved.account.deviceName) {
          const { accountDeviceKey, encryptDeviceName } = await import('../../lib/account/device-name.ts');
          // The seed, or its key in IndexedDB (decision 074); gone only if the site's storage was cleared.
          const key = await accountDeviceKey(current);
          if (!key) throw new Error('no device-name key');
          const blob = await encryptDeviceName(name, key);
          await accountRequest('PATCH', accountPaths.session, {
            params: { sid: current.sessionId },
            body: { deviceName: blob },
          });
          useAccountStore.getState().updateAccount({ deviceName: blob });
        }
      }
      setTouched(false);
      // The device list shows this device's new name.
      void queryClient.invalidateQueries({ queryKey: ['sessions'] });
      if (serverChanged) void navigate('/');
    } catch {
      setError(t('global.generic'));
    } finally {
      setSaving(false);
    }
  };

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
                className={`rounded-lg px-3 py-2 text-sm font-semibold hover:bg-surface-2 hover:text-fg ${active === id ? 'bg-surface-2 text-fg' : 'text-fg-muted'}`}
                data-testid={`settings-nav-${id}`}
              >
                {label}
              </a>
            ) : (
              <a
                key={id}
                href={`#${id}`}
                className="rounded-lg px-3 py-2 text-sm font-semibold text-fg-muted hover:bg-surface-2 hover:text-fg"
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
            {on.membership && <MembershipSection />}
            {on.security && <SecuritySection />}
          </>
        ) : (
          <>
            <AccountSection draft={draft.account} setDraft={(a) => edit({ account: a })} />
            {/* Either kind of account can hold a membership (PRODUCT.md §2). */}
            {account && config.variant === 'subscription' && <MembershipSection />}
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
                  {LANGUAGES.map((code) => {
                    const names = languageNames(code, i18n.language);
                    return (
                      <option key={code} value={code} lang={code}>
                        {names.native === names.local ? names.native : `${names.native} — ${names.local}`}
                      </option>
                    );
                  })}
                </select>
                <p className="mt-2 text-sm text-fg-muted">{t('settings.preferences.languageNote')}</p>
              </div>
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
                    <label key={color} className="cursor-pointer">
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
                onChange={(v) => edit({ proxyEnabled: v })}
              />
              {draft.proxyEnabled && (
                <div className="rounded-xl bg-surface-1 p-4">
                  <ul className="flex flex-col gap-3">
                    {draft.proxyUrls.map((url, i) => (
                      <ProxyRow
                        key={i}
                        index={i}
                        value={url}
                        onChange={(v) =>
                          edit({ proxyUrls: draft.proxyUrls.map((u, j) => (j === i ? v : u)) })
                        }
                        onRemove={() => edit({ proxyUrls: draft.proxyUrls.filter((_, j) => j !== i) })}
                      />
                    ))}
                  </ul>
                  <Button
                    variant="secondary"
                    className="mt-3"
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
                  />
                  {account && (
                    <p className="mt-2 text-sm text-amber-300">{t('settings.connections.serverLogout')}</p>
                  )}
                </div>
              )}
            </div>
          </Section>
        )}
      </div>

      {changed && (
        <div
          className="fixed inset-x-0 bottom-0 z-40 border-t border-white/10 bg-surface-2/95 backdrop-blur"
          data-testid="save-bar"
        >
          <div className="mx-auto flex max-w-screen-2xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
            <p className="text-sm text-fg">{error ?? t('settings.unsaved')}</p>
            <div className="flex gap-3">
              <Button variant="secondary" onClick={reset}>
                {t('settings.reset')}
              </Button>
              <Button onClick={() => void save()} disabled={saving}>
                {t('settings.save')}
              </Button>
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
