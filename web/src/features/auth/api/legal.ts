/**
 * The terms and the privacy policy: `GET /api/legal` (the current version of each
 * published one) and `POST /api/me/consents` (the member accepts them; the account back).
 */
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import type { Me } from '@/entities/member/api/me';
import { authKeys } from './keys';

export type LegalDocument = ApiSchema<'LegalDocumentInfo'>;
export type ConsentGiven = ApiSchema<'ConsentGiven'>;

export const fetchLegal = (signal?: AbortSignal) => apiRequest<LegalDocument[]>('/api/legal', { signal });

export function legalQueryOptions() {
  return queryOptions({ queryKey: authKeys.legal(), queryFn: ({ signal }) => fetchLegal(signal), staleTime: 60_000 });
}

export const acceptConsents = (consents: ConsentGiven[]) =>
  apiRequest<Me>('/api/me/consents', { method: 'POST', body: { consents } });
