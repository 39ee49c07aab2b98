/** `GET /api/legal`: the current version of each published legal document (terms, privacy policy). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type ApiSchema } from '@/shared/api/client';
import { settingsKeys } from './keys';

export type LegalDocument = ApiSchema<'LegalDocumentInfo'>;

/** The two documents settings links to. */
export type LegalKind = 'terms' | 'privacy';

export function getLegal(signal?: AbortSignal): Promise<LegalDocument[]> {
  return apiGet('/api/legal', { signal });
}

export function legalQueryOptions() {
  return queryOptions({
    queryKey: settingsKeys.legal(),
    queryFn: ({ signal }) => getLegal(signal),
    staleTime: 60_000,
  });
}

export function useLegal() {
  return useQuery(legalQueryOptions());
}
