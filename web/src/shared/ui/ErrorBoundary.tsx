import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportError } from '@/shared/lib/report-error';
import { ErrorFallback } from './ErrorFallback';

export interface ErrorBoundaryProps {
  children: ReactNode;
  /** Called before a retry re-renders the children (e.g. to reset failed queries). */
  onReset?: () => void;
  /** When any of these change while showing the fallback, the boundary resets itself. */
  resetKeys?: readonly unknown[];
  /** Custom fallback; defaults to {@link ErrorFallback}. */
  fallback?: (props: { error: unknown; retry: () => void }) => ReactNode;
}

interface ErrorBoundaryState {
  failed: boolean;
  error: unknown;
}

const changed = (a: readonly unknown[] = [], b: readonly unknown[] = []) =>
  a.length !== b.length || a.some((v, i) => !Object.is(v, b[i]));

/** Catches render errors of one independent part of the screen and offers a retry. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false, error: undefined };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { failed: true, error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // For developers only: the recorder turns console errors into error records, and
    // this error is reported once, below.
    if (import.meta.env.DEV) console.error('ErrorBoundary caught', error, info.componentStack);
    // To the error recorder, with the component stack (unless the drop list matches it).
    reportError(error, { componentStack: info.componentStack ?? undefined });
  }

  override componentDidUpdate(prev: ErrorBoundaryProps): void {
    if (this.state.failed && changed(prev.resetKeys, this.props.resetKeys)) this.reset();
  }

  private reset(): void {
    this.props.onReset?.();
    this.setState({ failed: false, error: undefined });
  }

  retry = (): void => this.reset();

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    const { fallback } = this.props;
    return fallback ? fallback({ error: this.state.error, retry: this.retry }) : <ErrorFallback onRetry={this.retry} />;
  }
}
