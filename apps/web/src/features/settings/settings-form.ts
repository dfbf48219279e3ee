import { PatchSessionBody, ProfileInput } from '../../lib/contract-schemas.ts';
import type { TFunction } from 'i18next';
import type { Resolver } from 'react-hook-form';
import { z } from '../../lib/zod.ts';
import { keyedZodResolver, type FormIssue } from '../../lib/account/form-resolver.ts';
import { cleanProxyList, normalizeServerUrl, parseProxyEntry } from '../../lib/proxy-entries.ts';
import type { SaveResult, SaveSection, SettingsValues } from './save-settings.ts';
import { listFormat } from '../../lib/intl.ts';

/** The messages of the settings form, first shown first. */
export const SETTINGS_ERROR_ORDER = [
  'accountSettings.deviceLengthError',
  'customer.errors.fullnameRequired',
  'customer.errors.fullnameLong',
  'settings.connections.proxyResult.invalidUrl',
  'settings.connections.proxyEmpty',
  'errors.api.validation_failed',
] as const;

function settingsIssueKey({ path, code }: FormIssue): (typeof SETTINGS_ERROR_ORDER)[number] {
  if (path.endsWith('deviceName')) return 'accountSettings.deviceLengthError';
  if (path.startsWith('proxyUrls.') || path === 'serverUrl')
    return 'settings.connections.proxyResult.invalidUrl';
  if (path === 'proxyUrls') return 'settings.connections.proxyEmpty';
  if (path === 'email.fullname')
    return code === 'too_big' ? 'customer.errors.fullnameLong' : 'customer.errors.fullnameRequired';
  return 'errors.api.validation_failed';
}

/**
 * The rules of the settings form: an email account's name as the contract has it; a device name may
 * not be empty — for passphrase accounts only when it was changed; custom proxies, when on, are valid
 * entries ('Not a valid URL') and at least one (an empty list would be on in name only).
 */
export function settingsResolver(saved: SettingsValues): Resolver<SettingsValues> {
  // The contract's rules for a device name and a profile's name (the server checks the same).
  const deviceName = PatchSessionBody.shape.deviceName.unwrap();
  const fullname = ProfileInput.shape.fullname;
  const schema = z
    .looseObject({
      email: z
        .looseObject({
          fullname,
          deviceName: z.string().trim().pipe(deviceName),
        })
        .nullable(),
      account: z.looseObject({ deviceName: z.string() }).nullable(),
      proxyEnabled: z.boolean(),
      proxyUrls: z.array(z.string()),
      serverEnabled: z.boolean(),
      serverUrl: z.string(),
    })
    .superRefine((v, ctx) => {
      if (v.proxyEnabled) {
        const invalid = v.proxyUrls
          .map((url, i) => (url.trim() && !parseProxyEntry(url) ? i : -1))
          .filter((i) => i >= 0);
        for (const i of invalid) ctx.addIssue({ code: 'custom', path: ['proxyUrls', i], message: 'invalid' });
        if (!invalid.length && !cleanProxyList(v.proxyUrls).length)
          ctx.addIssue({ code: 'custom', path: ['proxyUrls'], message: 'empty' });
      }
      // A custom server must at least be an http(s) address ("not a server" was saved, and signed out).
      if (v.serverEnabled && !isServerUrl(v.serverUrl))
        ctx.addIssue({ code: 'custom', path: ['serverUrl'], message: 'invalid' });
      const name = v.account?.deviceName;
      if (name !== undefined && saved.account && name !== saved.account.deviceName && !name.trim())
        ctx.addIssue({ code: 'custom', path: ['account', 'deviceName'], message: 'empty' });
    });
  return keyedZodResolver(schema, settingsIssueKey) as unknown as Resolver<SettingsValues>;
}

const LABEL = '[a-z0-9](?:[a-z0-9-]*[a-z0-9])?';
const HOST = new RegExp(`^(?:\\[[0-9a-f:.]+\\]|${LABEL}(?:\\.${LABEL})*)(?::\\d{1,5})?$`, 'i');

/** Whether an account server's address, as typed, can be one (http or https, a valid host name). */
export function isServerUrl(raw: string): boolean {
  const normalized = normalizeServerUrl(raw);
  if (!normalized) return false;
  try {
    const url = new URL(normalized);
    // A host name (letters, digits, dots, hyphens; browsers give IDNs as punycode) or an IP address, and
    // a port: Chromium keeps "not a server" as the host "not%20a%20server", so the characters are checked.
    return (url.protocol === 'https:' || url.protocol === 'http:') && HOST.test(url.host);
  } catch {
    return false;
  }
}

/** The field a message belongs to, by its input's id (focus moves there). */
export function settingsErrorInput(
  key: string,
  values: Pick<SettingsValues, 'proxyUrls' | 'proxyEnabled' | 'serverEnabled' | 'serverUrl'>,
): string {
  if (key === 'accountSettings.deviceLengthError') return 'settings-device';
  if (key === 'settings.connections.proxyResult.invalidUrl') {
    const proxy = values.proxyEnabled
      ? values.proxyUrls.findIndex((url) => url.trim() && !parseProxyEntry(url))
      : -1;
    if (proxy < 0 && values.serverEnabled && !isServerUrl(values.serverUrl)) return 'settings-server-url';
    return `proxy-${proxy}`;
  }
  if (key === 'settings.connections.proxyEmpty')
    return values.proxyUrls.length ? 'proxy-0' : 'settings-add-proxy';
  return 'settings-fullname';
}

/** The section of the settings page a message belongs to. */
export const settingsErrorSection = (key: string) =>
  key.startsWith('settings.connections.') ? 'connections' : 'account';

/** The result of a save as one sentence's parts: 'Saved', or what was saved and what failed and why. */
export function saveResultText(
  result: SaveResult,
  t: TFunction<readonly ['errors', 'settings']>,
  language: string,
): string {
  if (!result.failed.length) return t('settings.saveResult.saved');
  const list = (sections: SaveSection[]) =>
    listFormat(language, { type: 'conjunction' }).format(
      [...new Set(sections)].map((s) => t(`settings.saveResult.sections.${s}`)),
    );
  const reason = [...new Set(result.failed.map((f) => t(f.reason)))].join(' ');
  const failed = list(result.failed.map((f) => f.section));
  const text = result.saved.length
    ? t('settings.saveResult.partial', { saved: list(result.saved), failed, reason })
    : t('settings.saveResult.none', { failed, reason });
  return text.charAt(0).toLocaleUpperCase(language) + text.slice(1);
}
