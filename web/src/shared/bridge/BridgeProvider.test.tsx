import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { readStorage } from '@/shared/lib/storage';
import type { BridgeAction } from './actions';
import { BridgeProvider, DEFAULT_DIMMER_OPACITY, useBridge } from './BridgeProvider';

function Probe({ action }: { action: BridgeAction }) {
  const { send, inWebView } = useBridge();
  const location = useLocation();
  return (
    <>
      <p data-testid="where">{location.pathname}</p>
      <p data-testid="mode">{inWebView ? 'app' : 'browser'}</p>
      <button onClick={() => send(action)}>send</button>
    </>
  );
}

function renderWith(action: BridgeAction, entries = ['/start']) {
  return render(
    <MemoryRouter initialEntries={entries} initialIndex={entries.length - 1}>
      <BridgeProvider loadingLabel="불러오는 중">
        <Routes>
          <Route path="*" element={<Probe action={action} />} />
        </Routes>
      </BridgeProvider>
    </MemoryRouter>,
  );
}

const click = () => fireEvent.click(screen.getByText('send'));

afterEach(() => {
  delete window.ReactNativeWebView;
  window.history.replaceState(null, '');
  window.localStorage.clear();
  vi.restoreAllMocks();
});

describe('BridgeProvider in a browser', () => {
  it('navigates with the router', () => {
    renderWith({ type: 'NAVIGATE', payload: { path: '/news' } });
    expect(screen.getByTestId('mode').textContent).toBe('browser');
    click();
    expect(screen.getByTestId('where').textContent).toBe('/news');
  });

  it('goes back one step when there is history, home otherwise', () => {
    window.history.replaceState({ idx: 1 }, '');
    const { unmount } = renderWith({ type: 'GO_BACK', payload: null }, ['/a', '/b']);
    click();
    expect(screen.getByTestId('where').textContent).toBe('/a');
    unmount();

    window.history.replaceState(null, '');
    renderWith({ type: 'GO_BACK', payload: null }, ['/deep/page']);
    click();
    expect(screen.getByTestId('where').textContent).toBe('/');
  });

  it('shows and hides the loading indicator', () => {
    const { rerender } = renderWith({ type: 'LOADING', payload: { visible: true } });
    expect(screen.queryByTestId('bridge-loading')).toBeNull();
    click();
    const spinner = screen.getByRole('progressbar');
    expect(spinner.dataset.testid).toBe('bridge-loading');
    expect(spinner.getAttribute('aria-label')).toBe('불러오는 중');
    rerender(
      <MemoryRouter>
        <BridgeProvider>
          <Probe action={{ type: 'LOADING', payload: { visible: false } }} />
        </BridgeProvider>
      </MemoryRouter>,
    );
    click();
    expect(screen.queryByTestId('bridge-loading')).toBeNull();
  });

  it('dims with the given or default opacity and undims', () => {
    const { rerender } = renderWith({ type: 'DIMMER_ON', payload: { opacity: 0.3 } });
    click();
    expect(screen.getByTestId('bridge-dimmer').style.opacity).toBe('0.3');
    const again = (action: BridgeAction) =>
      rerender(
        <MemoryRouter>
          <BridgeProvider>
            <Probe action={action} />
          </BridgeProvider>
        </MemoryRouter>,
      );
    again({ type: 'DIMMER_ON', payload: {} });
    click();
    expect(screen.getByTestId('bridge-dimmer').style.opacity).toBe(String(DEFAULT_DIMMER_OPACITY));
    again({ type: 'DIMMER_OFF', payload: null });
    click();
    expect(screen.queryByTestId('bridge-dimmer')).toBeNull();
  });

  it('opens http(s) deep links in a new tab and never script URLs', () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const { unmount } = renderWith({ type: 'DEEP_LINK', payload: { url: 'https://example.com/a' } });
    click();
    expect(open).toHaveBeenCalledWith('https://example.com/a', '_blank', 'noopener,noreferrer');
    unmount();
    renderWith({ type: 'DEEP_LINK', payload: { url: 'javascript:alert(1)' } });
    click();
    expect(open).toHaveBeenCalledTimes(1);
  });
});

describe('BridgeProvider in the web view', () => {
  it('posts actions to the app and shows no browser fallback', () => {
    const postMessage = vi.fn();
    window.ReactNativeWebView = { postMessage };
    renderWith({ type: 'LOADING', payload: { visible: true } });
    expect(screen.getByTestId('mode').textContent).toBe('app');
    click();
    expect(postMessage).toHaveBeenCalledWith('{"type":"LOADING","payload":{"visible":true}}');
    expect(screen.queryByTestId('bridge-loading')).toBeNull();
  });
});

describe('app → web LOCAL_STORAGE_SET', () => {
  const fromApp = (data: unknown, origin = '') =>
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { data, origin }));
    });

  it('applies known keys with valid values and ignores the rest', () => {
    const { unmount } = renderWith({ type: 'GO_BACK', payload: null });
    fromApp(JSON.stringify({ type: 'LOCAL_STORAGE_SET', payload: { key: 'IS_PREMIUM_USER_FROM_WEBVIEW', value: 'true' } }));
    fromApp({ type: 'LOCAL_STORAGE_SET', payload: { key: 'IS_AD_REMOVAL_REWARD_ON', value: 'true' } });
    fromApp({ type: 'LOCAL_STORAGE_SET', payload: { key: 'UNKNOWN_KEY', value: 'x' } });
    fromApp({ type: 'LOCAL_STORAGE_SET', payload: { key: 'MOAT_INVISIBLE_ADS', value: 'true' } }, 'https://evil.example');
    expect(readStorage('IS_PREMIUM_USER_FROM_WEBVIEW')).toBe(true);
    expect(readStorage('IS_AD_REMOVAL_REWARD_ON')).toBe(true);
    expect(window.localStorage.getItem('UNKNOWN_KEY')).toBeNull();
    expect(readStorage('MOAT_INVISIBLE_ADS')).toBeUndefined();

    unmount();
    fromApp({ type: 'LOCAL_STORAGE_SET', payload: { key: 'IS_AD_REMOVAL_REWARD_ON', value: 'false' } });
    expect(readStorage('IS_AD_REMOVAL_REWARD_ON')).toBe(true);
  });
});

it('useBridge outside the provider throws a clear error', () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  expect(() => render(<Probe action={{ type: 'GO_BACK', payload: null }} />)).toThrow(/BridgeProvider/);
});
