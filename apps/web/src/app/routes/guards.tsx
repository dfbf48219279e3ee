import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { PageLoading } from '../../components/layout.tsx';
import { useCustomer } from '../../lib/account/use-customer.ts';
import { useAccountStore } from '../../stores/index.ts';
import { paths } from '../../lib/paths.ts';

/** Signed-in only; others go to / (decision 042: /subscription, /settings). */
export function RequireSignedIn({ children }: { children: ReactNode }) {
  const signedIn = useAccountStore((s) => s.account !== null);
  return signedIn ? children : <Navigate replace to={paths.home} />;
}

/**
 * Admins only (the account's `isAdmin`, either account kind); others go to /. A stored "not admin" is
 * checked against the server first, since ADMIN_EMAILS may have made the account an admin since.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const signedIn = useAccountStore((s) => s.account !== null);
  const customer = useCustomer();
  if (!signedIn) return <Navigate replace to={paths.home} />;
  if (customer.user?.isAdmin) return children;
  if (customer.isPending) return <PageLoading page />;
  return <Navigate replace to={paths.home} />;
}
