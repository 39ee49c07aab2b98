import { Suspense } from 'react';
import { useAuth } from '@/entities/member/model/auth-context';
import { lazyComponent } from '@/shared/area/lazy';

const Gate = lazyComponent(() => import('./ConsentGate'), 'ConsentGate').Component;

/**
 * The header's consent slot: a visitor gets nothing and loads nothing; for a member the
 * gate's code loads on its own (it reads `Me.consent_required` and draws nothing unless
 * a new version of the terms or the privacy policy awaits), never holding up the
 * header. It asks nothing of the query library here, so the first page does not carry
 * its observer code.
 */
export function ConsentGateSlot() {
  const { userId } = useAuth();
  if (userId === null) return null;
  return (
    <Suspense fallback={null}>
      <Gate />
    </Suspense>
  );
}
