import { SubscriptionPage } from '../../features/membership/subscription-page.tsx';
import { RequireSignedIn } from './guards.tsx';

/** `/subscription`: signed-in only (seed 001 §6). */
export function SubscriptionRoute() {
  return (
    <RequireSignedIn>
      <SubscriptionPage />
    </RequireSignedIn>
  );
}
