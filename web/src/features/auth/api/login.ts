/** `POST /api/auth/login`: email and password; a token back. */
import { apiRequest, type ApiSchema } from '@/shared/api/client';

/** `200/201 {token}`: log-in, sign-up, nickname and password changes. */
export type TokenResponse = ApiSchema<'TokenResponse'>;
/** `link_ticket` (from the OpenID flow) links that identity once the password proves the account. */
export type LoginRequest = ApiSchema<'LoginRequest'>;

export const login = (body: LoginRequest) => apiRequest<TokenResponse>('/api/auth/login', { method: 'POST', body });
