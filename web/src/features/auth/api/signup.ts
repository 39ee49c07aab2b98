/** `POST /api/auth/signup`: a new account with email, password and nickname. */
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import type { TokenResponse } from './login';

export type SignupRequest = ApiSchema<'SignupRequest'>;

export const signup = (body: SignupRequest) => apiRequest<TokenResponse>('/api/auth/signup', { method: 'POST', body });
