import { describe, expect, it, vi } from 'vitest';
import { createRecorder, framePath, parseHostMessage } from './recorder';

describe('web-view host recorder', () => {
  it('parses {type, payload} messages and keeps anything else as (invalid)', () => {
    expect(parseHostMessage('{"type":"GO_BACK","payload":null}')).toEqual({ type: 'GO_BACK', payload: null });
    expect(parseHostMessage('{"type":"LOADING","payload":{"visible":true}}')).toEqual({
      type: 'LOADING',
      payload: { visible: true },
    });
    expect(parseHostMessage('not json')).toEqual({ type: '(invalid)', payload: 'not json' });
    expect(parseHostMessage('{"payload":1}')).toEqual({ type: '(invalid)', payload: '{"payload":1}' });
  });

  it('records messages in order with a timestamp and notifies subscribers', () => {
    const recorder = createRecorder(() => 1234);
    const listener = vi.fn();
    recorder.subscribe(listener);
    recorder.record('{"type":"HAPTIC_FEEDBACK","payload":{"style":"light"}}');
    recorder.record('{"type":"DIMMER_OFF","payload":null}');
    expect(recorder.messages.map((m) => [m.seq, m.type, m.at])).toEqual([
      [1, 'HAPTIC_FEEDBACK', 1234],
      [2, 'DIMMER_OFF', 1234],
    ]);
    expect(listener).toHaveBeenCalledTimes(2);
    const before = recorder.version();
    recorder.clear();
    expect(recorder.messages).toHaveLength(0);
    expect(recorder.version()).toBe(before + 1);
  });

  it('frames only same-origin paths', () => {
    expect(framePath('')).toBe('/');
    expect(framePath('?path=/settings?language=routeModalTrue')).toBe('/settings?language=routeModalTrue');
    expect(framePath('?path=%2Fsettings')).toBe('/settings');
    expect(framePath('?path=//evil.example')).toBe('/');
    expect(framePath('?path=https://evil.example')).toBe('/');
    expect(framePath('?path=/\\evil.example')).toBe('/');
  });
});
