/**
 * `PUT`/`DELETE /api/admin/branding/{logo,share-card}`: the operator's house logo and
 * share card (the raw image as the body). The app's one `/api/meta` query is refreshed
 * after a change.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SERVER_META_KEY } from '@/entities/server/api/meta';
import { apiRequest, type ApiSchema } from '@/shared/api/client';

export type Branding = ApiSchema<'Branding'>;
export type BrandingSlot = 'logo' | 'share-card';

export const uploadBranding = (slot: BrandingSlot, image: Blob) =>
  apiRequest<Branding>(`/api/admin/branding/${slot}`, { method: 'PUT', rawBody: image });

export const removeBranding = (slot: BrandingSlot) =>
  apiRequest<Branding>(`/api/admin/branding/${slot}`, { method: 'DELETE' });

export function useBrandingChange(slot: BrandingSlot) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (image: Blob | null) => (image ? uploadBranding(slot, image) : removeBranding(slot)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SERVER_META_KEY }),
  });
}
