import { queryOptions } from '@tanstack/react-query';
import { apiRequest, type ApiSchema } from '@/shared/api/client';

export type ProviderStatus = ApiSchema<'ProviderStatusDto'>;

export const operatorKeys = {
  all: ['operator'] as const,
  providers: () => [...operatorKeys.all, 'providers'] as const,
};

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
