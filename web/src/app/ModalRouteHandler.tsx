import { Suspense, useEffect } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useSearchParams } from 'react-router';
import { useBridge } from '@/shared/bridge/BridgeProvider';
import { MODAL_ROUTE_VALUE } from '@/shared/config/constants';
import { useModalRoute } from '@/shared/hooks/useModalRoute';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary';
import { useToast } from '@/shared/ui/toast';
import { MODALS, MODAL_NAMES, type ModalName } from './modals';

/** A modal that failed to load or render: say so in a toast and close it. */
function ModalFailed({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  useEffect(() => {
    toast.show(t('errorBoundary.title'), { tone: 'error' });
    onClose();
  }, [onClose, t, toast]);
  return null;
}

function RouteModalSlot({ name }: { name: ModalName }) {
  const { isOpen, close } = useModalRoute(name);
  const Component = MODALS[name];
  if (!isOpen || !Component) return null;
  return (
    <ErrorBoundary fallback={() => <ModalFailed onClose={close} />}>
      <Suspense fallback={null}>
        <Component onClose={close} />
      </Suspense>
    </ErrorBoundary>
  );
}

/**
 * Renders every route modal whose `?<name>=routeModalTrue` parameter is present. Inside
 * the app, the native chrome is dimmed while any of them is open.
 */
export function ModalRouteHandler() {
  const [params] = useSearchParams();
  const { send, inWebView } = useBridge();
  const anyOpen = MODAL_NAMES.some((name) => params.get(name) === MODAL_ROUTE_VALUE);

  useEffect(() => {
    if (!anyOpen || !inWebView) return;
    send({ type: 'DIMMER_ON', payload: {} });
    return () => send({ type: 'DIMMER_OFF', payload: null });
  }, [anyOpen, inWebView, send]);

  return (
    <>
      {MODAL_NAMES.map((name) => (
        <RouteModalSlot key={name} name={name} />
      ))}
    </>
  );
}
