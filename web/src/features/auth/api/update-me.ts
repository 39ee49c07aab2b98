/** `PATCH /api/me`: a new nickname (a renewed token back). */
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import type { TokenResponse } from './login';

export type UpdateMeRequest = ApiSchema<'UpdateMeRequest'>;

export const updateMe = (body: UpdateMeRequest) => apiRequest<TokenResponse>('/api/me', { method: 'PATCH', body });
