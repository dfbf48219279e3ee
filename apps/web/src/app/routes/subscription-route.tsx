import { SubscriptionPage } from '../../features/membership/subscription-page.tsx';
import { RequireSignedIn } from './guards.tsx';

/** `/subscription`: signed-in only (the subscription seed spec). */
export function SubscriptionRoute() {
  return (
    <RequireSignedIn>
      <SubscriptionPage />
    </RequireSignedIn>
  );
}
