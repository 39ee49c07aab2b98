/** `DELETE /api/me`: the account; `password` is required when the member has one. */
import { apiRequest, type ApiSchema } from '@/shared/api/client';

export type DeleteMeRequest = ApiSchema<'DeleteMeRequest'>;

export const deleteMe = (body: DeleteMeRequest) => apiRequest<undefined>('/api/me', { method: 'DELETE', body });
