export { ToastProvider, type ToastProviderProps } from './ToastProvider';
export { ToastArea } from './ToastArea';
export { useToast } from './useToast';
export { TOAST_DURATION_MS, type ShowToastOptions, type ToastTone } from './toast-context';
