import { focusManager } from '@tanstack/react-query';
import { useAppFocus } from '@/shared/hooks/useAppFocus';

/**
 * Lets the app's IS_FOCUSED_FROM_APP messages drive TanStack Query's focus: while the app
 * reports the web view blurred, queries do not refetch; when it is focused again, focus
 * goes back to the browser's own signal, and stale queries refetch. Returns the focus flag.
 */
export function useQueryFocusFromApp(): boolean {
  return useAppFocus({
    onFocus: () => focusManager.setFocused(undefined),
    onBlur: () => focusManager.setFocused(false),
  });
}
