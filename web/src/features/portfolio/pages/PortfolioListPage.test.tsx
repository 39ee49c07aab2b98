import { readFileSync } from 'node:fs';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setLocale } from '@/shared/i18n/i18n';
import { jsonResponse, TEST_META } from '@/test/fetch';
import { ToastArea } from '@/shared/ui/toast';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import { apiError, ledgerIssue, portfolio, portfolioApi, portfolioList } from '../lib/test-fixtures';
import { messagesReady, PortfolioDetailRoute, PortfolioListRoute } from '.';
import type { PortfolioList } from '../api/list';

const fallback = (url: URL) =>
  url.pathname === '/api/meta' ? jsonResponse(TEST_META) : jsonResponse({ code: 'not_found', message: 'nf', request_id: 't' }, { status: 404 });

function listApi(overrides: Parameters<typeof portfolioApi>[0] = {}) {
  return portfolioApi(
    {
      'GET /api/portfolios': (call) => portfolioList(call.search.get('currency') ?? ''),
      ...overrides,
    },
    fallback,
  );
}

function renderList(api: ReturnType<typeof listApi>) {
  return renderApp({
    route: '/portfolios',
    api: api.handler,
    ui: (
      <>
      <ToastArea />
      <Routes>
        <Route path="/portfolios" element={<PortfolioListRoute />} />
        <Route path="/portfolios/:id" element={<PortfolioDetailRoute />} />
        <Route path="/login" element={<p data-testid="login-page" />} />
      </Routes>
      </>
    ),
  });
}

const css = readFileSync(`${process.cwd()}/src/features/portfolio/components/ui.css`, 'utf8');
const cards = () => screen.getAllByTestId('portfolio-card');
const text = (el: Element | null | undefined) => el?.textContent ?? '';

beforeAll(async () => {
  await messagesReady;
});

beforeEach(() => {
  window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 7 }));
});

describe('portfolio list', () => {
  it('sends a visitor to log in and back', async () => {
    window.localStorage.removeItem('AUTH_TOKEN');
    const app = renderList(listApi());
    await screen.findByTestId('login-page');
    expect(app.location().search).toBe('?next=%2Fportfolios');
  });

  it('shows the meta portfolio first, then each portfolio with its total, today’s change and return', async () => {
    const api = listApi();
    renderList(api);
    await waitFor(() => expect(cards()).toHaveLength(3));
    const [meta, main, us] = cards();
    expect(meta!.getAttribute('data-id')).toBe('meta');
    expect(within(meta!).getByText('전체 포트폴리오')).toBeTruthy();
    expect(text(within(meta!).getByTestId('card-total'))).toBe('₩18,175,000');
    expect(text(within(meta!).getByTestId('card-return'))).toBe('+6.25%');
    expect(within(meta!).getByRole('link').getAttribute('href')).toBe('/portfolios/meta');

    expect(within(main!).getByText('키움 메인')).toBeTruthy();
    expect(within(main!).getByText('Kiwoom · KRW')).toBeTruthy();
    expect(text(within(main!).getByTestId('card-total'))).toBe('₩11,250,000');
    expect(text(within(main!).getByTestId('card-day-change'))).toBe('+₩120,000');
    expect(text(within(main!).getByTestId('card-day-change-percent'))).toBe('+1.08%');
    expect(text(within(main!).getByTestId('card-return'))).toBe('+11.11%');

    // "Original" mode: the US portfolio in dollars, falling in the fall colour.
    expect(text(within(us!).getByTestId('card-total'))).toBe('$5,000.50');
    expect(text(within(us!).getByTestId('card-day-change'))).toBe('-$25.10');
    expect(within(us!).getByTestId('card-return').className).toContain('pf-down');
    expect(api.find('GET', '/api/portfolios')[0]!.search.get('currency')).toBe('original');
  });

  it('warns on the card of a portfolio counted only up to a transaction to fix, and on the meta card', async () => {
    const withIssue = (currency: string): PortfolioList => {
      const list = portfolioList(currency);
      return { ...list, portfolios: list.portfolios.map((p) => (p.portfolio.id === 7 ? { ...p, ledger_issue: ledgerIssue() } : p)) };
    };
    renderList(listApi({ 'GET /api/portfolios': (call) => withIssue(call.search.get('currency') ?? '') }));
    await waitFor(() => expect(cards()).toHaveLength(3));
    const [meta, main, us] = cards();
    expect(text(within(main!).getByTestId('card-ledger-issue'))).toBe('고쳐야 할 거래가 있어 2026.\u00a010.\u00a01. 거래 전까지만 계산했습니다.');
    // Inside the card's link: the portfolio page names the transaction.
    expect(within(main!).getByTestId('card-ledger-issue').closest('a')!.getAttribute('href')).toBe('/portfolios/7');
    expect(text(within(meta!).getByTestId('card-ledger-issue'))).toBe('일부 포트폴리오는 고쳐야 할 거래 전까지만 계산했습니다.');
    expect(within(us!).queryByTestId('card-ledger-issue')).toBeNull();
  });

  it('no warning while every ledger is sound', async () => {
    renderList(listApi());
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(screen.queryByTestId('card-ledger-issue')).toBeNull();
  });

  it('switches the currency mode: asks again with currency= and remembers the choice', async () => {
    const api = listApi();
    const app = renderList(api);
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(screen.getByTestId('currency-ORIGINAL').getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByTestId('currency-USD'));
    await waitFor(() => expect(text(within(cards()[0]!).getByTestId('card-total'))).toBe('$13,123.95'));
    expect(api.find('GET', '/api/portfolios').map((c) => c.search.get('currency'))).toEqual(['original', 'USD']);
    expect(window.localStorage.getItem('PORTFOLIO_CURRENCY_MODE')).toBe('USD');
    expect(screen.getByTestId('currency-USD').getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByTestId('currency-KRW'));
    await waitFor(() => expect(api.find('GET', '/api/portfolios').at(-1)!.search.get('currency')).toBe('KRW'));
    expect(window.localStorage.getItem('PORTFOLIO_CURRENCY_MODE')).toBe('KRW');

    // A new visit starts in the remembered mode.
    app.unmount();
    const again = listApi();
    renderList(again);
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(again.find('GET', '/api/portfolios')[0]!.search.get('currency')).toBe('KRW');
    expect(screen.getByTestId('currency-KRW').getAttribute('aria-pressed')).toBe('true');
  });

  it('the lock masks every amount, keeps the percentages, keeps each slot’s box, and survives a reload', async () => {
    const app = renderList(listApi());
    await waitFor(() => expect(cards()).toHaveLength(3));
    const total = () => within(cards()[1]!).getByTestId('card-total');
    const before = total().className;
    expect(total().getAttribute('data-masked')).toBe('false');

    fireEvent.click(screen.getByTestId('lock-toggle'));
    expect(window.localStorage.getItem('MOAT_META_PORTFOLIO_LOCK')).toBe('true');
    expect(screen.getByTestId('lock-toggle').getAttribute('aria-pressed')).toBe('true');
    for (const card of cards()) {
      for (const id of ['card-total', 'card-day-change']) {
        const el = within(card).getByTestId(id);
        expect(el.getAttribute('data-masked')).toBe('true');
        expect(el.textContent).toBe('•••••금액 숨김');
        expect(el.textContent).not.toMatch(/[₩$]/);
      }
    }
    // Percentages stay.
    expect(text(within(cards()[1]!).getByTestId('card-return'))).toBe('+11.11%');
    expect(text(within(cards()[1]!).getByTestId('card-day-change-percent'))).toBe('+1.08%');
    // Nothing in the page shows an amount.
    expect(screen.getByTestId('portfolio-cards').textContent).not.toMatch(/[₩$]\d/);

    // Same element, same width class: the slot keeps its layout box.
    expect(total().className).toBe(before);
    expect(total().className).toContain('pf-amount--lg');
    expect(css).toMatch(/\.pf-amount \{[^}]*min-width: var\(--pf-amount-min[^}]*font-variant-numeric: tabular-nums/s);
    expect(css).toMatch(/\.pf-amount--lg \{\s*--pf-amount-min: \d+ch;/);

    // A reload keeps the lock.
    app.unmount();
    renderList(listApi());
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(total().getAttribute('data-masked')).toBe('true');
    expect(text(within(cards()[1]!).getByTestId('card-return'))).toBe('+11.11%');

    // And unlocking shows the amounts again.
    fireEvent.click(screen.getByTestId('lock-toggle'));
    expect(text(total())).toBe('₩11,250,000');
    expect(window.localStorage.getItem('MOAT_META_PORTFOLIO_LOCK')).toBe('false');
  });

  it('creates a portfolio, showing the server’s errors under their fields', async () => {
    let saved: PortfolioList = portfolioList('original');
    const api = listApi({
      'GET /api/portfolios': () => saved,
      'POST /api/portfolios': (call) => {
        const body = call.body as { name: string };
        if (body.name === '중복') {
          return apiError(422, 'invalid_input', {
          fields: { name: { code: 'conflict', params: {}, message: 'This is taken already.' }, broker: { code: 'too_long', params: { max: '40' }, message: 'At most 40 characters.' } },
        });
        }
        const created = portfolio({ id: 11, name: body.name, base_currency: 'USD', cost_method: 'fifo', broker: null });
        saved = { ...saved, portfolios: [...saved.portfolios, { portfolio: created, totals: saved.meta, ledger_issue: null }] };
        return created;
      },
    });
    renderList(api);
    await waitFor(() => expect(cards()).toHaveLength(3));
    fireEvent.click(screen.getByTestId('create-open'));
    const form = screen.getByTestId('create-form');

    // The browser's own check first: a name is required.
    fireEvent.click(within(form).getByTestId('create-submit'));
    expect(await within(form).findByText('이름을 입력해 주세요.')).toBeTruthy();
    expect(api.find('POST', '/api/portfolios')).toHaveLength(0);

    const name = within(form).getByLabelText('이름');
    fireEvent.change(name, { target: { value: '중복' } });
    fireEvent.click(within(form).getByTestId('create-submit'));
    expect(await within(form).findByText('이미 있는 값입니다.')).toBeTruthy();
    expect(within(form).getByText('40자까지 쓸 수 있습니다.')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(within(form).getByLabelText('증권사 (선택)').getAttribute('aria-invalid')).toBe('true');
    expect(text(screen.getByTestId('create-message'))).toBe('입력한 내용을 확인해 주세요.');

    fireEvent.change(name, { target: { value: 'US growth 2' } });
    expect(name.getAttribute('aria-invalid')).toBeNull();
    fireEvent.change(within(form).getByLabelText('기준 통화'), { target: { value: 'USD' } });
    fireEvent.change(within(form).getByLabelText('평균 단가 계산'), { target: { value: 'fifo' } });
    fireEvent.click(within(form).getByTestId('create-submit'));
    await waitFor(() => expect(cards()).toHaveLength(4));
    expect(api.find('POST', '/api/portfolios').at(-1)!.body).toEqual({ name: 'US growth 2', base_currency: 'USD', cost_method: 'fifo' });
    expect(await screen.findByText('‘US growth 2’ 포트폴리오를 만들었습니다.')).toBeTruthy();
  });

  it('reads in English', async () => {
    await setLocale('en');
    renderList(listApi());
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(within(cards()[0]!).getByText('All portfolios')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Portfolios');
    expect(screen.getByTestId('currency-ORIGINAL').textContent).toBe('Original');
  });
});

describe('reordering portfolios', () => {
  const ids = () => cards().map((c) => c.getAttribute('data-id'));

  it('moves a card with labelled buttons, sends every id, keeps focus on the button; the meta card stays first', async () => {
    let saved = portfolioList('original');
    const api = listApi({
      'GET /api/portfolios': () => saved,
      'PUT /api/portfolios/order': (call) => {
        const order = (call.body as { ids: number[] }).ids;
        saved = { ...saved, portfolios: order.map((id) => saved.portfolios.find((p) => p.portfolio.id === id)!) };
        return undefined;
      },
    });
    renderList(api);
    await waitFor(() => expect(cards()).toHaveLength(3));
    // The meta card cannot move; the first can't go up, the last can't go down.
    expect(within(cards()[0]!).queryAllByRole('button')).toHaveLength(0);
    const up = within(cards()[1]!).getByRole('button', { name: '‘키움 메인’ 위로 옮기기' }) as HTMLButtonElement;
    const down = within(cards()[1]!).getByRole('button', { name: '‘키움 메인’ 아래로 옮기기' }) as HTMLButtonElement;
    expect(up.disabled).toBe(true);
    expect(down.disabled).toBe(false);
    expect((within(cards()[2]!).getByTestId('move-down') as HTMLButtonElement).disabled).toBe(true);

    down.focus();
    fireEvent.click(down);
    expect(ids()).toEqual(['meta', '9', '7']);
    await waitFor(() => expect(api.find('PUT', '/api/portfolios/order')).toHaveLength(1));
    expect(api.find('PUT', '/api/portfolios/order')[0]!.body).toEqual({ ids: [9, 7] });
    // Now last: its down button is off, so focus moved to its up button.
    const moved = cards()[2]!;
    expect(moved.getAttribute('data-id')).toBe('7');
    expect(document.activeElement).toBe(within(moved).getByTestId('move-up'));
    expect(screen.getByTestId('reorder-status').textContent).toBe('‘키움 메인’을(를) 2번째로 옮겼습니다.');

    // And back up, by keyboard (Enter on a focused button is a click).
    fireEvent.click(within(moved).getByTestId('move-up'));
    expect(ids()).toEqual(['meta', '7', '9']);
    await waitFor(() => expect(api.find('PUT', '/api/portfolios/order')).toHaveLength(2));
    expect(api.find('PUT', '/api/portfolios/order')[1]!.body).toEqual({ ids: [7, 9] });
  });

  it('shows the new order at once and puts it back when the server fails', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const api = listApi({ 'PUT /api/portfolios/order': () => apiError(500, 'internal') });
    renderApp({
      route: '/portfolios',
      api: async (url, init) => {
        if (url.pathname === '/api/portfolios/order') await held;
        return api.handler(url, init);
      },
      ui: (
        <>
          <ToastArea />
          <Routes>
            <Route path="/portfolios" element={<PortfolioListRoute />} />
          </Routes>
        </>
      ),
    });
    await waitFor(() => expect(cards()).toHaveLength(3));
    const up = within(cards()[2]!).getByRole('button', { name: '‘US growth’ 위로 옮기기' });
    up.focus();
    fireEvent.click(up);
    // Before the server answers.
    await waitFor(() => expect(ids()).toEqual(['meta', '9', '7']));
    release();
    await waitFor(() => expect(ids()).toEqual(['meta', '7', '9']));
    expect(api.find('PUT', '/api/portfolios/order')[0]!.body).toEqual({ ids: [9, 7] });
    expect(await screen.findByText('순서를 바꾸지 못해 원래 순서로 되돌렸습니다.')).toBeTruthy();
    expect(screen.getByTestId('reorder-status').textContent).toBe('');
    // Focus is back on the button pressed, at the card's old place.
    await waitFor(() => expect(document.activeElement).toBe(within(cards()[2]!).getByTestId('move-up')));
  });
});
