/**
 * Forgot password: `GET /api/auth/password-reset` (can the server send a link?),
 * `POST /api/auth/password-reset` (send it; the same answer for any address) and
 * `POST /api/auth/password-reset/confirm` (a new password from the link; a token back).
 */
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import { authKeys } from './keys';
import type { TokenResponse } from './login';

export type PasswordResetAvailability = ApiSchema<'PasswordResetAvailability'>;
export type PasswordResetRequest = ApiSchema<'PasswordResetRequest'>;
export type PasswordResetConfirm = ApiSchema<'PasswordResetConfirm'>;

export const fetchPasswordResetAvailability = (signal?: AbortSignal) =>
  apiRequest<PasswordResetAvailability>('/api/auth/password-reset', { signal });

export function passwordResetAvailabilityQueryOptions() {
  return queryOptions({
    queryKey: authKeys.passwordReset(),
    queryFn: ({ signal }) => fetchPasswordResetAvailability(signal),
    staleTime: 5 * 60_000,
  });
}

export const requestPasswordReset = (body: PasswordResetRequest) =>
  apiRequest<void>('/api/auth/password-reset', { method: 'POST', body });

export const confirmPasswordReset = (body: PasswordResetConfirm) =>
  apiRequest<TokenResponse>('/api/auth/password-reset/confirm', { method: 'POST', body });
