/** The operator's house logo for the header: `logo_url` of `GET /api/meta`, when one is uploaded. */
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '@/shared/api/client';

/** Kept five minutes: a new logo is a new URL, picked up by the next page load or refetch. */
const LOGO_STALE_MS = 5 * 60_000;

export function useHouseLogoUrl(): string | undefined {
  const meta = useQuery({
    queryKey: ['app', 'meta'],
    queryFn: ({ signal }) => apiGet('/api/meta', { signal }),
    staleTime: LOGO_STALE_MS,
  });
  return meta.data?.logo_url ?? undefined;
}
