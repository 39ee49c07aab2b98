import { useContext } from 'react';
import { ToastActionsContext, type ToastActions } from './toast-context';

/** Pushes toasts: `const toast = useToast(); toast.show('저장했습니다', { tone: 'success' })`. */
export function useToast(): ToastActions {
  const actions = useContext(ToastActionsContext);
  if (!actions) throw new Error('useToast must be used inside <ToastProvider>');
  return actions;
}
