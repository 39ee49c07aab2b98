import { installAutoReload } from './auto-reload';

const HOUR = 3_600_000;
let visibility: DocumentVisibilityState = 'visible';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') });
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function becomeVisible() {
  visibility = 'visible';
  document.dispatchEvent(new Event('visibilitychange'));
}
function becomeHidden() {
  visibility = 'hidden';
  document.dispatchEvent(new Event('visibilitychange'));
}

describe('installAutoReload', () => {
  it('reloads on visible again strictly more than one hour after load', () => {
    const reload = vi.fn();
    const uninstall = installAutoReload({ reload });
    becomeHidden();
    vi.advanceTimersByTime(HOUR);
    becomeVisible(); // exactly one hour: not more
    expect(reload).not.toHaveBeenCalled();
    becomeHidden();
    vi.advanceTimersByTime(1);
    expect(reload).not.toHaveBeenCalled(); // hidden does not reload
    becomeVisible();
    expect(reload).toHaveBeenCalledTimes(1);
    uninstall();
  });

  it('reloads on window focus after more than one hour, once', () => {
    const reload = vi.fn();
    const uninstall = installAutoReload({ reload });
    window.dispatchEvent(new Event('focus'));
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(HOUR + 1);
    window.dispatchEvent(new Event('focus'));
    becomeVisible();
    expect(reload).toHaveBeenCalledTimes(1);
    uninstall();
  });

  it('measures from loadedAt with the given clock', () => {
    const reload = vi.fn();
    let t = 10_000;
    const uninstall = installAutoReload({ loadedAt: 0, now: () => t, reload });
    window.dispatchEvent(new Event('focus'));
    expect(reload).not.toHaveBeenCalled();
    t = HOUR + 1;
    window.dispatchEvent(new Event('focus'));
    expect(reload).toHaveBeenCalledTimes(1);
    uninstall();
  });

  it('stops after uninstall', () => {
    const reload = vi.fn();
    installAutoReload({ reload })();
    vi.advanceTimersByTime(2 * HOUR);
    window.dispatchEvent(new Event('focus'));
    becomeVisible();
    expect(reload).not.toHaveBeenCalled();
  });
});
