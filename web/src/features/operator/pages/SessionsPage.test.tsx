import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { marketApi } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import { localDayStart } from '../api/sessions';
import { OPERATOR, session } from '../lib/test-fixtures';

type Call = { path: string };
const sessionCalls = (calls: Call[]) =>
  calls
    .filter((c) => c.path.startsWith('/api/operator/observe/sessions'))
    .map((c) => new URL(c.path, 'http://x').searchParams);

function api(answer: (url: URL) => unknown = () => ({ sessions: [session()], next_before: null })) {
  return marketApi({
    'GET /api/me': () => OPERATOR,
    'GET /api/operator/observe/sessions': (_call, url) => answer(url),
  });
}

describe('the sessions list', () => {
  beforeEach(() => window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 1 })));
  afterEach(() => window.localStorage.removeItem('AUTH_TOKEN'));

  it('shows each session with its member, start, length, errors, feedback and environment, linking to it', async () => {
    renderApp({
      route: '/operator/sessions',
      api: api(() => ({
        sessions: [session(), session({ secure_id: 'sess-2', member: null, user_object: null, error_count: 0, has_feedback: true })],
        next_before: null,
      })).handler,
    });
    const [first, second] = await screen.findAllByTestId('observe-session-row');
    expect(within(first!).getByText('황소')).toBeTruthy();
    expect(within(first!).getByText('#42')).toBeTruthy();
    expect(within(first!).getByText('2:05')).toBeTruthy(); // 01:00:00 → 01:02:05
    expect(within(first!).getByText('2')).toBeTruthy();
    expect(within(first!).getByText('production')).toBeTruthy();
    expect(within(first!).getByText('/stocks/KRX:005930')).toBeTruthy();
    expect(within(first!).getByRole('link').getAttribute('href')).toBe('/operator/sessions/sess-1');
    expect(within(second!).getByText('방문자')).toBeTruthy();
    expect(within(second!).getByText('피드백')).toBeTruthy();
  });

  it('asks for the newest 50 without filters', async () => {
    const server = api();
    renderApp({ route: '/operator/sessions', api: server.handler });
    await screen.findByTestId('observe-session-row');
    const [query] = sessionCalls(server.calls);
    expect(Object.fromEntries(query!)).toEqual({ limit: '50' });
  });

  it('turns the filters into the API query and keeps them in the URL', async () => {
    const server = api();
    const { location } = renderApp({ route: '/operator/sessions', api: server.handler });
    await screen.findByTestId('observe-session-row');

    fireEvent.change(screen.getByTestId('filter-member'), { target: { value: ' 42 ' } });
    fireEvent.change(screen.getByTestId('filter-from'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByTestId('filter-to'), { target: { value: '2026-11-20' } });
    fireEvent.click(screen.getByTestId('filter-apply'));
    await waitFor(() => expect(sessionCalls(server.calls)).toHaveLength(2));
    fireEvent.click(screen.getByTestId('filter-env-development'));
    fireEvent.click(screen.getByTestId('filter-errors'));
    fireEvent.click(screen.getByTestId('filter-feedback'));
    await waitFor(() => expect(sessionCalls(server.calls)).toHaveLength(5));

    const last = sessionCalls(server.calls).at(-1)!;
    expect(Object.fromEntries(last)).toEqual({
      member: '42',
      environment: 'development',
      // Whole days on the operator's calendar: from its first midnight to the midnight after the last day.
      from: localDayStart('2026-11-01'),
      to: localDayStart('2026-11-21'),
      has_errors: 'true',
      has_feedback: 'true',
      limit: '50',
    });
    expect(Object.fromEntries(new URLSearchParams(location().search))).toEqual({
      member: '42',
      from: '2026-11-01',
      to: '2026-11-20',
      env: 'development',
      errors: '1',
      feedback: '1',
    });

    fireEvent.click(screen.getByTestId('filter-reset'));
    await waitFor(() => expect(location().search).toBe(''));
    expect((screen.getByTestId('filter-member') as HTMLInputElement).value).toBe('');
  });

  it('reads its filters from the URL', async () => {
    const server = api();
    renderApp({ route: '/operator/sessions?member=7&errors=1&env=production', api: server.handler });
    await screen.findByTestId('observe-session-row');
    expect(Object.fromEntries(sessionCalls(server.calls)[0]!)).toEqual({
      member: '7',
      environment: 'production',
      has_errors: 'true',
      limit: '50',
    });
    expect((screen.getByTestId('filter-member') as HTMLInputElement).value).toBe('7');
    expect(screen.getByTestId('filter-env-production').getAttribute('aria-pressed')).toBe('true');
    expect((screen.getByTestId('filter-errors') as HTMLInputElement).checked).toBe(true);
  });

  it('pages with the API cursor', async () => {
    const server = api((url) =>
      url.searchParams.get('before') === '90'
        ? { sessions: [session({ secure_id: 'old' })], next_before: null }
        : { sessions: [session()], next_before: 90 },
    );
    renderApp({ route: '/operator/sessions', api: server.handler });
    await screen.findByTestId('observe-session-row');
    fireEvent.click(screen.getByTestId('observe-sessions-more'));
    await waitFor(() => expect(screen.getAllByTestId('observe-session-row')).toHaveLength(2));
    expect(sessionCalls(server.calls)[1]!.get('before')).toBe('90');
    expect(screen.queryByTestId('observe-sessions-more')).toBeNull();
  });

  it('says so when nothing matches', async () => {
    renderApp({ route: '/operator/sessions', api: api(() => ({ sessions: [], next_before: null })).handler });
    expect((await screen.findByTestId('observe-sessions-empty')).textContent).toBe('조건에 맞는 세션이 없습니다.');
  });
});
