/**
 * The web-view host page (development and tests; not part of the app bundle). It plays the
 * Moat app: it frames the app in a phone-sized web view with a recording bridge in place of
 * react-native-webview, draws the app's header and tab bar and stacks a screen per
 * NAVIGATE (`?chrome=web`: an older app that draws nothing; `?bridge=off`: a plain browser
 * frame), shows every web → app message, sends app → web messages, and holds the debug
 * tools: the server's version and clock and one button per web → app action.
 *
 * `window.__MOAT_WEBVIEW_HOST__` is defined before any frame exists, so the app's
 * bootstrap finds it on its first run:
 *   - `bridgeFor(win)` → `{ postMessage(msg) }` (or `null` in browser mode), used by the
 *     framed app as `ReactNativeWebView`; `appInfoFor(win)` → its `window.MoatApp`;
 *   - `attach(win, app)`: the framed app hands over its bridge's `send` (debug buttons);
 *   - `messages`: every received message, parsed (`{seq, type, payload, raw, at}`);
 *   - `send(data)`: posts `data` into the top screen's frame;
 *   - `screens()`: the stacked screens' paths, root first;
 *   - `clear()`: empties the log.
 */
import type { HostedApp, WebViewHostHandle } from '@/app/webview-host-bootstrap';
import { createRoot } from 'react-dom/client';
import { HostPage } from './HostPage';
import { createRecorder, type HostMessage } from './recorder';
import { hostMode } from './screens';
import './host.css';

export interface MoatWebViewHost extends WebViewHostHandle {
  readonly messages: HostMessage[];
  send(data: unknown): void;
  screens(): string[];
  clear(): void;
}

/** What the page's component tells the host object and hears from it. */
export interface HostWiring {
  /** The top screen's frame. */
  topFrame: HTMLIFrameElement | null;
  /** The stacked screens' paths. */
  paths: string[];
  /** Called with each web → app message and the window that sent it. */
  onAppMessage: ((message: HostMessage, from: Window) => void) | null;
  /** The apps that attached, by window. */
  apps: Map<Window, HostedApp>;
  /** Called when an app attaches or detaches. */
  onAppsChanged: (() => void) | null;
}

const mode = hostMode(window.location.search);
const recorder = createRecorder();
const wiring: HostWiring = { topFrame: null, paths: [], onAppMessage: null, apps: new Map(), onAppsChanged: null };

const host: MoatWebViewHost = {
  messages: recorder.messages,
  bridgeFor: (win) =>
    mode.bridge
      ? {
          postMessage(message: string) {
            const recorded = recorder.record(String(message));
            wiring.onAppMessage?.(recorded, win);
          },
        }
      : null,
  appInfoFor: () => (mode.chrome === 'native' ? { chrome: 'native' } : null),
  attach(win, app) {
    wiring.apps.set(win, app);
    wiring.onAppsChanged?.();
    return () => {
      if (wiring.apps.get(win) === app) wiring.apps.delete(win);
      wiring.onAppsChanged?.();
    };
  },
  send(data) {
    const target = wiring.topFrame?.contentWindow;
    if (!target) throw new Error('the app frame is not ready');
    target.postMessage(data, window.location.origin);
    recorder.recordSent(data);
  },
  screens: () => [...wiring.paths],
  clear: () => recorder.clear(),
};
window.__MOAT_WEBVIEW_HOST__ = host;

const container = document.getElementById('host-root');
if (!container) throw new Error('webview-host.html has no #host-root');
createRoot(container).render(<HostPage recorder={recorder} send={host.send} mode={mode} wiring={wiring} />);
