/** `GET /api/users/{nickname}`: what anyone may see of a member. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import { authKeys } from './keys';

export type PublicProfile = ApiSchema<'PublicProfile'>;

export const fetchProfile = (nickname: string, signal?: AbortSignal) =>
  apiRequest<PublicProfile>(`/api/users/${encodeURIComponent(nickname)}`, { signal });

export function profileQueryOptions(nickname: string) {
  return queryOptions({
    queryKey: authKeys.profile(nickname),
    queryFn: ({ signal }) => fetchProfile(nickname, signal),
  });
}

export function useProfile(nickname: string) {
  return useQuery(profileQueryOptions(nickname));
}
