import { act, renderHook } from '@testing-library/react';
import { createAppFocusStore, useAppFocus } from './useAppFocus';

const fromApp = (data: string) => window.dispatchEvent(new MessageEvent('message', { data, origin: '' }));
const FOCUS = '"IS_FOCUSED_FROM_APP=TRUE"';
const BLUR = '"IS_FOCUSED_FROM_APP=FALSE"';

describe('createAppFocusStore', () => {
  it('starts focused and flips on the app messages', () => {
    const store = createAppFocusStore();
    expect(store.getSnapshot()).toBe(true);
    fromApp(BLUR);
    expect(store.getSnapshot()).toBe(false);
    fromApp('IS_FOCUSED_FROM_APP=TRUE');
    expect(store.getSnapshot()).toBe(true);
    store.dispose();
    fromApp(BLUR);
    expect(store.getSnapshot()).toBe(true);
  });

  it('runs callbacks on change only, skipping the first change', () => {
    const onFocus = vi.fn();
    const onBlur = vi.fn();
    const store = createAppFocusStore({ onFocus, onBlur });
    const listener = vi.fn();
    store.subscribe(listener);

    fromApp(FOCUS); // not a change
    expect(listener).not.toHaveBeenCalled();
    fromApp(BLUR); // first change: state flips, no callback
    expect(listener).toHaveBeenLastCalledWith(false);
    expect(onBlur).not.toHaveBeenCalled();
    fromApp(BLUR); // not a change
    fromApp(FOCUS);
    fromApp(BLUR);
    expect(onFocus).toHaveBeenCalledTimes(1);
    expect(onBlur).toHaveBeenCalledTimes(1);
    expect(listener.mock.calls).toEqual([[false], [true], [false]]);
    store.dispose();
  });
});

describe('useAppFocus', () => {
  it('tracks focus, skips callbacks on the first change after mount and uses the latest callbacks', () => {
    const first = vi.fn();
    const latest = vi.fn();
    const onBlur = vi.fn();
    const { result, rerender, unmount } = renderHook((props: { onFocus: () => void }) => useAppFocus({ ...props, onBlur }), {
      initialProps: { onFocus: first },
    });
    expect(result.current).toBe(true);

    act(() => fromApp(BLUR));
    expect(result.current).toBe(false);
    expect(onBlur).not.toHaveBeenCalled();

    rerender({ onFocus: latest });
    act(() => fromApp(FOCUS));
    expect(result.current).toBe(true);
    expect(first).not.toHaveBeenCalled();
    expect(latest).toHaveBeenCalledTimes(1);

    act(() => fromApp(BLUR));
    expect(onBlur).toHaveBeenCalledTimes(1);

    unmount();
    fromApp(FOCUS);
    expect(latest).toHaveBeenCalledTimes(1);
  });
});
