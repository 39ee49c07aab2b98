import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { meQueryOptions } from '@/entities/member/api/me';
import { useAuth } from '@/entities/member/model/auth-context';
import type { RouteModalProps } from '@/shared/area/types';
import { providersQueryOptions } from '../api/oidc';
import { DeleteAccountDialog } from './DeleteAccountDialog';

/**
 * The route modal `?deleteAccount=routeModalTrue` (settings opens it): the account
 * deletion dialog, which asks for the password (or a fresh social log-in) as the server
 * requires. A visitor has no account: nothing shows.
 */
export function DeleteAccountModal({ onClose }: RouteModalProps) {
  const { userId } = useAuth();
  const me = useQuery({ ...meQueryOptions(userId), enabled: userId !== null });
  const providers = useQuery(providersQueryOptions());
  // Once the account is gone (or for a visitor) the modal has nothing to say: close it.
  useEffect(() => {
    if (userId === null) onClose();
  }, [userId, onClose]);
  if (userId === null || !me.data || !providers.data) return null;
  return (
    <DeleteAccountDialog
      me={me.data}
      providers={providers.data.filter((p) => me.data.providers.includes(p.id))}
      onClose={onClose}
    />
  );
}
