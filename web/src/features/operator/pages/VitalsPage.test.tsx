import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '@/shared/i18n/i18n';
import { marketApi } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import { messagesReady } from '../locales/observe/messages';
import { OPERATOR, VITALS } from '../lib/test-fixtures';

function api(report = VITALS) {
  return marketApi({ 'GET /api/me': () => OPERATOR, 'GET /api/operator/observe/vitals': () => report });
}

describe('the web vitals page', () => {
  beforeEach(() => window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 1 })));
  afterEach(() => window.localStorage.removeItem('AUTH_TOKEN'));

  it('charts each vital’s p75 against the thresholds the API gives, overall and per page', async () => {
    renderApp({ route: '/operator/vitals', api: api().handler });
    const lcp = await screen.findByTestId('vital-LCP');
    expect(within(lcp).getByText('2,300 ms')).toBeTruthy();
    expect(within(lcp).getByText('좋음')).toBeTruthy();
    expect(within(lcp).getByText(/좋음 ≤ 2,500 ms · 나쁨 > 4,000 ms/)).toBeTruthy();
    const chart = within(lcp).getByTestId('vitals-chart');
    expect(chart.dataset.rating).toBe('good');
    expect(within(chart).getByRole('img').getAttribute('aria-label')).toBe(
      'LCP p75 2,300 ms, 좋음 (좋음 ≤ 2,500 ms, 나쁨 > 4,000 ms)',
    );

    // In the spec's order: LCP, CLS, INP.
    const cards = screen.getAllByTestId(/^vital-/);
    expect(cards.map((c) => c.dataset.testid)).toEqual(['vital-LCP', 'vital-CLS', 'vital-INP']);
    expect(within(screen.getByTestId('vital-CLS')).getByTestId('vitals-chart').dataset.rating).toBe('poor');
    expect(within(screen.getByTestId('vital-CLS')).getByText('0.3')).toBeTruthy();
    expect(within(screen.getByTestId('vital-INP')).getByText('개선 필요')).toBeTruthy();

    const page = screen.getByTestId('vitals-page');
    expect(within(page).getByText('/stocks/:id')).toBeTruthy();
    expect(within(page).getAllByTestId('vitals-chart').map((c) => [c.dataset.vital, c.dataset.rating])).toEqual([
      ['LCP', 'needs_improvement'],
      ['CLS', 'good'],
    ]);
  });

  it('asks for the chosen period', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-20T00:00:00.000Z'));
    const server = api();
    const { location } = renderApp({ route: '/operator/vitals', api: server.handler });
    await screen.findByTestId('vital-LCP');
    fireEvent.click(screen.getByTestId('vitals-range-month'));
    await waitFor(() => expect(server.find('GET', '/api/operator/observe/vitals')).toHaveLength(2));
    const from = server.find('GET', '/api/operator/observe/vitals').map((c) => new URL(c.path, 'http://x').searchParams.get('from'));
    expect(from).toEqual(['2026-11-13T00:00:00.000Z', '2026-10-21T00:00:00.000Z']);
    expect(location().search).toBe('?range=month');
    expect(screen.getByTestId('vitals-range-month').getAttribute('aria-pressed')).toBe('true');
  });

  it('says when nothing was measured', async () => {
    renderApp({ route: '/operator/vitals', api: api({ ...VITALS, overall: [], pages: [] }).handler });
    expect(await screen.findByTestId('vitals-empty')).toBeTruthy();
  });

  it('speaks English', async () => {
    await messagesReady;
    await setLocale('en');
    renderApp({ route: '/operator/vitals', api: api().handler });
    const lcp = await screen.findByTestId('vital-LCP');
    expect(within(lcp).getByText('Largest Contentful Paint (LCP)')).toBeTruthy();
    expect(within(lcp).getByText('Good')).toBeTruthy();
    expect(screen.getByTestId('observe-nav-sessions').textContent).toBe('Sessions');
  });
});
