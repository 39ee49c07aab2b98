import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Instrument } from '@/entities/instrument/api/types';
import { resetLiveStream } from '@/shared/stream/stream';
import { AAPL, FakeWebSocket, HYNIX, instrument, marketApi, quote } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';

const SAMSUNG = instrument();
const KEY = 'MOAT_FAVORITE_ASSETS_REORDER';
const ALL: Instrument[] = [SAMSUNG, AAPL, HYNIX];
const byId = new Map(ALL.map((i) => [i.id, i]));

function favoritesApi(initial: Instrument[] = ALL, { failPut = false } = {}) {
  let saved = initial;
  return marketApi({
    'GET /api/me/favorites': () => saved,
    'PUT /api/me/favorites': (call) => {
      if (failPut) {
        return new Response(JSON.stringify({ code: 'internal', message: 'boom', request_id: 'r' }), {
          status: 500,
          headers: { 'Content-Type': 'application/json' },
        });
      }
      saved = (call.body as { ids: string[] }).ids.map((id) => byId.get(id)!);
      return saved;
    },
    'GET /api/instruments/KRX%3A005930/quote': () => quote(),
    'GET /api/instruments/NASDAQ%3AAAPL/quote': () => quote({ instrument_id: AAPL.id, price: '189.43', change: '-1.2', change_percent: '-0.63' }),
    'GET /api/instruments/KRX%3A000660/quote': () => quote({ instrument_id: HYNIX.id, price: '190000' }),
  });
}

const pending = () => JSON.parse(window.localStorage.getItem(KEY) ?? 'null') as string[] | null;
const editRows = () => screen.getAllByTestId('favorite-edit-row').map((r) => r.getAttribute('data-id'));
const viewRows = () => screen.getAllByTestId('instrument-row').map((r) => r.getAttribute('data-id'));

beforeEach(() => {
  FakeWebSocket.reset();
  vi.stubGlobal('WebSocket', FakeWebSocket);
  window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 7 }));
});

afterEach(() => {
  resetLiveStream();
});

describe('favourites page', () => {
  it('sends a visitor to log in and back', async () => {
    window.localStorage.removeItem('AUTH_TOKEN');
    const app = renderApp({ route: '/favorites', api: favoritesApi().handler });
    // The accounts chunk is large: its first import in a test run can take a while.
    await screen.findByTestId('login-form', {}, { timeout: 5000 });
    expect(app.location().pathname).toBe('/login');
    expect(app.location().search).toBe('?next=%2Ffavorites');
  });

  it('lists the favourites in the member’s order with live prices', async () => {
    renderApp({ route: '/favorites', api: favoritesApi().handler });
    await waitFor(() => expect(viewRows()).toEqual(['KRX:005930', 'NASDAQ:AAPL', 'KRX:000660']));
    await waitFor(() => expect(screen.getAllByTestId('row-price').map((p) => p.textContent)).toEqual(['₩71,200', '$189.43', '₩190,000']));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('관심 종목 3개');
  });

  it('keeps the order being edited in storage, moves rows by button and Alt+arrow, and saves it', async () => {
    const api = favoritesApi();
    renderApp({ route: '/favorites', api: api.handler });
    fireEvent.click(await screen.findByTestId('favorites-edit'));
    expect(pending()).toEqual(['KRX:005930', 'NASDAQ:AAPL', 'KRX:000660']);
    expect(editRows()).toEqual(['KRX:005930', 'NASDAQ:AAPL', 'KRX:000660']);

    // Move Samsung down with its button: announced, and the focus stays on that button.
    const down = screen.getByRole('button', { name: '삼성전자 아래로' });
    down.focus();
    fireEvent.click(down);
    expect(pending()).toEqual(['NASDAQ:AAPL', 'KRX:005930', 'KRX:000660']);
    expect(editRows()).toEqual(['NASDAQ:AAPL', 'KRX:005930', 'KRX:000660']);
    expect(screen.getByTestId('reorder-announcement').textContent).toBe('삼성전자: 3개 중 2번째');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '삼성전자 아래로' }));

    // Alt+↓ on the row moves it again; at the bottom its "down" button is disabled, so the focus moves to the handle.
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown', altKey: true });
    expect(pending()).toEqual(['NASDAQ:AAPL', 'KRX:000660', 'KRX:005930']);
    expect((screen.getByRole('button', { name: '삼성전자 아래로' }) as HTMLButtonElement).disabled).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '삼성전자 끌어서 옮기기' }));
    expect(screen.getByTestId('reorder-announcement').textContent).toBe('삼성전자: 3개 중 3번째');

    // Plain arrows do nothing; Alt+↑ moves up.
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(pending()).toEqual(['NASDAQ:AAPL', 'KRX:000660', 'KRX:005930']);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp', altKey: true });
    expect(pending()).toEqual(['NASDAQ:AAPL', 'KRX:005930', 'KRX:000660']);

    fireEvent.click(screen.getByTestId('favorites-save'));
    await waitFor(() => expect(api.find('PUT', '/api/me/favorites')).toHaveLength(1));
    expect(api.find('PUT', '/api/me/favorites')[0]!.body).toEqual({ ids: ['NASDAQ:AAPL', 'KRX:005930', 'KRX:000660'] });
    await waitFor(() => expect(pending()).toBeNull());
    expect(await screen.findByText('관심 종목 순서를 저장했습니다.')).toBeTruthy();
    expect(viewRows()).toEqual(['NASDAQ:AAPL', 'KRX:005930', 'KRX:000660']);
  });

  it('removes a favourite in the edit, saved with the rest', async () => {
    const api = favoritesApi();
    renderApp({ route: '/favorites', api: api.handler });
    fireEvent.click(await screen.findByTestId('favorites-edit'));
    fireEvent.click(screen.getByRole('button', { name: '애플 빼기' }));
    expect(pending()).toEqual(['KRX:005930', 'KRX:000660']);
    expect(screen.getByTestId('reorder-announcement').textContent).toBe('애플을(를) 목록에서 뺐습니다. 저장하면 반영됩니다.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'SK하이닉스 빼기' }));
    fireEvent.click(screen.getByTestId('favorites-save'));
    await waitFor(() => expect(api.find('PUT', '/api/me/favorites')[0]?.body).toEqual({ ids: ['KRX:005930', 'KRX:000660'] }));
  });

  it('resumes an unsaved edit after a reload', async () => {
    const api = favoritesApi();
    const first = renderApp({ route: '/favorites', api: api.handler });
    fireEvent.click(await screen.findByTestId('favorites-edit'));
    fireEvent.click(screen.getByRole('button', { name: 'SK하이닉스 위로' }));
    expect(pending()).toEqual(['KRX:005930', 'KRX:000660', 'NASDAQ:AAPL']);
    first.unmount();

    // The page loads again: same edit, same order.
    renderApp({ route: '/favorites', api: api.handler });
    await waitFor(() => expect(editRows()).toEqual(['KRX:005930', 'KRX:000660', 'NASDAQ:AAPL']));
    expect(await screen.findByText('저장하지 않은 편집을 이어서 합니다.')).toBeTruthy();
    expect(api.find('PUT', '/api/me/favorites')).toHaveLength(0);
  });

  it('cancel forgets the edit', async () => {
    const api = favoritesApi();
    renderApp({ route: '/favorites', api: api.handler });
    fireEvent.click(await screen.findByTestId('favorites-edit'));
    fireEvent.click(screen.getByRole('button', { name: '삼성전자 아래로' }));
    fireEvent.click(screen.getByTestId('favorites-cancel'));
    expect(pending()).toBeNull();
    expect(viewRows()).toEqual(['KRX:005930', 'NASDAQ:AAPL', 'KRX:000660']);
    expect(api.find('PUT', '/api/me/favorites')).toHaveLength(0);
  });

  it('keeps the edit when saving fails', async () => {
    renderApp({ route: '/favorites', api: favoritesApi(ALL, { failPut: true }).handler });
    fireEvent.click(await screen.findByTestId('favorites-edit'));
    fireEvent.click(screen.getByRole('button', { name: '삼성전자 아래로' }));
    fireEvent.click(screen.getByTestId('favorites-save'));
    expect(await screen.findByText('저장하지 못했습니다. 편집 내용은 그대로 있으니 다시 시도해 주세요.')).toBeTruthy();
    expect(pending()).toEqual(['NASDAQ:AAPL', 'KRX:005930', 'KRX:000660']);
    expect(editRows()).toEqual(['NASDAQ:AAPL', 'KRX:005930', 'KRX:000660']);
  });

  it('drops a stored edit that no longer fits the saved list', async () => {
    window.localStorage.setItem(KEY, JSON.stringify(['KRX:000660', 'NYSE:KO']));
    renderApp({ route: '/favorites', api: favoritesApi().handler });
    expect(await screen.findByText('관심 종목이 다른 곳에서 바뀌어 저장하지 않은 편집을 지웠습니다.')).toBeTruthy();
    expect(pending()).toBeNull();
    expect(viewRows()).toEqual(['KRX:005930', 'NASDAQ:AAPL', 'KRX:000660']);
  });

  it.each(['mouse', 'touch'])('reorders by dragging the handle (%s)', async (pointerType) => {
    renderApp({ route: '/favorites', api: favoritesApi().handler });
    fireEvent.click(await screen.findByTestId('favorites-edit'));
    // Rows 60 px tall, one under the other.
    screen.getAllByTestId('favorite-edit-row').forEach((row, i) => {
      row.getBoundingClientRect = () => ({ top: i * 60, bottom: i * 60 + 60, height: 60, left: 0, right: 300, width: 300, x: 0, y: i * 60, toJSON: () => ({}) });
    });
    const handle = within(screen.getAllByTestId('favorite-edit-row')[0]!).getByTestId('drag-handle');
    const pointer = { pointerId: 1, pointerType, button: 0 };
    fireEvent.pointerDown(handle, { ...pointer, clientY: 30 });
    fireEvent.pointerMove(handle, { ...pointer, clientY: 100 });
    const rows = () => screen.getAllByTestId('favorite-edit-row');
    // Past the second row's middle: the second row makes room, the first follows the pointer.
    expect(rows()[0]!.style.transform).toBe('translateY(70px)');
    expect(rows()[1]!.style.transform).toBe('translateY(-60px)');
    expect(rows()[2]!.style.transform).toBe('');
    fireEvent.pointerMove(handle, { ...pointer, clientY: 165 });
    expect(rows()[2]!.style.transform).toBe('translateY(-60px)');
    fireEvent.pointerUp(handle, { ...pointer, clientY: 165 });

    expect(pending()).toEqual(['NASDAQ:AAPL', 'KRX:000660', 'KRX:005930']);
    expect(editRows()).toEqual(['NASDAQ:AAPL', 'KRX:000660', 'KRX:005930']);
    expect(rows().every((r) => r.style.transform === '')).toBe(true);
    expect(screen.getByTestId('reorder-announcement').textContent).toBe('삼성전자: 3개 중 3번째');
  });

  it('a cancelled drag changes nothing', async () => {
    renderApp({ route: '/favorites', api: favoritesApi().handler });
    fireEvent.click(await screen.findByTestId('favorites-edit'));
    screen.getAllByTestId('favorite-edit-row').forEach((row, i) => {
      row.getBoundingClientRect = () => ({ top: i * 60, bottom: i * 60 + 60, height: 60, left: 0, right: 300, width: 300, x: 0, y: i * 60, toJSON: () => ({}) });
    });
    const handle = within(screen.getAllByTestId('favorite-edit-row')[0]!).getByTestId('drag-handle');
    fireEvent.pointerDown(handle, { pointerId: 2, pointerType: 'touch', clientY: 30 });
    fireEvent.pointerMove(handle, { pointerId: 2, pointerType: 'touch', clientY: 160 });
    fireEvent.pointerCancel(handle, { pointerId: 2, pointerType: 'touch' });
    expect(pending()).toEqual(['KRX:005930', 'NASDAQ:AAPL', 'KRX:000660']);
  });
});
