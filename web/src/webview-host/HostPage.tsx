import { useState, useSyncExternalStore, type FormEvent } from 'react';
import { framePath, type HostRecorder } from './recorder';

export interface HostPageProps {
  recorder: HostRecorder;
  send: (data: unknown) => void;
  onFrame: (frame: HTMLIFrameElement | null) => void;
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

export function HostPage({ recorder, send, onFrame }: HostPageProps) {
  useSyncExternalStore(recorder.subscribe, recorder.version);
  const [path, setPath] = useState(() => framePath(window.location.search));
  const [draftPath, setDraftPath] = useState(path);
  const [frameKey, setFrameKey] = useState(0);
  const [storageKey, setStorageKey] = useState<(typeof APP_STORAGE_KEYS)[number]>(APP_STORAGE_KEYS[0]);
  const [storageValue, setStorageValue] = useState('true');

  const load = (event: FormEvent) => {
    event.preventDefault();
    const next = framePath(`?path=${encodeURIComponent(draftPath)}`);
    const url = new URL(window.location.href);
    url.searchParams.set('path', next);
    window.history.replaceState(null, '', url);
    setPath(next);
    setDraftPath(next);
    setFrameKey((k) => k + 1);
  };

  const sendStorage = (event: FormEvent) => {
    event.preventDefault();
    send(JSON.stringify({ type: 'LOCAL_STORAGE_SET', payload: { key: storageKey, value: storageValue === '(remove)' ? null : storageValue } }));
  };

  const messages = recorder.messages;
  return (
    <div className="host">
      <section className="host__device" aria-label="App">
        <iframe
          key={frameKey}
          ref={onFrame}
          className="host__frame"
          src={path}
          title="Moat app"
          data-testid="host-frame"
        />
      </section>

      <section className="host__panel">
        <header className="host__header">
          <h1>Moat web-view host</h1>
          <p>The app runs in the frame with a recording bridge as <code>window.ReactNativeWebView</code>.</p>
        </header>

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
            {messages.length === 0 && <li className="host__empty">Nothing yet. Use the app’s Settings → 앱 연동 buttons.</li>}
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
