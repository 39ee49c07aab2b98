import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { AuthProvider } from '@/entities/member/model/AuthProvider';
import { BridgeProvider } from '@/shared/bridge/BridgeProvider';
import { ToastProvider } from '@/shared/ui/toast';

export interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
}

function LocalisedBridge({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return <BridgeProvider loadingLabel={t('loading')}>{children}</BridgeProvider>;
}

/**
 * Everything the shell needs from context: data, the mobile bridge, toasts, the
 * logged-in member. (Messages need no provider: `useTranslation` reads the one
 * instance of shared/i18n, once `initI18n()` has run.)
 * Must be rendered inside a router (the bridge navigates); `App` uses the browser's,
 * tests a memory router.
 */
export function AppProviders({ queryClient, children }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <LocalisedBridge>
        <ToastProvider>
          <AuthProvider>{children}</AuthProvider>
        </ToastProvider>
      </LocalisedBridge>
    </QueryClientProvider>
  );
}
