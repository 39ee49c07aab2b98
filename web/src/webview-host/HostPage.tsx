import { useEffect, useReducer, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import type { BridgeActionType } from '@/shared/bridge/actions';
import { isAtHistoryRoot } from '@/shared/lib/history';
import type { HostWiring } from './main';
import { DEBUG_ACTIONS, DEMO_MS, debugRun } from './actions';
import { framePath, type HostRecorder } from './recorder';
import { isScreenPath, screen, screensReducer, type HostMode, type ScreenAction } from './screens';

export interface HostPageProps {
  recorder: HostRecorder;
  send: (data: unknown) => void;
  mode: HostMode;
  wiring: HostWiring;
}

/** The tabs of the app's tab bar the host draws in native-chrome mode. */
const APP_TABS = [
  { path: '/', label: 'Home' },
  { path: '/portfolios', label: 'Portfolio' },
  { path: '/settings', label: 'Settings' },
] as const;

/** What `GET /api/meta` says, as far as this page shows it. */
interface ServerMeta {
  version: string;
  server_time: string;
}

/** Storage keys the app sets in the web view (spec §3). */
const APP_STORAGE_KEYS = ['IS_PREMIUM_USER_FROM_WEBVIEW', 'IS_AD_REMOVAL_REWARD_ON'] as const;

const FOCUS_TRUE = JSON.stringify('IS_FOCUSED_FROM_APP=TRUE');
const FOCUS_FALSE = JSON.stringify('IS_FOCUSED_FROM_APP=FALSE');

function time(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** Payload as readable JSON; long strings (image data URLs) are shortened for display. */
function show(payload: unknown): string {
  return JSON.stringify(payload, (_k, v: unknown) => (typeof v === 'string' && v.length > 120 ? `${v.slice(0, 60)}… (${v.length} chars)` : v), 2);
}

/** Back as the app does it: in the web view when it can go back, else close the screen. */
function backIn(from: Window | null | undefined, dispatch: (action: ScreenAction) => void) {
  if (from && !isAtHistoryRoot(from)) from.history.back();
  else dispatch({ type: 'pop' });
}

export function HostPage({ recorder, send, mode, wiring }: HostPageProps) {
  useSyncExternalStore(recorder.subscribe, recorder.version);
  const [stack, dispatch] = useReducer(screensReducer, undefined, () => [screen(framePath(window.location.search))]);
  const [draftPath, setDraftPath] = useState(() => framePath(window.location.search));
  const [storageKey, setStorageKey] = useState<(typeof APP_STORAGE_KEYS)[number]>(APP_STORAGE_KEYS[0]);
  const [storageValue, setStorageValue] = useState('true');
  const [, setAppsVersion] = useState(0);
  const [meta, setMeta] = useState<ServerMeta | 'error' | null>(null);
  const frames = useRef(new Map<number, HTMLIFrameElement>());
  const top = stack[stack.length - 1]!;

  wiring.paths = stack.map((s) => s.path);

  const back = (from: Window | null | undefined) => backIn(from, dispatch);

  useEffect(() => {
    wiring.onAppsChanged = () => setAppsVersion((v) => v + 1);
    wiring.onAppMessage = (message, from) => {
      if (message.type === 'NAVIGATE') {
        const { path, replace } = (message.payload ?? {}) as { path?: unknown; replace?: unknown };
        if (isScreenPath(path)) dispatch({ type: 'push', path, replace: replace === true });
      } else if (message.type === 'GO_BACK') {
        backIn(from, dispatch);
      }
    };
    return () => {
      wiring.onAppMessage = null;
      wiring.onAppsChanged = null;
    };
  }, [wiring]);

  useEffect(() => {
    wiring.topFrame = frames.current.get(top.id) ?? null;
  }, [top.id, wiring]);

  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/meta', { signal: controller.signal })
      .then((r) => (r.ok ? (r.json() as Promise<ServerMeta>) : Promise.reject(new Error(String(r.status)))))
      .then(setMeta, () => !controller.signal.aborted && setMeta('error'));
    return () => controller.abort();
  }, []);

  const load = (event: FormEvent) => {
    event.preventDefault();
    const next = framePath(`?path=${encodeURIComponent(draftPath)}`);
    const url = new URL(window.location.href);
    url.searchParams.set('path', next);
    window.history.replaceState(null, '', url);
    setDraftPath(next);
    dispatch({ type: 'reset', path: next });
  };

  const sendStorage = (event: FormEvent) => {
    event.preventDefault();
    send(JSON.stringify({ type: 'LOCAL_STORAGE_SET', payload: { key: storageKey, value: storageValue === '(remove)' ? null : storageValue } }));
  };

  const topWindow = frames.current.get(top.id)?.contentWindow ?? null;
  const app = topWindow ? wiring.apps.get(topWindow) : undefined;
  const run = (type: BridgeActionType) => {
    if (!app || !topWindow) return;
    const actions = debugRun(type, topWindow);
    if (!actions) return;
    actions.now.forEach(app.send);
    const later = actions.later;
    if (later) setTimeout(() => app.send(later), DEMO_MS);
  };

  const nativeChrome = mode.chrome === 'native';
  const messages = recorder.messages;
  return (
    <div className="host">
      <section className="host__device" aria-label="App">
        <div className="host__screen">
          {nativeChrome && (
            <header className="host__app-header" data-testid="host-app-header">
              <button
                type="button"
                className="host__app-back"
                aria-label="Back"
                disabled={stack.length === 1}
                onClick={() => back(topWindow)}
              >
                ‹
              </button>
              <span className="host__app-title" data-testid="host-app-title">
                Moat <code>{top.path}</code>
              </span>
              <span className="host__app-depth" data-testid="host-screen-count">
                {stack.length}
              </span>
            </header>
          )}
          <div className="host__frames">
            {stack.map((s) => (
              <iframe
                key={s.id}
                ref={(el) => {
                  if (el) frames.current.set(s.id, el);
                  else frames.current.delete(s.id);
                  if (s.id === top.id) wiring.topFrame = el;
                }}
                className="host__frame"
                src={s.path}
                title={s.id === top.id ? 'Moat app' : 'Moat app (covered screen)'}
                hidden={s.id !== top.id}
                data-testid={s.id === top.id ? 'host-frame' : 'host-frame-covered'}
                onLoad={() => setAppsVersion((v) => v + 1)}
              />
            ))}
          </div>
          {nativeChrome && (
            <nav className="host__app-tabs" aria-label="App tabs">
              {APP_TABS.map((tab) => (
                <button key={tab.path} type="button" onClick={() => dispatch({ type: 'reset', path: tab.path })}>
                  {tab.label}
                </button>
              ))}
            </nav>
          )}
        </div>
      </section>

      <section className="host__panel">
        <div className="host__header">
          <h1>Moat web-view host</h1>
          <p>
            {mode.bridge ? (
              <>
                The app runs in the frame with a recording bridge as <code>window.ReactNativeWebView</code>
                {nativeChrome ? (
                  <>
                    {' '}
                    and <code>window.MoatApp = {'{'} chrome: &apos;native&apos; {'}'}</code>: this page draws the header and the tab
                    bar and stacks a screen per NAVIGATE.
                  </>
                ) : (
                  <> and no <code>window.MoatApp</code> (an older app): the page draws its own header and tab bar.</>
                )}
              </>
            ) : (
              <>Browser mode: the frame has no bridge, so the app runs its browser fallbacks.</>
            )}{' '}
            <span data-testid="host-mode">{mode.bridge ? `app, ${mode.chrome} chrome` : 'browser'}</span>
          </p>
        </div>

        <div className="host__group">
          <h2>Server</h2>
          {meta === 'error' ? (
            <p role="alert">Could not read /api/meta.</p>
          ) : (
            <dl className="host__facts">
              <dt>Version</dt>
              <dd data-testid="host-server-version">{meta?.version ?? '…'}</dd>
              <dt>Server time</dt>
              <dd>{meta ? <time dateTime={meta.server_time}>{new Date(meta.server_time).toLocaleString()}</time> : '…'}</dd>
            </dl>
          )}
        </div>

        <div className="host__group">
          <h2>Web → app: run an action in the app</h2>
          <p className="host__hint">
            {mode.bridge
              ? 'The app posts each action to this page (see the log below).'
              : 'Browser mode: the app runs each action’s browser fallback.'}
          </p>
          <div className="host__row host__row--wrap">
            {DEBUG_ACTIONS.map(({ type, label }) => (
              <button key={type} type="button" disabled={!app} onClick={() => run(type)} data-testid={`bridge-${type}`}>
                {label}
              </button>
            ))}
          </div>
        </div>

        <form className="host__group" onSubmit={load}>
          <h2>Path</h2>
          <div className="host__row">
            <input
              aria-label="Path"
              value={draftPath}
              onChange={(e) => setDraftPath(e.target.value)}
              data-testid="host-path"
            />
            <button type="submit" data-testid="host-load">
              Load
            </button>
          </div>
        </form>

        <div className="host__group">
          <h2>App → web: focus</h2>
          <div className="host__row">
            <button type="button" onClick={() => send(FOCUS_TRUE)} data-testid="host-focus-true">
              IS_FOCUSED_FROM_APP=TRUE
            </button>
            <button type="button" onClick={() => send(FOCUS_FALSE)} data-testid="host-focus-false">
              IS_FOCUSED_FROM_APP=FALSE
            </button>
          </div>
        </div>

        <form className="host__group" onSubmit={sendStorage}>
          <h2>App → web: LOCAL_STORAGE_SET</h2>
          <div className="host__row">
            <select
              aria-label="Key"
              value={storageKey}
              onChange={(e) => setStorageKey(e.target.value as (typeof APP_STORAGE_KEYS)[number])}
              data-testid="host-ls-key"
            >
              {APP_STORAGE_KEYS.map((k) => (
                <option key={k}>{k}</option>
              ))}
            </select>
            <select aria-label="Value" value={storageValue} onChange={(e) => setStorageValue(e.target.value)} data-testid="host-ls-value">
              <option>true</option>
              <option>false</option>
              <option>(remove)</option>
            </select>
            <button type="submit" data-testid="host-ls-send">
              Send
            </button>
          </div>
        </form>

        <div className="host__group host__group--log">
          <div className="host__log-head">
            <h2>
              Web → app messages <span data-testid="host-log-count">{messages.length}</span>
            </h2>
            <button type="button" onClick={recorder.clear} data-testid="host-log-clear">
              Clear
            </button>
          </div>
          <ol className="host__log" data-testid="host-log" aria-live="polite">
            {messages.length === 0 && <li className="host__empty">Nothing yet. Use the buttons above, or the app itself.</li>}
            {[...messages].reverse().map((m) => (
              <li key={m.seq} className="host__entry" data-testid="host-log-entry" data-type={m.type}>
                <div className="host__entry-head">
                  <span className="host__type">{m.type}</span>
                  <time className="host__time" dateTime={new Date(m.at).toISOString()}>
                    #{m.seq} · {time(m.at)}
                  </time>
                </div>
                <pre className="host__payload">{show(m.payload)}</pre>
              </li>
            ))}
          </ol>
          {recorder.sent.length > 0 && (
            <>
              <h2>Sent to the app</h2>
              <ol className="host__log host__log--sent" data-testid="host-sent-log">
                {[...recorder.sent].reverse().map((s) => (
                  <li key={s.seq} className="host__entry">
                    <time className="host__time">{time(s.at)}</time> <code>{typeof s.data === 'string' ? s.data : JSON.stringify(s.data)}</code>
                  </li>
                ))}
              </ol>
            </>
          )}
        </div>
      </section>
    </div>
  );
}
