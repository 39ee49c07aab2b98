import { BRIDGE_ACTION_TYPES, encodeBridgeAction, type BridgeActionType, type BridgePayloads } from './actions';

describe('bridge actions', () => {
  it('lists every action of spec §7', () => {
    expect([...BRIDGE_ACTION_TYPES].sort()).toEqual(
      ['DEEP_LINK', 'DIMMER_OFF', 'DIMMER_ON', 'GO_BACK', 'HAPTIC_FEEDBACK', 'LOADING', 'LOCAL_STORAGE_SET', 'NAVIGATE', 'SHARE_IMAGE'].sort(),
    );
    expectTypeOf<BridgeActionType>().toEqualTypeOf<keyof BridgePayloads>();
  });

  it('encodes as JSON {type, payload}', () => {
    expect(encodeBridgeAction({ type: 'NAVIGATE', payload: { path: '/stocks/005930' } })).toBe(
      '{"type":"NAVIGATE","payload":{"path":"/stocks/005930"}}',
    );
    expect(encodeBridgeAction({ type: 'GO_BACK', payload: null })).toBe('{"type":"GO_BACK","payload":null}');
    expect(JSON.parse(encodeBridgeAction({ type: 'HAPTIC_FEEDBACK', payload: { style: 'success' } }))).toEqual({
      type: 'HAPTIC_FEEDBACK',
      payload: { style: 'success' },
    });
  });

  it('posts only type and payload', () => {
    const extra = { type: 'DIMMER_OFF', payload: null, secret: 1 } as unknown as Parameters<typeof encodeBridgeAction>[0];
    expect(encodeBridgeAction(extra)).toBe('{"type":"DIMMER_OFF","payload":null}');
  });
});
