import { createContext } from 'react';

export type ToastTone = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
}

export interface ShowToastOptions {
  tone?: ToastTone;
  /** How long the toast stays; defaults to {@link TOAST_DURATION_MS}. */
  durationMs?: number;
}

export interface ToastActions {
  /** Shows a toast that dismisses itself; returns its id. */
  show(message: string, options?: ShowToastOptions): number;
  dismiss(id: number): void;
}

/** How long a toast stays on screen unless told otherwise. */
export const TOAST_DURATION_MS = 4000;
/** At most this many toasts are visible; older ones make room. */
export const MAX_TOASTS = 3;

export const ToastActionsContext = createContext<ToastActions | null>(null);
export const ToastListContext = createContext<readonly Toast[]>([]);
