import { useQuery } from '@tanstack/react-query';
import type { CustomerUser } from '@marquee/contract';
import { useAccountStore } from '../../stores/account-store.ts';
import { accountQueries } from '../api/queries/account.ts';
import { fetchCustomer } from './customer-api.ts';

/**
 * The signed-in account's customer view (name, household profiles, admin flag, membership): the stored
 * one at once, refreshed from GET /customers (which stores what it gets). Works for both account kinds.
 */
export function useCustomer(): {
  user: CustomerUser | null;
  isError: boolean;
  isPending: boolean;
  refetch: () => void;
} {
  const account = useAccountStore((s) => s.account);
  const query = useQuery({
    queryKey: accountQueries.customerKey(account?.userId),
    queryFn: fetchCustomer,
    enabled: account !== null,
    retry: 1,
  });
  return {
    user: account?.user ?? query.data ?? null,
    isError: query.isError,
    isPending: query.isPending,
    refetch: () => void query.refetch(),
  };
}
