/**
 * `member:{id}:account` (docs/stream.md): the server says the member's account changed
 * (nickname, premium, password), and `/api/me` is fetched again.
 */
import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useAuth } from './auth-context';
import type { TopicStream } from '@/shared/stream/stream';
import { MEMBER_QUERY_ROOT } from '../api/keys';

/** The private topic of a member's account events. */
export const accountTopic = (userId: number) => `member:${userId}:account`;

/** Whether an event's data says the account changed. */
function isAccountChanged(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { kind?: unknown }).kind === 'account_changed';
}

/**
 * Refetches the member's `/api/me` (`['me', userId]`) whenever the server says the account
 * changed, or events may have been lost, until the returned function is called.
 */
export function subscribeAccountEvents(client: QueryClient, userId: number, stream: TopicStream): () => void {
  const refetch = () => void client.invalidateQueries({ queryKey: [MEMBER_QUERY_ROOT, userId], exact: true });
  return stream.subscribe(
    accountTopic(userId),
    (data) => {
      if (isAccountChanged(data)) refetch();
    },
    refetch,
  );
}

/**
 * Listens to the logged-in member's account events while mounted. The stream's code is
 * imported only then (a visitor's first page does not carry it; a page that shows live
 * quotes loads it anyway).
 */
export function useAccountEvents(): void {
  const { userId } = useAuth();
  const client = useQueryClient();
  useEffect(() => {
    if (userId === null) return undefined;
    let stop: (() => void) | undefined;
    let mounted = true;
    void import('@/shared/stream/stream').then(({ liveStream }) => {
      if (mounted) stop = subscribeAccountEvents(client, userId, liveStream());
    });
    return () => {
      mounted = false;
      stop?.();
    };
  }, [client, userId]);
}
