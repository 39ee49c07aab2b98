import { Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { meQueryOptions } from '@/entities/member/api/me';
import { useAuth } from '@/entities/member/model/auth-context';
import { lazyComponent } from '@/shared/area/lazy';

const Gate = lazyComponent(() => import('./ConsentGate'), 'ConsentGate').Component;

/**
 * The header's consent slot: loads the gate's code only for a member who must accept a
 * new version of the terms or the privacy policy, and never holds up the header while
 * it loads.
 */
export function ConsentGateSlot() {
  const { userId } = useAuth();
  const me = useQuery({ ...meQueryOptions(userId), enabled: userId !== null });
  if (userId === null || !me.data?.consent_required?.length) return null;
  return (
    <Suspense fallback={null}>
      <Gate />
    </Suspense>
  );
}
