/** `GET /api/me`: the logged-in member's own account (nickname, role, premium, …). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import { useAuth } from '../model/auth-context';
import { memberKeys } from './keys';

/** `GET /api/me`. */
export type Me = ApiSchema<'Me'>;
/** `member` or `operator`. */
export type Role = ApiSchema<'RoleName'>;

export const fetchMe = (signal?: AbortSignal) => apiRequest<Me>('/api/me', { signal });

/** The member's account; held back for a visitor (`userId` null). */
export function meQueryOptions(userId: number | null) {
  return queryOptions({
    queryKey: memberKeys.me(userId),
    queryFn: ({ signal }) => fetchMe(signal),
    enabled: userId !== null,
  });
}

/** The logged-in member's account (`data` stays `undefined` for a visitor). */
export function useMe() {
  const { userId } = useAuth();
  return useQuery(meQueryOptions(userId));
}
