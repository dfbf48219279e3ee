import { SettingsPage } from '../../features/settings/settings-page.tsx';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { RequireSignedIn } from './guards.tsx';

/** `/settings`: open to everyone on a discovery site (device settings); signed-in only on a subscription site (decision 042). */
export function SettingsRoute() {
  if (runtimeConfig().variant !== 'subscription') return <SettingsPage />;
  return (
    <RequireSignedIn>
      <SettingsPage />
    </RequireSignedIn>
  );
}
