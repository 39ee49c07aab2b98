/** The accounts API (docs/accounts.md): fetchers, query options and keys. */
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/client';
import type {
  ChangePasswordRequest,
  DeleteMeRequest,
  LoginRequest,
  OidcProvider,
  OidcSignupRequest,
  PublicProfile,
  SignupRequest,
  TokenResponse,
  UpdateMeRequest,
} from './api-types';

export const authKeys = {
  providers: () => ['auth', 'oidc-providers'] as const,
  profile: (nickname: string) => ['users', nickname] as const,
};

export const login = (body: LoginRequest) => apiRequest<TokenResponse>('/api/auth/login', { method: 'POST', body });
export const signup = (body: SignupRequest) => apiRequest<TokenResponse>('/api/auth/signup', { method: 'POST', body });
export const oidcSignup = (body: OidcSignupRequest) =>
  apiRequest<TokenResponse>('/api/auth/oidc/signup', { method: 'POST', body });
export const updateMe = (body: UpdateMeRequest) => apiRequest<TokenResponse>('/api/me', { method: 'PATCH', body });
export const changePassword = (body: ChangePasswordRequest) =>
  apiRequest<TokenResponse>('/api/me/password', { method: 'POST', body });
export const deleteMe = (body: DeleteMeRequest) => apiRequest<undefined>('/api/me', { method: 'DELETE', body });
export const exportMe = () => apiRequest<unknown>('/api/me/export');

export function providersQueryOptions() {
  return queryOptions({
    queryKey: authKeys.providers(),
    queryFn: ({ signal }) => apiRequest<OidcProvider[]>('/api/auth/oidc/providers', { signal }),
    staleTime: 5 * 60_000,
  });
}

export function profileQueryOptions(nickname: string) {
  return queryOptions({
    queryKey: authKeys.profile(nickname),
    queryFn: ({ signal }) => apiRequest<PublicProfile>(`/api/users/${encodeURIComponent(nickname)}`, { signal }),
  });
}

/** Where a provider button goes: the server starts the OpenID flow and comes back to `next`. */
export function providerStartUrl(id: string, next: string): string {
  return `/api/auth/oidc/${encodeURIComponent(id)}/start?${new URLSearchParams({ next, intent: 'login' })}`;
}
