import { act, render } from '@testing-library/react';
import { MemoryRouter, useNavigate, type NavigateFunction } from 'react-router';
import { createScrollMemory, useScrollRestoration } from './useScrollRestoration';

/** A window whose scroll offsets can be set and whose timers are the (fake) globals. */
function fakeWindow() {
  const win = {
    scrollX: 0,
    scrollY: 0,
    scrollTo: vi.fn((x: number, y: number) => {
      win.scrollX = x;
      win.scrollY = y;
    }),
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (id: number) => clearTimeout(id),
    history: { scrollRestoration: 'auto' },
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
  };
  return win;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('createScrollMemory', () => {
  it('saves the page being left and restores it exactly 100 ms after POP', () => {
    const win = fakeWindow();
    const memory = createScrollMemory(win as unknown as Window);
    memory.navigate('a', 'POP'); // first load
    Object.assign(win, { scrollX: 5, scrollY: 640 });
    memory.record();

    memory.navigate('b', 'PUSH');
    expect(win.scrollTo).toHaveBeenLastCalledWith(0, 0);
    expect(memory.get('a')).toEqual({ x: 5, y: 640 });
    Object.assign(win, { scrollX: 0, scrollY: 90 });
    memory.record();

    win.scrollTo.mockClear();
    memory.navigate('a', 'POP');
    vi.advanceTimersByTime(99);
    expect(win.scrollTo).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(win.scrollTo).toHaveBeenCalledExactlyOnceWith(5, 640);
    expect(memory.get('b')).toEqual({ x: 0, y: 90 });
  });

  it('never restores on PUSH or REPLACE', () => {
    const win = fakeWindow();
    const memory = createScrollMemory(win as unknown as Window);
    memory.navigate('a', 'POP');
    win.scrollY = 300;
    memory.record();
    memory.navigate('b', 'PUSH');
    win.scrollTo.mockClear();
    memory.navigate('a', 'REPLACE');
    vi.advanceTimersByTime(1000);
    expect(win.scrollTo.mock.calls).toEqual([[0, 0]]);
  });

  it('keeps the page where it is when only the query changes (a modal route opens)', () => {
    const win = fakeWindow();
    const memory = createScrollMemory(win as unknown as Window);
    memory.navigate('a', 'POP');
    win.scrollY = 900;
    memory.record();
    win.scrollTo.mockClear();
    memory.navigate('a-modal', 'PUSH', true);
    vi.advanceTimersByTime(1000);
    expect(win.scrollTo).not.toHaveBeenCalled();
    expect(memory.get('a-modal')).toEqual({ x: 0, y: 900 });
  });

  it('does nothing on POP to an entry without a saved position, and cancels a pending restore', () => {
    const win = fakeWindow();
    const memory = createScrollMemory(win as unknown as Window);
    memory.navigate('x', 'POP');
    vi.advanceTimersByTime(1000);
    expect(win.scrollTo).not.toHaveBeenCalled();

    win.scrollY = 200;
    memory.record();
    memory.navigate('y', 'PUSH');
    win.scrollTo.mockClear();
    const cancel = memory.navigate('x', 'POP');
    cancel();
    vi.advanceTimersByTime(1000);
    expect(win.scrollTo).not.toHaveBeenCalled();
  });

  it('install records on scroll (passive) and sets manual scroll restoration until uninstalled', () => {
    const win = fakeWindow();
    const memory = createScrollMemory(win as unknown as Window);
    const uninstall = memory.install();
    expect(win.history.scrollRestoration).toBe('manual');
    expect(win.addEventListener).toHaveBeenCalledWith('scroll', memory.record, { passive: true });
    uninstall();
    expect(win.removeEventListener).toHaveBeenCalledWith('scroll', memory.record);
    expect(win.history.scrollRestoration).toBe('auto');
  });
});

describe('useScrollRestoration', () => {
  let navigate: NavigateFunction;
  function App() {
    useScrollRestoration();
    navigate = useNavigate();
    return null;
  }

  const scrollWindowTo = (y: number) => {
    Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
    window.dispatchEvent(new Event('scroll'));
  };

  it('restores the position of the page returned to with back, after 100 ms', () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    render(
      <MemoryRouter initialEntries={['/list']}>
        <App />
      </MemoryRouter>,
    );
    expect(window.history.scrollRestoration).toBe('manual');
    scrollWindowTo(1200);

    act(() => void navigate('/detail'));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    scrollWindowTo(300);

    scrollTo.mockClear();
    act(() => void navigate(-1));
    expect(scrollTo).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(100));
    expect(scrollTo).toHaveBeenCalledExactlyOnceWith(0, 1200);

    scrollTo.mockClear();
    act(() => void navigate(1));
    act(() => vi.advanceTimersByTime(100));
    expect(scrollTo).toHaveBeenCalledExactlyOnceWith(0, 300);
    scrollTo.mockRestore();
  });
});
