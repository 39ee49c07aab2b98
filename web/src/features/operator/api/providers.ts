/** `GET /api/market/providers`: what each market's data provider last did (operators only). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import { operatorKeys } from './keys';

export type ProviderStatus = ApiSchema<'ProviderStatusDto'>;

export const fetchProviders = (signal?: AbortSignal) =>
  apiRequest<ProviderStatus[]>('/api/market/providers', { signal });

/** Refreshed every half minute while the page is open. */
const PROVIDERS_REFETCH_MS = 30_000;

export function providersQueryOptions() {
  return queryOptions({
    queryKey: operatorKeys.providers(),
    queryFn: ({ signal }) => fetchProviders(signal),
    refetchInterval: PROVIDERS_REFETCH_MS,
  });
}

export function useProviders() {
  return useQuery(providersQueryOptions());
}
