/**
 * The web-view host page (development and tests; not part of the app bundle). It frames
 * the app in a phone-sized iframe with a recording bridge in place of react-native-webview,
 * shows every web → app message, and sends app → web messages into the frame.
 *
 * `window.__MOAT_WEBVIEW_HOST__` is defined before the frame exists, so the app's
 * bootstrap finds it on its first run:
 *   - `bridgeFor(win)` → `{ postMessage(msg) }`, used by the framed app as `ReactNativeWebView`;
 *   - `messages`: every received message, parsed (`{seq, type, payload, raw, at}`);
 *   - `send(data)`: posts `data` into the frame (`contentWindow.postMessage(data, origin)`);
 *   - `clear()`: empties the log.
 */
import type { WebViewHostHandle } from '@/app/webview-host-bootstrap';
import { createRoot } from 'react-dom/client';
import { HostPage } from './HostPage';
import { createRecorder, type HostMessage } from './recorder';
import './host.css';

export interface MoatWebViewHost extends WebViewHostHandle {
  readonly messages: HostMessage[];
  send(data: unknown): void;
  clear(): void;
}

const recorder = createRecorder();
let frame: HTMLIFrameElement | null = null;

const host: MoatWebViewHost = {
  messages: recorder.messages,
  bridgeFor: () => ({
    postMessage(message: string) {
      recorder.record(String(message));
    },
  }),
  send(data) {
    if (!frame?.contentWindow) throw new Error('the app frame is not ready');
    frame.contentWindow.postMessage(data, window.location.origin);
    recorder.recordSent(data);
  },
  clear: () => recorder.clear(),
};
window.__MOAT_WEBVIEW_HOST__ = host;

const container = document.getElementById('host-root');
if (!container) throw new Error('webview-host.html has no #host-root');
createRoot(container).render(
  <HostPage
    recorder={recorder}
    send={host.send}
    onFrame={(el) => {
      frame = el;
    }}
  />,
);
