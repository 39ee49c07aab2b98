import { installDelayedScripts } from './delayed-scripts';

const addScript = (url: string) => {
  const script = document.createElement('script');
  script.setAttribute('delay', url);
  document.head.append(script);
  return script;
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  document.head.querySelectorAll('script').forEach((s) => s.remove());
});

describe('installDelayedScripts', () => {
  it('sets src after exactly 5 s', () => {
    const a = addScript('https://cdn.example/a.js');
    const b = addScript('https://cdn.example/b.js');
    const plain = document.createElement('script');
    document.head.append(plain);
    const uninstall = installDelayedScripts();
    vi.advanceTimersByTime(4999);
    expect(a.getAttribute('src')).toBeNull();
    vi.advanceTimersByTime(1);
    expect(a.getAttribute('src')).toBe('https://cdn.example/a.js');
    expect(b.getAttribute('src')).toBe('https://cdn.example/b.js');
    expect(plain.getAttribute('src')).toBeNull();
    uninstall();
  });

  it.each(['keydown', 'mousedown', 'mousemove', 'wheel', 'touchstart'])('sets src on the first %s', (type) => {
    const a = addScript('https://cdn.example/a.js');
    const uninstall = installDelayedScripts();
    window.dispatchEvent(new Event(type));
    expect(a.getAttribute('src')).toBe('https://cdn.example/a.js');
    uninstall();
  });

  it('fires exactly once: timer and listeners are removed after the first trigger', () => {
    const add = vi.spyOn(window, 'addEventListener');
    const remove = vi.spyOn(window, 'removeEventListener');
    addScript('https://cdn.example/a.js');
    installDelayedScripts();
    for (const [, , options] of add.mock.calls) expect(options).toEqual({ passive: true });
    expect(add).toHaveBeenCalledTimes(5);

    window.dispatchEvent(new Event('mousemove'));
    expect(remove).toHaveBeenCalledTimes(5);
    const later = addScript('https://cdn.example/later.js');
    window.dispatchEvent(new Event('keydown'));
    vi.advanceTimersByTime(10_000);
    expect(later.getAttribute('src')).toBeNull();
  });

  it('does nothing after uninstall', () => {
    const a = addScript('https://cdn.example/a.js');
    installDelayedScripts()();
    window.dispatchEvent(new Event('touchstart'));
    vi.advanceTimersByTime(10_000);
    expect(a.getAttribute('src')).toBeNull();
  });
});
