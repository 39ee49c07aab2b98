import { Suspense, type ReactNode } from 'react';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary';
import { PageFallback } from '@/shared/ui/PageFallback';

export interface RouteBoundaryProps {
  children: ReactNode;
}

/**
 * Wraps one route: its code loads behind a placeholder, and a crash shows a retry in
 * place of the page while the shell keeps working. Leaving the route resets it; a retry
 * also resets failed queries so they fetch again.
 */
export function RouteBoundary({ children }: RouteBoundaryProps) {
  const { pathname } = useLocation();
  const { reset } = useQueryErrorResetBoundary();
  return (
    <ErrorBoundary onReset={reset} resetKeys={[pathname]}>
      <Suspense fallback={<PageFallback />}>{children}</Suspense>
    </ErrorBoundary>
  );
}
