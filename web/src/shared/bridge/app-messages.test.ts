import { listenAppMessages, parseAppMessage } from './app-messages';

describe('parseAppMessage', () => {
  it('accepts the focus messages as JSON strings and raw strings', () => {
    expect(parseAppMessage('"IS_FOCUSED_FROM_APP=TRUE"')).toEqual({ type: 'FOCUS', focused: true });
    expect(parseAppMessage('"IS_FOCUSED_FROM_APP=FALSE"')).toEqual({ type: 'FOCUS', focused: false });
    expect(parseAppMessage('IS_FOCUSED_FROM_APP=TRUE')).toEqual({ type: 'FOCUS', focused: true });
    expect(parseAppMessage('IS_FOCUSED_FROM_APP=FALSE')).toEqual({ type: 'FOCUS', focused: false });
  });

  it('accepts LOCAL_STORAGE_SET as an object or JSON string', () => {
    const msg = { type: 'LOCAL_STORAGE_SET', payload: { key: 'IS_PREMIUM_USER_FROM_WEBVIEW', value: 'true' } };
    expect(parseAppMessage(msg)).toEqual(msg);
    expect(parseAppMessage(JSON.stringify(msg))).toEqual(msg);
    const removal = { type: 'LOCAL_STORAGE_SET', payload: { key: 'IS_AD_REMOVAL_REWARD_ON', value: null } };
    expect(parseAppMessage(removal)).toEqual(removal);
  });

  it('returns null for anything else, never throwing', () => {
    for (const data of [
      undefined,
      null,
      42,
      '',
      '{',
      'IS_FOCUSED_FROM_APP=true',
      '"IS_FOCUSED_FROM_APP=MAYBE"',
      'null',
      '[]',
      { type: 'NAVIGATE', payload: { path: '/' } },
      { type: 'LOCAL_STORAGE_SET' },
      { type: 'LOCAL_STORAGE_SET', payload: { key: 1, value: 'x' } },
      { type: 'LOCAL_STORAGE_SET', payload: { key: 'k', value: true } },
      { source: 'react-devtools-content-script', payload: {} },
    ]) {
      expect(parseAppMessage(data)).toBeNull();
    }
  });
});

describe('listenAppMessages', () => {
  const post = (data: unknown, origin: string, target: EventTarget = window) =>
    target.dispatchEvent(new MessageEvent('message', { data, origin }));

  it('accepts native injection (empty origin) and same origin, ignores other origins', () => {
    const handler = vi.fn();
    const stop = listenAppMessages(handler);
    post('"IS_FOCUSED_FROM_APP=FALSE"', '');
    post('IS_FOCUSED_FROM_APP=TRUE', window.location.origin);
    post('IS_FOCUSED_FROM_APP=FALSE', 'https://evil.example');
    expect(handler.mock.calls).toEqual([[{ type: 'FOCUS', focused: false }], [{ type: 'FOCUS', focused: true }]]);
    stop();
    post('IS_FOCUSED_FROM_APP=FALSE', '');
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it('sees messages dispatched on document (Android) exactly once', () => {
    const handler = vi.fn();
    const stop = listenAppMessages(handler);
    document.dispatchEvent(new MessageEvent('message', { data: 'IS_FOCUSED_FROM_APP=FALSE', origin: '', bubbles: true }));
    document.dispatchEvent(new MessageEvent('message', { data: 'IS_FOCUSED_FROM_APP=TRUE', origin: '' }));
    expect(handler.mock.calls).toEqual([[{ type: 'FOCUS', focused: false }], [{ type: 'FOCUS', focused: true }]]);
    stop();
  });

  it('ignores unknown data silently', () => {
    const error = vi.spyOn(console, 'error');
    const handler = vi.fn();
    const stop = listenAppMessages(handler);
    post('{"not":"ours"}', '');
    post('garbage {', '');
    post({ type: 'webpackOk' }, window.location.origin);
    expect(handler).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
    stop();
    error.mockRestore();
  });
});
