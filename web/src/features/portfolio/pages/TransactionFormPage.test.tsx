import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setLocale } from '@/shared/i18n/i18n';
import { jsonResponse, TEST_META } from '@/test/fetch';
import { AAPL, detail, instrument, KOSPI } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import { apiError, portfolio, portfolioApi, transaction, TRANSACTIONS, type Call } from '../lib/test-fixtures';
import { messagesReady, TransactionRoute } from '.';

const SAMSUNG = instrument();

const fallback = (url: URL) =>
  url.pathname === '/api/meta' ? jsonResponse(TEST_META) : jsonResponse({ code: 'not_found', message: 'nf', request_id: 't' }, { status: 404 });

function formApi(overrides: Parameters<typeof portfolioApi>[0] = {}) {
  return portfolioApi(
    {
      'GET /api/portfolios/7': () => portfolio(),
      'GET /api/portfolios/7/transactions': () => TRANSACTIONS,
      'GET /api/instruments/search': (call) => {
        const q = (call.search.get('q') ?? '').toLowerCase();
        return [SAMSUNG, AAPL, KOSPI].filter((i) => i.ticker.toLowerCase().includes(q) || i.name_ko.includes(q) || i.name_en.toLowerCase().includes(q));
      },
      'GET /api/instruments/NASDAQ%3AAAPL': () => detail(AAPL),
      'POST /api/portfolios/7/transactions': (call) => ({ id: 99, ...(call.body as object) }),
      'PUT /api/portfolios/7/transactions/41': (call) => ({ id: 41, ...(call.body as object) }),
      ...overrides,
    },
    fallback,
  );
}

function renderForm(api: ReturnType<typeof formApi>, route = '/portfolios/7/transactions/new') {
  return renderApp({
    route,
    api: api.handler,
    ui: (
      <Routes>
        <Route path="/portfolios/:id/transactions/new" element={<TransactionRoute />} />
        <Route path="/portfolios/:id/transactions/:txId" element={<TransactionRoute />} />
        <Route path="/portfolios/:id" element={<p data-testid="detail-page" />} />
      </Routes>
    ),
  });
}

const form = () => screen.getByTestId('transaction-form');
const field = (name: string) => screen.queryByTestId(`field-${name}`) as HTMLInputElement | null;
const type = (name: string, value: string) => fireEvent.change(field(name)!, { target: { value } });
const errorOf = (input: HTMLElement) => {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ');
  return ids.map((id) => document.getElementById(id)).find((el) => el?.classList.contains('field__error'))?.textContent ?? '';
};

/** The Idempotency-Key a request carried. */
const keyOf = (call: Call) => call.headers['Idempotency-Key'];

/** A deposit of `amount` won on 2026-03-02. */
async function fillDeposit(amount: string) {
  fireEvent.click(screen.getByTestId('kind-deposit'));
  fireEvent.change(field('trade_date')!, { target: { value: '2026-03-02' } });
  type('price', amount);
}

/** Types in the instrument box, waits for the results, chooses one with the keyboard. */
async function pick(query: string, downs = 1) {
  const box = screen.getByTestId('instrument-input');
  fireEvent.change(box, { target: { value: query } });
  await screen.findAllByTestId('instrument-option');
  for (let i = 0; i < downs; i++) fireEvent.keyDown(box, { key: 'ArrowDown' });
  fireEvent.keyDown(box, { key: 'Enter' });
  return screen.findByTestId('picked-instrument');
}

beforeAll(async () => {
  await messagesReady;
});

beforeEach(() => {
  window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 7 }));
});

describe('transaction form', () => {
  it('shows the fields each kind has', async () => {
    renderForm(formApi());
    await screen.findByTestId('transaction-form');
    const shown = () => ['quantity', 'price', 'fee', 'tax', 'currency', 'numerator', 'denominator'].filter((f) => field(f) !== null);
    const hasInstrument = () => screen.queryByTestId('instrument-input') !== null || screen.queryByTestId('picked-instrument') !== null;

    expect(shown()).toEqual(['quantity', 'price', 'fee', 'currency']);
    expect(hasInstrument()).toBe(true);
    expect(within(form()).getByLabelText('단가')).toBeTruthy();

    fireEvent.click(screen.getByTestId('kind-sell'));
    expect(shown()).toEqual(['quantity', 'price', 'fee', 'tax', 'currency']);

    fireEvent.click(screen.getByTestId('kind-dividend'));
    expect(shown()).toEqual(['quantity', 'price', 'tax', 'currency']);
    expect(within(form()).getByLabelText('1주당 배당금')).toBeTruthy();
    expect(within(form()).getByLabelText('원천징수 세금')).toBeTruthy();

    for (const kind of ['deposit', 'withdrawal', 'fee', 'tax']) {
      fireEvent.click(screen.getByTestId(`kind-${kind}`));
      expect(shown()).toEqual(['price', 'currency']);
      expect(hasInstrument()).toBe(false);
      expect(within(form()).getByLabelText('금액')).toBeTruthy();
    }

    fireEvent.click(screen.getByTestId('kind-split'));
    expect(shown()).toEqual(['numerator', 'denominator']);
    expect(hasInstrument()).toBe(true);
    // The exchange rate appears only for another currency than the base.
    fireEvent.click(screen.getByTestId('kind-deposit'));
    expect(field('fx_rate')).toBeNull();
    fireEvent.change(field('currency')!, { target: { value: 'USD' } });
    expect(field('fx_rate')).not.toBeNull();
  });

  it('takes the currency from the instrument, requires the exchange rate for a foreign trade, and sends the right JSON', async () => {
    const api = formApi();
    const app = renderForm(api);
    await screen.findByTestId('transaction-form');
    // Indices cannot be held: not offered.
    fireEvent.change(screen.getByTestId('instrument-input'), { target: { value: 'kospi' } });
    expect(await screen.findByText('‘kospi’에 맞는 종목이 없습니다.')).toBeTruthy();
    expect(screen.queryAllByTestId('instrument-option')).toHaveLength(0);
    const picked = await pick('aapl');
    expect(picked.getAttribute('data-id')).toBe('NASDAQ:AAPL');
    expect(within(picked).getByText('애플')).toBeTruthy();
    expect(field('currency')!.value).toBe('USD');
    expect(field('fx_rate')).not.toBeNull();

    fireEvent.change(field('trade_date')!, { target: { value: '2026-03-04' } });
    type('quantity', '1.5');
    type('price', '189.43');
    type('fee', '0.50');
    fireEvent.click(screen.getByTestId('transaction-submit'));
    expect(errorOf(field('fx_rate')!)).toBe('기준 통화와 다른 통화의 거래는 환율이 필요합니다.');
    expect(screen.getByTestId('form-message').textContent).toBe('입력한 내용을 확인해 주세요.');
    expect(api.find('POST', '/api/portfolios/7/transactions')).toHaveLength(0);

    type('fx_rate', '1,385.2');
    fireEvent.change(within(form()).getByLabelText('메모'), { target: { value: ' 첫 매수 ' } });
    fireEvent.click(screen.getByTestId('transaction-submit'));
    await waitFor(() => expect(api.find('POST', '/api/portfolios/7/transactions')).toHaveLength(1));
    expect(api.find('POST', '/api/portfolios/7/transactions')[0]!.body).toEqual({
      kind: 'buy',
      trade_date: '2026-03-04',
      instrument_id: 'NASDAQ:AAPL',
      quantity: '1.5',
      price: '189.43',
      fee: '0.5',
      tax: '0',
      currency: 'USD',
      fx_rate: '1385.2',
      split: null,
      note: '첫 매수',
    });
    await screen.findByTestId('detail-page');
    expect(app.location().pathname).toBe('/portfolios/7');
  });

  it('opened from a stock’s page: the instrument, its price and the day’s stored exchange rate are filled in, and the rate stays editable', async () => {
    const api = formApi({
      'GET /api/fx/USDKRW/rate': (call) => ({
        pair: 'USDKRW',
        date: call.search.get('date'),
        // The server's last fixing on or before the date (none on the 4th yet).
        ...(call.search.get('date') === '2026-03-04' ? { rate: '1385.2', rate_date: '2026-03-03' } : { rate: '1370.1', rate_date: '2026-02-27' }),
      }),
    });
    renderForm(api, '/portfolios/7/transactions/new?instrument=NASDAQ:AAPL&price=189.43');
    const picked = await screen.findByTestId('picked-instrument');
    expect(picked.getAttribute('data-id')).toBe('NASDAQ:AAPL');
    expect(within(form()).getByLabelText('단가')).toHaveProperty('value', '189.43');
    // The trade is in the instrument's currency once its details arrive.
    await waitFor(() => expect(within(form()).getByLabelText('통화')).toHaveProperty('value', 'USD'), { timeout: 5000 });
    fireEvent.change(within(form()).getByLabelText('거래일'), { target: { value: '2026-03-04' } });
    // The last stored rate on or before the trade date (none on the 4th yet).
    const rate = within(form()).getByLabelText('환율');
    await waitFor(() => expect(rate).toHaveProperty('value', '1385.2'), { timeout: 5000 });
    expect(screen.getByText('2026-03-04 환율(1 USD당 KRW)로 채웠습니다. 고칠 수 있습니다.')).toBeTruthy();

    // The member's own rate is kept.
    fireEvent.change(rate, { target: { value: '1390' } });
    fireEvent.change(within(form()).getByLabelText('수량'), { target: { value: '2' } });
    fireEvent.click(within(form()).getByRole('button', { name: '저장' }));
    await waitFor(() => expect(api.find('POST', '/api/portfolios/7/transactions')).toHaveLength(1));
    expect(api.find('POST', '/api/portfolios/7/transactions')[0]!.body).toMatchObject({
      kind: 'buy',
      instrument_id: 'NASDAQ:AAPL',
      trade_date: '2026-03-04',
      quantity: '2',
      price: '189.43',
      currency: 'USD',
      fx_rate: '1390',
    });
  }, 20_000);

  it('a dividend: the shares held on the ex-date, the dividend per share and the withholding are filled in', async () => {
    const api = formApi({
      'GET /api/instruments/KRX%3A005930': () => detail(SAMSUNG),
      'GET /api/portfolios/7/dividend-draft': (call) => {
        expect(call.search.get('instrument')).toBe('KRX:005930');
        return {
          instrument_id: 'KRX:005930',
          country: 'KR',
          withholding_rate: '0.154',
          currency: 'KRW',
          ex_date: '2025-12-29',
          pay_date: '2026-04-17',
          per_share: '361',
          quantity: '100',
          tax: '5559',
        };
      },
    });
    renderForm(api, '/portfolios/7/transactions/new?instrument=KRX:005930&kind=dividend');
    await screen.findByTestId('picked-instrument');
    await waitFor(() => expect(within(form()).getByLabelText('보유 수량')).toHaveProperty('value', '100'), { timeout: 5000 });
    expect(within(form()).getByLabelText('1주당 배당금')).toHaveProperty('value', '361');
    expect(within(form()).getByLabelText('원천징수 세금')).toHaveProperty('value', '5559');
    expect(screen.getByText('2025-12-29 배당락일 전날 보유 수량입니다.')).toBeTruthy();
    expect(screen.getByText('원천징수 15.4%로 계산했습니다.')).toBeTruthy();
  }, 20_000);

  it('checks the inputs in the browser: required, positive, whole KRX shares', async () => {
    const api = formApi();
    renderForm(api);
    await screen.findByTestId('transaction-form');
    fireEvent.click(screen.getByTestId('transaction-submit'));
    expect(screen.getByText('종목을 골라 주세요.')).toBeTruthy();
    expect(errorOf(field('quantity')!)).toBe('입력해 주세요.');
    expect(errorOf(field('price')!)).toBe('입력해 주세요.');

    await pick('005930');
    expect(field('currency')!.value).toBe('KRW');
    expect(field('fx_rate')).toBeNull();
    type('quantity', '1.5');
    type('price', '-3');
    type('fee', 'abc');
    fireEvent.click(screen.getByTestId('transaction-submit'));
    expect(errorOf(field('quantity')!)).toBe('국내 주식은 1주 단위로만 거래합니다.');
    expect(errorOf(field('price')!)).toBe('0보다 큰 숫자를 입력해 주세요.');
    expect(errorOf(field('fee')!)).toBe('숫자를 입력해 주세요.');
    // Editing a field clears its error.
    type('quantity', '10');
    expect(errorOf(field('quantity')!)).toBe('');
    expect(api.find('POST', '/api/portfolios/7/transactions')).toHaveLength(0);

    // A deposit, a split: their own JSON.
    fireEvent.click(screen.getByTestId('kind-split'));
    type('numerator', '4');
    type('denominator', '1');
    fireEvent.click(screen.getByTestId('transaction-submit'));
    await waitFor(() => expect(api.find('POST', '/api/portfolios/7/transactions')).toHaveLength(1));
    expect(api.find('POST', '/api/portfolios/7/transactions')[0]!.body).toMatchObject({
      kind: 'split',
      instrument_id: 'KRX:005930',
      quantity: '0',
      price: '0',
      currency: 'KRW',
      fx_rate: null,
      split: { numerator: 4, denominator: 1 },
    });
  });

  it('shows the server’s 422 field errors under their fields', async () => {
    const api = formApi({
      'POST /api/portfolios/7/transactions': () =>
        apiError(422, 'invalid_transaction', {
          fields: {
            quantity: { code: 'insufficient_quantity', params: { instrument: 'KRX:005930', quantity: '500', held: '15', date: '2026-03-04' }, message: 'sells 500 of KRX:005930 but only 15 is held on 2026-03-04' },
            date: { code: 'date_in_future', params: {}, message: 'A trade date cannot be in the future.' },
          },
        }),
    });
    const app = renderForm(api);
    await screen.findByTestId('transaction-form');
    fireEvent.click(screen.getByTestId('kind-sell'));
    await pick('005930');
    type('quantity', '500');
    type('price', '71200');
    fireEvent.click(screen.getByTestId('transaction-submit'));
    await waitFor(() => expect(errorOf(field('quantity')!)).toBe('2026. 3. 4. 기준 삼성전자 보유 수량이 15주라서 500주를 팔 수 없습니다.'));
    expect(errorOf(field('trade_date')!)).toBe('미래의 날짜는 기록할 수 없습니다.');
    expect(field('quantity')!.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('form-message').textContent).toBe('입력한 내용을 확인해 주세요.');
    expect(app.location().pathname).toBe('/portfolios/7/transactions/new');
    expect(api.find('POST', '/api/portfolios/7/transactions')[0]!.body).toMatchObject({ kind: 'sell', quantity: '500', tax: '0', fee: '0' });
  });

  it('names each new transaction with an Idempotency-Key: a double tap sends one request', async () => {
    let answer: (r: Response) => void = () => undefined;
    const api = formApi({
      'POST /api/portfolios/7/transactions': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderForm(api);
    await screen.findByTestId('transaction-form');
    await fillDeposit('1000000');
    const submit = screen.getByTestId('transaction-submit') as HTMLButtonElement;
    fireEvent.click(submit);
    fireEvent.click(submit);
    fireEvent.submit(form());
    await waitFor(() => expect(submit.disabled).toBe(true));
    expect(submit.textContent).toBe('저장 중…');
    expect(api.find('POST', '/api/portfolios/7/transactions')).toHaveLength(1);
    const key = keyOf(api.find('POST', '/api/portfolios/7/transactions')[0]!);
    expect(key).toMatch(/^[\x21-\x7e]{1,255}$/);
    answer(jsonResponse(transaction({ id: 99 }), { status: 201 }));
    await screen.findByTestId('detail-page');
    expect(api.find('POST', '/api/portfolios/7/transactions')).toHaveLength(1);
  });

  it('a retry after a network failure sends the same key; a changed form after an error a new one', async () => {
    const answers: (() => Response)[] = [
      () => {
        throw new TypeError('Failed to fetch');
      },
      () => apiError(422, 'invalid_transaction', { fields: { price: 'too large' } }),
      () => apiError(422, 'invalid_transaction', { fields: { price: 'too large' } }),
    ];
    const api = formApi({ 'POST /api/portfolios/7/transactions': (call) => answers.shift()?.() ?? { id: 99, ...(call.body as object) } });
    renderForm(api);
    await screen.findByTestId('transaction-form');
    await fillDeposit('1000000');
    const posts = () => api.find('POST', '/api/portfolios/7/transactions');

    fireEvent.click(screen.getByTestId('transaction-submit'));
    await waitFor(() => expect(screen.getByTestId('form-message').textContent).toBe(
      '서버에 연결하지 못했습니다. 연결을 확인하고 다시 저장해 주세요. 여러 번 눌러도 거래는 한 번만 기록됩니다.',
    ));
    // The retry: the same body, the same key.
    fireEvent.click(screen.getByTestId('transaction-submit'));
    await waitFor(() => expect(posts()).toHaveLength(2));
    expect(keyOf(posts()[1]!)).toBe(keyOf(posts()[0]!));
    expect(posts()[1]!.body).toEqual(posts()[0]!.body);
    await waitFor(() => expect(screen.getByTestId('form-message').textContent).toBe('입력한 내용을 확인해 주세요.'));

    // Changed after the error: another request, another key.
    type('price', '900000');
    fireEvent.click(screen.getByTestId('transaction-submit'));
    await waitFor(() => expect(posts()).toHaveLength(3));
    expect(keyOf(posts()[2]!)).not.toBe(keyOf(posts()[0]!));
    // Sent again unchanged: the key of that content.
    await waitFor(() => expect((screen.getByTestId('transaction-submit') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('transaction-submit'));
    await screen.findByTestId('detail-page');
    expect(posts()).toHaveLength(4);
    expect(keyOf(posts()[3]!)).toBe(keyOf(posts()[2]!));
  });

  it('a reused key (409) is retryable with a new key; after a success the next transaction has its own', async () => {
    let first = true;
    const api = formApi({
      'POST /api/portfolios/7/transactions': (call) => {
        if (first) {
          first = false;
          return apiError(409, 'idempotency_key_reused');
        }
        return { id: 99, ...(call.body as object) };
      },
    });
    const app = renderForm(api);
    await screen.findByTestId('transaction-form');
    await fillDeposit('1000000');
    const posts = () => api.find('POST', '/api/portfolios/7/transactions');
    fireEvent.click(screen.getByTestId('transaction-submit'));
    await waitFor(() => expect(screen.getByTestId('form-message').textContent).toBe('앞서 보낸 저장 요청과 겹쳐 저장하지 않았습니다. 다시 저장해 주세요.'));
    fireEvent.click(screen.getByTestId('transaction-submit'));
    await screen.findByTestId('detail-page');
    expect(posts()).toHaveLength(2);
    expect(keyOf(posts()[1]!)).not.toBe(keyOf(posts()[0]!));

    // The same deposit recorded again is another transaction: another key.
    app.unmount();
    renderForm(api);
    await screen.findByTestId('transaction-form');
    await fillDeposit('1000000');
    fireEvent.click(screen.getByTestId('transaction-submit'));
    await waitFor(() => expect(posts()).toHaveLength(3));
    expect(posts()[2]!.body).toEqual(posts()[1]!.body);
    expect(new Set(posts().map(keyOf)).size).toBe(3);
  });

  it('edits a transaction: filled in, saved with PUT', async () => {
    const api = formApi();
    renderForm(api, '/portfolios/7/transactions/41');
    expect(await screen.findByRole('heading', { level: 1, name: '거래 수정' })).toBeTruthy();
    expect(field('quantity')!.value).toBe('1.5');
    expect(field('fx_rate')!.value).toBe('1385.2');
    await waitFor(() => expect(within(screen.getByTestId('picked-instrument')).getByText('애플')).toBeTruthy());
    type('quantity', '2');
    fireEvent.click(screen.getByTestId('transaction-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/portfolios/7/transactions/41')).toHaveLength(1));
    expect(api.find('PUT', '/api/portfolios/7/transactions/41')[0]!.body).toEqual({ ...transaction({ quantity: '2', fee: '0.5' }), id: undefined });
    // A PUT is the same however often it is sent: no key.
    expect(keyOf(api.find('PUT', '/api/portfolios/7/transactions/41')[0]!)).toBeUndefined();
  });

  it('reads in English', async () => {
    await setLocale('en');
    renderForm(formApi());
    await screen.findByTestId('transaction-form');
    fireEvent.click(screen.getByTestId('kind-deposit'));
    fireEvent.change(field('currency')!, { target: { value: 'USD' } });
    fireEvent.click(screen.getByTestId('transaction-submit'));
    expect(errorOf(field('fx_rate')!)).toBe('A trade in another currency than the base needs the exchange rate.');
    expect(within(form()).getByLabelText('Amount')).toBeTruthy();
  });
});
