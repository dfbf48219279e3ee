import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { kidsLimitOf, useAccountStore } from '../../stores/index.ts';
import { AccountArea } from './account-area.tsx';
import { AppearanceSection, useThemePreview } from './appearance-section.tsx';
import { CaptionsSection } from './captions-section.tsx';
import { ConnectionsSection } from './connections-section.tsx';
import { PreferencesSection } from './preferences-section.tsx';
import { SaveBar, SaveResultNotice } from './save-bar.tsx';
import { YourDataSection } from './your-data-section.tsx';
import { TraktSection } from './trakt-section.tsx';
import { settingsErrorSection } from './settings-form.ts';
import { SettingsSidebar, useSettingsSections } from './settings-nav.tsx';
import { settingsService, type SettingsService } from './settings-service.ts';
import { useSettingsDraft } from './use-settings-draft.ts';

/**
 * `/settings`: every edit is a draft until Save; Reset throws the draft away (`useSettingsDraft`).
 * `service` saves the draft (default: the app's, `settingsService`); the page tells the user which
 * sections were saved and which failed, and keeps the unsaved values.
 */
export function SettingsPage({ service }: { service?: SettingsService } = {}) {
  const { t } = useTranslation(['accountSettings', 'customer', 'errors', 'settings']);
  usePageTitle(t('settings.title'));
  const queryClient = useQueryClient();
  const saver = useMemo(() => service ?? settingsService(queryClient), [service, queryClient]);
  const config = runtimeConfig();
  const account = useAccountStore((s) => s.account);
  const oneAtATime = account?.kind === 'email';
  const kids = kidsLimitOf(account) !== null;
  const nav = useSettingsSections(oneAtATime, config.paymentGateway, kids);
  // A refused save shows the section with the first problem (when one section shows at a time).
  const settings = useSettingsDraft(saver, (key) => {
    if (oneAtATime) nav.choose(settingsErrorSection(key));
  });
  const { draft, edit, errors, errorKey } = settings;
  useThemePreview(draft.theme);

  return (
    <div className="flex flex-col gap-8 py-8 lg:flex-row">
      <SettingsSidebar
        sections={nav.sections}
        oneAtATime={oneAtATime}
        active={nav.active}
        onChoose={nav.choose}
        userId={account?.userId}
      />
      <div className="flex min-w-0 flex-1 flex-col gap-10 pb-24">
        {!kids && (
          <AccountArea
            account={account}
            draft={draft}
            edit={edit}
            on={nav.on}
            oneAtATime={oneAtATime}
            deviceError={errorKey === 'accountSettings.deviceLengthError'}
            paymentGateway={config.paymentGateway}
          />
        )}
        {nav.on.preferences && <PreferencesSection draft={draft} edit={edit} />}
        {nav.on.appearance && (
          <AppearanceSection
            theme={draft.theme}
            savedTheme={settings.saved.theme}
            onChange={(theme) => edit({ theme })}
          />
        )}
        {nav.on.captions && (
          <CaptionsSection styling={draft.styling} onChange={(styling) => edit({ styling })} />
        )}
        {nav.on.connections && !kids && (
          <ConnectionsSection draft={draft} errors={errors} edit={edit} signedIn={Boolean(account)} />
        )}
        {nav.on.preferences && !kids && <YourDataSection />}
        {nav.on.preferences && !kids && <TraktSection />}
      </div>
      {settings.result && <SaveResultNotice result={settings.result} raised={settings.changed} />}
      {settings.changed && (
        <SaveBar
          message={errorKey ? t(errorKey) : t('settings.unsaved')}
          saving={settings.saving}
          onReset={settings.reset}
          onSave={() => void settings.save()}
        />
      )}
    </div>
  );
}
