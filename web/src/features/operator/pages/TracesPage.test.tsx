import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse } from '@/test/fetch';
import { marketApi } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import { OPERATOR, TRACE } from '../lib/test-fixtures';

const ID = TRACE.trace_id;

function api() {
  return marketApi({
    'GET /api/me': () => OPERATOR,
    [`GET /api/operator/observe/traces/${ID}`]: () => TRACE,
    'GET /api/operator/observe/traces/ffffffffffffffffffffffffffffffff': () =>
      jsonResponse({ code: 'not_found', message: 'no', request_id: 'r' }, { status: 404 }),
  });
}

describe('the traces page', () => {
  beforeEach(() => window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 1 })));
  afterEach(() => window.localStorage.removeItem('AUTH_TOKEN'));

  it('draws the waterfall: children under their parent, bars placed by start and length', async () => {
    renderApp({ route: `/operator/traces/${ID}`, api: api().handler });
    const spans = await screen.findAllByTestId('trace-span');
    expect(spans.map((s) => [s.dataset.depth, within(s).getByRole('button').textContent])).toEqual([
      ['0', expect.stringContaining('HTTP POST')],
      ['1', expect.stringContaining('POST /api/portfolios')],
    ]);
    const bar = spans[1]!.querySelector<HTMLElement>('.observe-waterfall__bar')!;
    // 10 ms into a 120 ms trace, 90 ms long.
    expect(bar.style.insetInlineStart).toBe(`${(10 / 120) * 100}%`);
    expect(bar.style.width).toBe('75%');
    expect(spans[1]!.querySelector('.observe-waterfall__row--error')).toBeTruthy();

    // The first span is shown; choosing another shows its attributes.
    expect(within(screen.getByTestId('trace-span-details')).getByText('http.url')).toBeTruthy();
    fireEvent.click(within(spans[1]!).getByRole('button'));
    const details = screen.getByTestId('trace-span-details');
    expect(within(details).getByText('http.response.status_code')).toBeTruthy();
    expect(within(details).getByText('오류: internal')).toBeTruthy();
    expect(within(details).getByRole('link').getAttribute('href')).toBe('/operator/sessions/sess-1');
  });

  it('opens a trace by its id, refusing what is not one', async () => {
    const { location } = renderApp({ route: '/operator/traces', api: api().handler });
    const input = await screen.findByTestId('trace-search');
    fireEvent.change(input, { target: { value: 'not-a-trace' } });
    fireEvent.click(screen.getByTestId('trace-submit'));
    expect((await screen.findByRole('alert')).textContent).toBe('트레이스 ID는 16진수 32자리입니다.');
    expect(location().pathname).toBe('/operator/traces');

    fireEvent.change(input, { target: { value: ` ${ID.toUpperCase()} ` } });
    fireEvent.click(screen.getByTestId('trace-submit'));
    await waitFor(() => expect(location().pathname).toBe(`/operator/traces/${ID}`));
    expect(await screen.findAllByTestId('trace-span')).toHaveLength(2);
  });

  it('says when a trace has no spans', async () => {
    renderApp({ route: '/operator/traces/ffffffffffffffffffffffffffffffff', api: api().handler });
    expect((await screen.findByTestId('observe-not-found')).textContent).toBe('이 트레이스의 구간이 없습니다.');
  });
});
