/** `POST /api/me/password`: `current_password` is required when the member has one. */
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import type { TokenResponse } from './login';

export type ChangePasswordRequest = ApiSchema<'ChangePasswordRequest'>;

export const changePassword = (body: ChangePasswordRequest) => apiRequest<TokenResponse>('/api/me/password', { method: 'POST', body });
