import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  MAX_TOASTS,
  TOAST_DURATION_MS,
  ToastActionsContext,
  ToastListContext,
  type ShowToastOptions,
  type Toast,
} from './toast-context';

export interface ToastProviderProps {
  children: ReactNode;
}

/** Holds the toasts; `useToast()` pushes them and `<ToastArea>` shows them. */
export function ToastProvider({ children }: ToastProviderProps) {
  const [toasts, setToasts] = useState<readonly Toast[]>([]);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => {
    const timer = timers.current.get(id);
    if (timer !== undefined) clearTimeout(timer);
    timers.current.delete(id);
    setToasts((list) => list.filter((t) => t.id !== id));
  }, []);

  const show = useCallback(
    (message: string, { tone = 'info', durationMs = TOAST_DURATION_MS }: ShowToastOptions = {}) => {
      const id = nextId.current++;
      setToasts((list) => [...list, { id, message, tone }].slice(-MAX_TOASTS));
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), durationMs),
      );
      return id;
    },
    [dismiss],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      pending.forEach((timer) => clearTimeout(timer));
      pending.clear();
    };
  }, []);

  const actions = useMemo(() => ({ show, dismiss }), [show, dismiss]);
  return (
    <ToastActionsContext.Provider value={actions}>
      <ToastListContext.Provider value={toasts}>{children}</ToastListContext.Provider>
    </ToastActionsContext.Provider>
  );
}
