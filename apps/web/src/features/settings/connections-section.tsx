import { useState } from 'react';
import type { FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';
import { CloseIcon } from '../../components/close-icon.tsx';
import { parseProxyEntry, testProxy, type ProxyTestResult } from '../../lib/proxy-entries.ts';
import type { SettingsValues } from './save-settings.ts';
import { INPUT, Section, Toggle } from './settings-ui.tsx';
import type { EditSettings } from './use-settings-draft.ts';

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

/** The custom proxies: each entry with its Test and Remove, the list's message and Add. */
function ProxyList({
  urls,
  errors,
  edit,
}: {
  urls: string[];
  errors: FieldErrors<SettingsValues>;
  edit: EditSettings;
}) {
  const { t } = useTranslation(['settings']);
  return (
    <div className="rounded-xl bg-surface-1 p-4">
      <ul className="flex flex-col gap-3">
        {urls.map((url, i) => (
          <ProxyRow
            key={i}
            index={i}
            value={url}
            refused={Boolean(errors.proxyUrls?.[i])}
            onChange={(v) => edit({ proxyUrls: urls.map((u, j) => (j === i ? v : u)) })}
            onRemove={() => edit({ proxyUrls: urls.filter((_, j) => j !== i) })}
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
        onClick={() => edit({ proxyUrls: [...urls, ''] })}
      >
        {t('settings.connections.addProxy')}
      </Button>
    </div>
  );
}

/** The custom account server's address, and that changing it signs the viewer out. */
function ServerUrlField({
  url,
  invalid,
  signedIn,
  edit,
}: {
  url: string;
  invalid: boolean;
  signedIn: boolean;
  edit: EditSettings;
}) {
  const { t } = useTranslation(['settings']);
  return (
    <div className="rounded-xl bg-surface-1 p-4">
      <label htmlFor="settings-server-url" className="mb-1 block text-sm font-semibold text-fg">
        {t('settings.connections.serverUrl')}
      </label>
      <input
        id="settings-server-url"
        value={url}
        onChange={(e) => edit({ serverUrl: e.target.value })}
        placeholder={t('settings.connections.serverPlaceholder')}
        className={INPUT}
        dir="ltr"
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? 'server-url-error' : undefined}
      />
      {invalid && (
        <p
          id="server-url-error"
          role="alert"
          className="mt-2 text-sm text-red-300"
          data-testid="server-url-error"
        >
          {t('settings.connections.proxyResult.invalidUrl')}
        </p>
      )}
      {signedIn && <p className="mt-2 text-sm text-amber-300">{t('settings.connections.serverLogout')}</p>}
    </div>
  );
}

/** Connections: custom proxy workers and a custom account server. */
export function ConnectionsSection({
  draft,
  errors,
  edit,
  signedIn,
}: {
  draft: Pick<SettingsValues, 'proxyEnabled' | 'proxyUrls' | 'serverEnabled' | 'serverUrl'>;
  /** The draft's problems from the last save (the proxy entries', the server address's). */
  errors: FieldErrors<SettingsValues>;
  edit: EditSettings;
  signedIn: boolean;
}) {
  const { t } = useTranslation(['settings']);
  return (
    <Section id="connections" title={t('settings.connections.title')}>
      <div className="flex flex-col gap-4">
        <Toggle
          id="settings-proxy"
          label={t('settings.connections.proxy')}
          description={t('settings.connections.proxyText')}
          checked={draft.proxyEnabled}
          // Turned on: a first empty entry to fill in.
          onChange={(v) =>
            edit(v && !draft.proxyUrls.length ? { proxyEnabled: v, proxyUrls: [''] } : { proxyEnabled: v })
          }
        />
        {draft.proxyEnabled && <ProxyList urls={draft.proxyUrls} errors={errors} edit={edit} />}
        <Toggle
          id="settings-server"
          label={t('settings.connections.server')}
          description={t('settings.connections.serverText')}
          checked={draft.serverEnabled}
          onChange={(v) => edit({ serverEnabled: v })}
        />
        {draft.serverEnabled && (
          <ServerUrlField
            url={draft.serverUrl}
            invalid={Boolean(errors.serverUrl)}
            signedIn={signedIn}
            edit={edit}
          />
        )}
      </div>
    </Section>
  );
}
