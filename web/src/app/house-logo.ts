/** The operator's house logo for the header: `logo_url` of `GET /api/meta`, when one is uploaded. */
import { useServerMeta } from '@/entities/server/api/meta';

export function useHouseLogoUrl(): string | undefined {
  return useServerMeta().data?.logo_url ?? undefined;
}
