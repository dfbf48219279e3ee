import { SubscriptionPage } from '../../features/membership/subscription-page.tsx';
import { RequireSignedIn } from './guards.tsx';

/** `/subscription`: signed-in only (decision 042). */
export function SubscriptionRoute() {
  return (
    <RequireSignedIn>
      <SubscriptionPage />
    </RequireSignedIn>
  );
}
