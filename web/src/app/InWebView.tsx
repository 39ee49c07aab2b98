import { useEffect } from 'react';
import { useBridge } from '@/shared/bridge/BridgeProvider';
import { useInAppLinks } from './useInAppLinks';
import { hostOf } from './webview-host-bootstrap';

/**
 * What the shell does only inside the app's web view or a frame, as a chunk of its own
 * that a browser's top-level page never loads: links to other pages open app screens
 * (NAVIGATE, with the app's chrome), and the app's bridge is handed to the web-view host
 * page framing it (development and tests), so the host's debug buttons run actions
 * inside the app.
 */
export function InWebView() {
  useInAppLinks();
  const { send } = useBridge();
  useEffect(() => {
    const host = hostOf(window);
    return host?.attach?.(window, { send });
  }, [send]);
  return null;
}
