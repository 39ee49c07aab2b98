import { useEffect, useRef, useState } from 'react';
import { listenAppMessages } from '@/shared/bridge/app-messages';

/** Called when the app reports a focus change. */
export interface AppFocusCallbacks {
  onFocus?: () => void;
  onBlur?: () => void;
}

/** Focus state driven by the app's IS_FOCUSED_FROM_APP messages. */
export interface AppFocusStore {
  getSnapshot(): boolean;
  /** `listener` runs after every change. Returns the unsubscribe function. */
  subscribe(listener: (focused: boolean) => void): () => void;
  /** Stops listening to the app. */
  dispose(): void;
}

/**
 * Window focus from the app (spec §2): starts focused and flips on
 * `IS_FOCUSED_FROM_APP=TRUE/FALSE`. A repeated message is not a change. `onFocus`/`onBlur`
 * run on change, except the first change after creation.
 */
export function createAppFocusStore(callbacks: AppFocusCallbacks = {}, win: Window = window): AppFocusStore {
  let focused = true;
  let changes = 0;
  const listeners = new Set<(focused: boolean) => void>();
  const stop = listenAppMessages((message) => {
    if (message.type !== 'FOCUS' || message.focused === focused) return;
    focused = message.focused;
    changes += 1;
    if (changes > 1) (focused ? callbacks.onFocus : callbacks.onBlur)?.();
    listeners.forEach((listener) => listener(focused));
  }, win);
  return {
    getSnapshot: () => focused,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: stop,
  };
}

/**
 * Whether the app says the web view is focused (always true in a browser). The latest
 * `onFocus`/`onBlur` run on change, except on the first change after mount.
 */
export function useAppFocus(callbacks: AppFocusCallbacks = {}): boolean {
  const callbacksRef = useRef(callbacks);
  const [focused, setFocused] = useState(true);

  useEffect(() => {
    callbacksRef.current = callbacks;
  });

  useEffect(() => {
    const store = createAppFocusStore({
      onFocus: () => callbacksRef.current.onFocus?.(),
      onBlur: () => callbacksRef.current.onBlur?.(),
    });
    const unsubscribe = store.subscribe(setFocused);
    return () => {
      unsubscribe();
      store.dispose();
    };
  }, []);

  return focused;
}
