/** `GET /api/me/export`: everything stored about the member, as JSON to download. */
import { apiRequest, type ApiSchema } from '@/shared/api/client';

export type MeExport = ApiSchema<'MemberExport'>;

export const exportMe = () => apiRequest<MeExport>('/api/me/export');
