import { queryOptions } from '@tanstack/react-query';
import { api } from '../client.ts';

/** Plans, payment options and payments. Key prefix `['membership']`. */
export const membershipQueries = {
  all: ['membership'] as const,
  /** Public: the landing banner, its FAQ and the membership page share this one. */
  plans: () =>
    queryOptions({
      queryKey: [...membershipQueries.all, 'plans'] as const,
      queryFn: ({ signal }) => api.membership.plans({ token: null, signal }).then((r) => r.plans),
      staleTime: 5 * 60_000,
    }),
  cryptos: () =>
    queryOptions({
      queryKey: [...membershipQueries.all, 'cryptos'] as const,
      queryFn: ({ signal }) => api.membership.cryptoList({ signal }).then((r) => r.crypto_list),
      staleTime: 60_000,
    }),
  /** One payment, polled while its QR code is shown. */
  payment: (paymentId: string) =>
    queryOptions({
      queryKey: [...membershipQueries.all, 'payment', paymentId] as const,
      queryFn: ({ signal }) => api.membership.payment({ params: { paymentId }, signal }),
    }),
};
