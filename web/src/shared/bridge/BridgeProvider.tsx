import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { writeStorageRaw } from '@/shared/lib/storage';
import { isAtHistoryRoot } from '@/shared/lib/history';
import { isMobileWebView } from '@/shared/lib/webview';
import { listenAppMessages } from './app-messages';
import { createBridge, type BridgeSend } from './send';
import './bridge.css';

/** What `useBridge()` returns. */
export interface BridgeContextValue {
  /** Sends a web → app action, or runs its browser fallback outside the web view. */
  send: BridgeSend;
  /** True inside the app's web view (the native bridge object exists). */
  inWebView: boolean;
}

/** Opacity of the browser dimmer when DIMMER_ON gives none. */
export const DEFAULT_DIMMER_OPACITY = 0.5;

const BridgeContext = createContext<BridgeContextValue | null>(null);


/** Opens `url` for DEEP_LINK outside the app: http(s) in a new tab, other schemes in place; script URLs never. */
function openUrl(url: string): void {
  let protocol: string;
  try {
    protocol = new URL(url, window.location.href).protocol;
  } catch {
    return;
  }
  if (protocol === 'http:' || protocol === 'https:') window.open(url, '_blank', 'noopener,noreferrer');
  else if (!['javascript:', 'data:', 'vbscript:', 'blob:'].includes(protocol)) window.location.assign(url);
}

/**
 * Provides the mobile bridge to the tree (must be inside the router). Renders the browser
 * fallbacks of LOADING (a spinner) and DIMMER_ON/OFF (an overlay), and applies the app's
 * LOCAL_STORAGE_SET messages to storage (known keys and valid values only).
 */
export function BridgeProvider({ children, loadingLabel = 'Loading' }: { children: ReactNode; loadingLabel?: string }) {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  const [loading, setLoading] = useState(false);
  const [dimmerOpacity, setDimmerOpacity] = useState<number | null>(null);

  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);

  useEffect(
    () =>
      listenAppMessages((message) => {
        if (message.type === 'LOCAL_STORAGE_SET') writeStorageRaw(message.payload.key, message.payload.value);
      }),
    [],
  );

  const value = useMemo<BridgeContextValue>(
    () => ({
      inWebView: isMobileWebView(),
      send: createBridge({
        navigate: (path, replace) => void navigateRef.current(path, { replace }),
        goBack: () => void (!isAtHistoryRoot() ? navigateRef.current(-1) : navigateRef.current('/', { replace: true })),
        setLoading,
        setDimmer: (on, opacity) => setDimmerOpacity(on ? (opacity ?? DEFAULT_DIMMER_OPACITY) : null),
        openUrl,
      }),
    }),
    [],
  );

  return (
    <BridgeContext.Provider value={value}>
      {children}
      {dimmerOpacity !== null && (
        <div className="bridge-dimmer" data-testid="bridge-dimmer" aria-hidden="true" style={{ opacity: dimmerOpacity }} />
      )}
      {loading && (
        <div className="bridge-loading" data-testid="bridge-loading" role="progressbar" aria-label={loadingLabel}>
          <div className="bridge-loading__spinner" />
        </div>
      )}
    </BridgeContext.Provider>
  );
}

/** The bridge of the nearest `<BridgeProvider>`. */
export function useBridge(): BridgeContextValue {
  const value = useContext(BridgeContext);
  if (!value) throw new Error('useBridge must be used inside <BridgeProvider>');
  return value;
}
