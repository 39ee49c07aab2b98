import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetLiveStream } from '@/shared/stream/stream';
import { AAPL, detail, FakeWebSocket, HYNIX, instrument, marketApi } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { SEARCH_DEBOUNCE_MS } from './SearchPage';

const SAMSUNG = instrument();
const SAMSUNG_PREF = instrument({ id: 'KRX:005935', ticker: '005935', name_ko: '삼성전자우', name_en: 'Samsung Electronics (Pref.)' });

function searchApi() {
  return marketApi({
    'GET /api/instruments/search': (_call, url) => {
      const q = url.searchParams.get('q') ?? '';
      if (q.startsWith('삼성') || q === 'ㅅㅅㅈㅈ') return [SAMSUNG, SAMSUNG_PREF];
      if ('apple'.startsWith(q.toLowerCase())) return [AAPL];
      return [];
    },
    'GET /api/instruments/KRX%3A005930': () => detail(SAMSUNG),
    'GET /api/instruments/KRX%3A000660': () => detail(HYNIX),
  });
}

const input = () => screen.getByRole('combobox') as HTMLInputElement;
const type = (value: string) => fireEvent.change(input(), { target: { value } });
/** Lets the debounce run out and the answer arrive. */
const settle = () => act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 10));
const options = () => screen.queryAllByRole('option');
const searches = (api: ReturnType<typeof searchApi>) => api.find('GET', '/api/instruments/search').map((c) => new URLSearchParams(c.path.split('?')[1]).get('q'));

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  FakeWebSocket.reset();
  vi.stubGlobal('WebSocket', FakeWebSocket);
});

afterEach(() => {
  resetLiveStream();
});

describe('search page', () => {
  it('is reached from the header’s search button', async () => {
    const app = renderApp({ route: '/settings', api: searchApi().handler });
    fireEvent.click(screen.getByTestId('header-search'));
    expect(await screen.findByRole('heading', { level: 1, name: '종목 검색' })).toBeTruthy();
    expect(app.location().pathname).toBe('/search');
    expect(document.activeElement).toBe(input());
  });

  it('shows results as one types, after a short pause, with names, ticker and market', async () => {
    const api = searchApi();
    const app = renderApp({ route: '/search', api: api.handler });
    await screen.findByRole('combobox');
    type('a');
    type('ap');
    type('app');
    expect(searches(api)).toEqual([]);
    await settle();
    await waitFor(() => expect(options()).toHaveLength(1));
    expect(searches(api)).toEqual(['app']);
    const [apple] = options();
    expect(within(apple!).getByText('애플')).toBeTruthy();
    expect(within(apple!).getByText('Apple')).toBeTruthy();
    expect(within(apple!).getByText('AAPL')).toBeTruthy();
    expect(within(apple!).getByText('NASDAQ')).toBeTruthy();
    expect(screen.getByTestId('search-status').textContent).toBe('검색 결과 1개');
    expect(app.location().search).toBe('?q=app');
  });

  it('moves through the results with the arrow keys and opens one with Enter', async () => {
    const app = renderApp({ route: '/search', api: searchApi().handler });
    await screen.findByRole('combobox');
    type('삼성');
    await settle();
    await waitFor(() => expect(options()).toHaveLength(2));
    const box = input();
    expect(box.getAttribute('aria-expanded')).toBe('true');
    expect(box.getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id);
    expect(box.getAttribute('aria-activedescendant')).toBeNull();

    const activeName = () => {
      const id = box.getAttribute('aria-activedescendant');
      return id ? document.getElementById(id)?.querySelector('.instrument-option__name')?.textContent : null;
    };
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(activeName()).toBe('삼성전자');
    expect(options()[0]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(activeName()).toBe('삼성전자우');
    expect(options()[0]!.getAttribute('aria-selected')).toBe('false');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(activeName()).toBe('삼성전자'); // wraps
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(activeName()).toBe('삼성전자우');

    // Escape lets go of the highlight first, then clears the box.
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box.getAttribute('aria-activedescendant')).toBeNull();
    expect(box.value).toBe('삼성');

    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(activeName()).toBe('삼성전자우');
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(app.location().pathname).toBe('/stocks/KRX%3A005935'));
  });

  it('Escape with nothing highlighted clears the query', async () => {
    renderApp({ route: '/search?q=삼성', api: searchApi().handler });
    await screen.findByRole('combobox');
    expect(input().value).toBe('삼성');
    await settle();
    await waitFor(() => expect(options()).toHaveLength(2));
    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(input().value).toBe('');
    expect(await screen.findByText('최근 본 종목이 없습니다. 이름이나 티커로 검색해 보세요.')).toBeTruthy();
  });

  it('does not search text still being composed by a Korean input method', async () => {
    const api = searchApi();
    const app = renderApp({ route: '/search', api: api.handler });
    await screen.findByRole('combobox');
    const box = input();

    fireEvent.compositionStart(box);
    type('ㅅ');
    type('사');
    type('삼');
    type('삼ㅅ');
    type('삼서');
    type('삼성');
    await settle();
    expect(searches(api)).toEqual([]);
    expect(box.value).toBe('삼성');
    // The Enter that ends a composition belongs to the input method.
    fireEvent.keyDown(box, { key: 'Enter', isComposing: true });
    fireEvent.keyDown(box, { key: 'ArrowDown', isComposing: true });
    expect(app.location().pathname).toBe('/search');

    fireEvent.compositionEnd(box, { data: '성' });
    await settle();
    await waitFor(() => expect(options()).toHaveLength(2));
    expect(searches(api)).toEqual(['삼성']);
  });

  it('searches Korean initial consonants once composed', async () => {
    const api = searchApi();
    renderApp({ route: '/search', api: api.handler });
    await screen.findByRole('combobox');
    fireEvent.compositionStart(input());
    type('ㅅㅅㅈㅈ');
    fireEvent.compositionEnd(input(), { data: 'ㅈ' });
    await settle();
    await waitFor(() => expect(options()).toHaveLength(2));
    expect(searches(api)).toEqual(['ㅅㅅㅈㅈ']);
  });

  it('says when nothing matches', async () => {
    renderApp({ route: '/search', api: searchApi().handler });
    await screen.findByRole('combobox');
    type('zzzz');
    await settle();
    expect(await screen.findByText('‘zzzz’에 맞는 종목이 없습니다.', { selector: '.search-empty' })).toBeTruthy();
    expect(input().getAttribute('aria-expanded')).toBe('false');
  });

  it('shows recently viewed stocks while the box is empty, navigable too, and clears them', async () => {
    window.localStorage.setItem('MOAT_RECENT_STOCKS_2', JSON.stringify(['KRX:000660', 'KRX:005930']));
    const app = renderApp({ route: '/search', api: searchApi().handler });
    expect(await screen.findByRole('heading', { level: 2, name: '최근 본 종목' })).toBeTruthy();
    await waitFor(() => expect(options().map((o) => o.querySelector('.instrument-option__name')?.textContent)).toEqual(['SK하이닉스', '삼성전자']));

    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    expect(options()[1]!.getAttribute('aria-selected')).toBe('true');

    fireEvent.click(screen.getByTestId('clear-recent'));
    expect(window.localStorage.getItem('MOAT_RECENT_STOCKS_2')).toBeNull();
    expect(options()).toHaveLength(0);
    expect(await screen.findByText('최근 본 종목을 지웠습니다.')).toBeTruthy();

    // Clicking a result opens it.
    type('삼성');
    await settle();
    await waitFor(() => expect(options()).toHaveLength(2));
    fireEvent.click(options()[0]!);
    await waitFor(() => expect(app.location().pathname).toBe('/stocks/KRX%3A005930'));
  });
});
