/**
 * Managing one portfolio from its page: settings (rename, cost method, broker), delete,
 * the orderable cash, and sharing the summary as an image.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MASKED_AMOUNT } from '@/shared/i18n/format';
import { jsonResponse, TEST_META } from '@/test/fetch';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import { ToastArea } from '@/shared/ui/toast';
import { ALLOCATION, apiError, performance, portfolio, portfolioApi, TRANSACTIONS, valuation, type Call } from '../lib/test-fixtures';
import { messagesReady, PortfolioDetailRoute } from '.';
import type { Portfolio } from '../api/portfolio';

vi.mock('../components/ReturnChart', () => ({ default: () => <div data-testid="return-chart-canvas" /> }));

const fallback = (url: URL) =>
  url.pathname === '/api/meta' ? jsonResponse(TEST_META) : jsonResponse({ code: 'not_found', message: 'nf', request_id: 't' }, { status: 404 });

/** The fake API, with the portfolio's settings kept as PATCH changes them. */
function manageApi(patch?: (call: Call, current: Portfolio) => Portfolio | Response) {
  let current = portfolio();
  const api = portfolioApi(
    {
      'GET /api/portfolios/7': () => current,
      'PATCH /api/portfolios/7': (call) => {
        const answer = patch ? patch(call, current) : { ...current, ...(call.body as Partial<Portfolio>) };
        if (answer instanceof Response) return answer;
        current = answer;
        return current;
      },
      'DELETE /api/portfolios/7': () => undefined,
      'GET /api/portfolios/7/valuation': () => valuation(),
      'GET /api/portfolios/meta/valuation': () => valuation(),
      'GET /api/portfolios/7/performance': () => performance(),
      'GET /api/portfolios/meta/performance': () => performance(),
      'GET /api/portfolios/7/allocation': () => ALLOCATION,
      'GET /api/portfolios/7/transactions': () => TRANSACTIONS,
    },
    fallback,
  );
  return { ...api, current: () => current };
}

function renderDetail(api: ReturnType<typeof manageApi>, route = '/portfolios/7') {
  return renderApp({
    route,
    api: api.handler,
    ui: (
      <>
        <ToastArea />
        <Routes>
          <Route path="/portfolios" element={<p data-testid="list-page" />} />
          <Route path="/portfolios/:id" element={<PortfolioDetailRoute />} />
        </Routes>
      </>
    ),
  });
}

beforeAll(async () => {
  await messagesReady;
});

beforeEach(() => {
  window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 7 }));
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function openSettings() {
  // Enabled once the portfolio's settings have arrived.
  const open = await screen.findByTestId('settings-open');
  await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(open);
  return screen.findByRole('dialog', { name: '포트폴리오 설정' });
}

describe('portfolio settings', () => {
  it('renames, changes the cost method and clears the broker with one PATCH; shows the 422 field errors', async () => {
    let attempts = 0;
    const api = manageApi((call, current) => {
      attempts += 1;
      if (attempts === 1) {
        return apiError(422, 'invalid_fields', {
          fields: { name: { code: 'conflict', params: {}, message: 'This is taken already.' }, broker: { code: 'too_long', params: { max: '40' }, message: 'At most 40 characters.' } },
        });
      }
      return { ...current, ...(call.body as Partial<Portfolio>) };
    });
    renderDetail(api);
    await screen.findByRole('heading', { level: 1, name: '키움 메인' });
    const dialog = await openSettings();
    const name = within(dialog).getByLabelText('이름') as HTMLInputElement;
    expect(name.value).toBe('키움 메인');
    expect((within(dialog).getByLabelText('증권사 (선택)') as HTMLInputElement).value).toBe('Kiwoom');
    // The cost method explains what it changes.
    expect(within(dialog).getByText('바꾸면 모든 거래로 평균 단가와 실현손익을 다시 계산합니다.')).toBeTruthy();

    // An empty name is refused in the browser.
    fireEvent.change(name, { target: { value: '  ' } });
    fireEvent.click(within(dialog).getByTestId('settings-save'));
    expect(await within(dialog).findByText('이름을 입력해 주세요.')).toBeTruthy();
    expect(api.find('PATCH', '/api/portfolios/7')).toHaveLength(0);

    fireEvent.change(name, { target: { value: '중복' } });
    fireEvent.change(within(dialog).getByLabelText('평균 단가 계산'), { target: { value: 'fifo' } });
    fireEvent.click(within(dialog).getByTestId('settings-save'));
    expect(await within(dialog).findByText('이미 있는 값입니다.')).toBeTruthy();
    expect(within(dialog).getByText('40자까지 쓸 수 있습니다.')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByLabelText('증권사 (선택)').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('settings-message').textContent).toBe('입력한 내용을 확인해 주세요.');
    expect(api.find('PATCH', '/api/portfolios/7')[0]!.body).toEqual({ name: '중복', cost_method: 'fifo' });

    fireEvent.change(name, { target: { value: ' 키움 장기 ' } });
    expect(name.getAttribute('aria-invalid')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('증권사 (선택)'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByTestId('settings-save'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.find('PATCH', '/api/portfolios/7')[1]!.body).toEqual({ name: '키움 장기', cost_method: 'fifo', broker: null });
    expect(await screen.findByRole('heading', { level: 1, name: '키움 장기' })).toBeTruthy();
    expect(await screen.findByText('설정을 저장했습니다.')).toBeTruthy();
  });

  it('sends nothing when nothing changed', async () => {
    const api = manageApi();
    renderDetail(api);
    const dialog = await openSettings();
    fireEvent.click(within(dialog).getByTestId('settings-save'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.find('PATCH', '/api/portfolios/7')).toHaveLength(0);
  });

  it('deletes the portfolio only after confirming, then goes to the list', async () => {
    const api = manageApi();
    const app = renderDetail(api);
    let dialog = await openSettings();
    fireEvent.click(within(dialog).getByTestId('delete-portfolio'));
    let confirm = await screen.findByRole('dialog', { name: '포트폴리오를 삭제할까요?' });
    expect(within(confirm).getByText('‘키움 메인’ 포트폴리오와 거래 내역이 모두 지워집니다. 되돌릴 수 없습니다.')).toBeTruthy();
    // Going back deletes nothing.
    fireEvent.click(within(confirm).getByRole('button', { name: '돌아가기' }));
    dialog = await screen.findByRole('dialog', { name: '포트폴리오 설정' });
    expect(api.find('DELETE', '/api/portfolios/7')).toHaveLength(0);

    fireEvent.click(within(dialog).getByTestId('delete-portfolio'));
    confirm = await screen.findByRole('dialog', { name: '포트폴리오를 삭제할까요?' });
    fireEvent.click(within(confirm).getByTestId('delete-portfolio-confirm'));
    await screen.findByTestId('list-page');
    expect(api.find('DELETE', '/api/portfolios/7')).toHaveLength(1);
    expect(app.location().pathname).toBe('/portfolios');
    expect(await screen.findByText('‘키움 메인’ 포트폴리오를 삭제했습니다.')).toBeTruthy();
  });

  it('the meta portfolio has no settings', async () => {
    renderDetail(manageApi(), '/portfolios/meta');
    await screen.findByTestId('summary');
    expect(screen.queryByTestId('settings-open')).toBeNull();
    expect(screen.queryByTestId('orderable-cash')).toBeNull();
  });
});

describe('orderable cash', () => {
  it('edits, refuses a bad number, clears; PATCHes orderable_cash and keeps KB_ORDERABLE_CASH_AMOUNT in step', async () => {
    const api = manageApi();
    renderDetail(api);
    const row = () => screen.getByTestId('orderable-cash');
    await waitFor(() => expect(within(row()).getByTestId('orderable-cash-amount').textContent).toBe('₩1,250,000'));

    fireEvent.click(within(row()).getByRole('button', { name: '주문 가능 현금 수정' }));
    const form = await screen.findByTestId('orderable-cash-form');
    const amount = within(form).getByLabelText('금액') as HTMLInputElement;
    expect(amount.value).toBe('1250000');

    fireEvent.change(amount, { target: { value: '12만' } });
    fireEvent.click(within(form).getByTestId('orderable-cash-save'));
    expect(await within(form).findByText('0 이상의 숫자를 입력해 주세요.')).toBeTruthy();
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(api.find('PATCH', '/api/portfolios/7')).toHaveLength(0);

    fireEvent.change(amount, { target: { value: '2,000,000' } });
    fireEvent.click(within(form).getByTestId('orderable-cash-save'));
    await waitFor(() => expect(within(row()).getByTestId('orderable-cash-amount').textContent).toBe('₩2,000,000'));
    expect(api.find('PATCH', '/api/portfolios/7')[0]!.body).toEqual({ orderable_cash: { amount: '2000000', currency: 'KRW' } });
    expect(window.localStorage.getItem('KB_ORDERABLE_CASH_AMOUNT')).toBe('2000000');
    expect(await screen.findByText('주문 가능 현금을 저장했습니다.')).toBeTruthy();
    // Focus returns to the button that opened the form.
    expect(document.activeElement).toBe(within(row()).getByTestId('orderable-cash-edit'));

    // Cleared: the remembered amount goes too (it would show, stale, next time).
    fireEvent.click(within(row()).getByTestId('orderable-cash-edit'));
    fireEvent.click(within(await screen.findByTestId('orderable-cash-form')).getByTestId('orderable-cash-clear'));
    await waitFor(() => expect(within(row()).getByTestId('orderable-cash-none').textContent).toBe('입력하지 않음'));
    expect(api.find('PATCH', '/api/portfolios/7')[1]!.body).toEqual({ orderable_cash: null });
    expect(window.localStorage.getItem('KB_ORDERABLE_CASH_AMOUNT')).toBeNull();

    // Set again, in dollars: the won cache stays empty.
    fireEvent.click(within(row()).getByRole('button', { name: '주문 가능 현금 입력' }));
    const again = await screen.findByTestId('orderable-cash-form');
    fireEvent.change(within(again).getByLabelText('금액'), { target: { value: '1500.5' } });
    fireEvent.change(within(again).getByLabelText('통화'), { target: { value: 'USD' } });
    fireEvent.click(within(again).getByTestId('orderable-cash-save'));
    await waitFor(() => expect(within(row()).getByTestId('orderable-cash-amount').textContent).toBe('$1,500.50'));
    expect(api.find('PATCH', '/api/portfolios/7')[2]!.body).toEqual({ orderable_cash: { amount: '1500.5', currency: 'USD' } });
    expect(window.localStorage.getItem('KB_ORDERABLE_CASH_AMOUNT')).toBeNull();
  });

  it('shows the server’s 422 under the amount', async () => {
    const api = manageApi(() => apiError(422, 'invalid_fields', { fields: { orderable_cash: { code: 'out_of_range', params: { min: '0' }, message: 'A decimal amount of 0 or more.' } } }));
    renderDetail(api);
    fireEvent.click(await screen.findByTestId('orderable-cash-edit'));
    const form = await screen.findByTestId('orderable-cash-form');
    fireEvent.change(within(form).getByLabelText('금액'), { target: { value: '5' } });
    fireEvent.click(within(form).getByTestId('orderable-cash-save'));
    expect(await within(form).findByText('허용된 범위를 벗어났습니다.')).toBeTruthy();
    expect(window.localStorage.getItem('KB_ORDERABLE_CASH_AMOUNT')).toBe('1250000');
  });
});

// ---- share ----------------------------------------------------------------------------

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

/** A 2D context that records what is written; `toDataURL` answers a tiny PNG. */
function fakeCanvas() {
  const texts: string[] = [];
  const ctx = {
    scale: vi.fn(),
    fillRect: vi.fn(),
    createLinearGradient: () => ({ addColorStop: vi.fn() }),
    fillText: vi.fn((text: string) => void texts.push(text)),
    measureText: (text: string) => ({ width: [...text].length * 8 }),
  };
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(ctx as never);
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockReturnValue(PNG);
  return { texts, ctx };
}

function stubNavigator(props: Record<string, unknown>) {
  for (const [key, value] of Object.entries(props)) Object.defineProperty(window.navigator, key, { value, configurable: true, writable: true });
  return () => {
    for (const key of Object.keys(props)) delete (window.navigator as unknown as Record<string, unknown>)[key];
  };
}

describe('share', () => {
  it('with the lock on, the card masks every amount and keeps the percentages; the browser shares the PNG as a file', async () => {
    window.localStorage.setItem('MOAT_META_PORTFOLIO_LOCK', 'true');
    const { texts } = fakeCanvas();
    const share = vi.fn(() => Promise.resolve());
    const restore = stubNavigator({ canShare: () => true, share });
    try {
      renderDetail(manageApi());
      await screen.findByTestId('summary');
      await screen.findByRole('heading', { level: 1, name: '키움 메인' });
      fireEvent.click(screen.getByRole('button', { name: '포트폴리오 요약을 이미지로 공유' }));

      expect(texts).toContain('키움 메인');
      expect(texts).toContain(MASKED_AMOUNT);
      expect(texts).toContain(`${MASKED_AMOUNT} (+1.08%)`);
      expect(texts).toContain('+11.11%');
      // The holdings by weight, weights shown.
      expect(texts).toEqual(expect.arrayContaining(['삼성전자', '63.3%', 'SK하이닉스', '23.6%', '애플', '3.5%']));
      expect(texts.indexOf('삼성전자')).toBeLessThan(texts.indexOf('SK하이닉스'));
      // No amount anywhere: no currency sign, no amount's digits; the only digits are
      // percentages and the as-of time.
      for (const text of texts) {
        expect(text).not.toMatch(/[₩$]/);
        if (/\d/.test(text)) expect(text).toMatch(/%\)?$|기준$/);
      }
      const joined = texts.join(' ');
      for (const digits of ['11,250,000', '11250000', '120,000', '1,250,000', '7,120,000']) expect(joined).not.toContain(digits);

      await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
      const [data] = share.mock.calls[0]! as unknown as [{ files: File[]; title: string; text: string }];
      expect(data.files[0]!.name).toMatch(/^moat-키움-메인-\d{4}-\d{2}-\d{2}\.png$/);
      expect(data.files[0]!.type).toBe('image/png');
      expect(data.title).toBe('키움 메인');
    } finally {
      restore();
    }
  });

  it('downloads the PNG where the browser cannot share files; amounts shown when unlocked', async () => {
    const { texts } = fakeCanvas();
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    renderDetail(manageApi());
    await screen.findByTestId('summary');
    await screen.findByRole('heading', { level: 1, name: '키움 메인' });
    fireEvent.click(screen.getByTestId('share'));
    expect(texts).toContain('₩11,250,000');
    expect(texts).toContain('+₩120,000 (+1.08%)');
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.getAttribute('href')).toBe(PNG);
    expect(clicked[0]!.download).toMatch(/\.png$/);
  });

  it('inside the app’s web view posts SHARE_IMAGE through the bridge (the meta portfolio too)', async () => {
    window.localStorage.setItem('MOAT_META_PORTFOLIO_LOCK', 'true');
    const postMessage = vi.fn();
    window.ReactNativeWebView = { postMessage };
    const { texts } = fakeCanvas();
    const share = vi.fn(() => Promise.resolve());
    const restore = stubNavigator({ canShare: () => true, share });
    try {
      renderDetail(manageApi(), '/portfolios/meta');
      await screen.findByTestId('summary');
      fireEvent.click(screen.getByTestId('share'));
      const sent = postMessage.mock.calls
        .map(([raw]) => JSON.parse(raw as string) as { type: string; payload: Record<string, unknown> })
        .filter((m) => m.type === 'SHARE_IMAGE');
      expect(sent).toHaveLength(1);
      expect(sent[0]!.payload).toMatchObject({ dataUrl: PNG, title: '전체 포트폴리오', text: 'Moat 포트폴리오 요약' });
      expect(sent[0]!.payload.fileName).toMatch(/\.png$/);
      expect(texts).toContain('전체 포트폴리오');
      expect(texts.join(' ')).not.toMatch(/[₩$]/);
      expect(share).not.toHaveBeenCalled();
    } finally {
      restore();
    }
  });

  it('says so when the browser cannot draw', async () => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    renderDetail(manageApi());
    await screen.findByTestId('summary');
    await screen.findByRole('heading', { level: 1, name: '키움 메인' });
    fireEvent.click(screen.getByTestId('share'));
    expect(await screen.findByText('공유 이미지를 만들지 못했습니다.')).toBeTruthy();
  });
});
