/**
 * Social log-in (OpenID Connect): `GET /api/auth/oidc/providers`, the start address of a
 * provider's flow, and `POST /api/auth/oidc/signup` (a new account from a ticket).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import { authKeys } from './keys';
import type { TokenResponse } from './login';

/** One provider (`preset`: `kakao`, `naver`, `google`, `apple` or none). */
export type OidcProvider = ApiSchema<'ProviderInfo'>;
export type OidcSignupRequest = ApiSchema<'OidcSignupRequest'>;

export const fetchProviders = (signal?: AbortSignal) => apiRequest<OidcProvider[]>('/api/auth/oidc/providers', { signal });

export function providersQueryOptions() {
  return queryOptions({
    queryKey: authKeys.providers(),
    queryFn: ({ signal }) => fetchProviders(signal),
    staleTime: 5 * 60_000,
  });
}

export function useProviders() {
  return useQuery(providersQueryOptions());
}

/** Where a provider button goes: the server starts the OpenID flow and comes back to `next`. */
export function providerStartUrl(id: string, next: string): string {
  return `/api/auth/oidc/${encodeURIComponent(id)}/start?${new URLSearchParams({ next, intent: 'login' })}`;
}

export const oidcSignup = (body: OidcSignupRequest) => apiRequest<TokenResponse>('/api/auth/oidc/signup', { method: 'POST', body });
