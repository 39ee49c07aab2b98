import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse } from '@/test/fetch';
import { marketApi } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import { ERROR_DETAIL, OPERATOR, errorGroup } from '../lib/test-fixtures';

describe('the error pages', () => {
  beforeEach(() => window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 1 })));
  afterEach(() => window.localStorage.removeItem('AUTH_TOKEN'));

  it('list each group with its counts and first and last time, linking to the group', async () => {
    const server = marketApi({
      'GET /api/me': () => OPERATOR,
      'GET /api/operator/observe/errors': (_c, url) =>
        url.searchParams.get('offset') === '50'
          ? { groups: [errorGroup({ id: 8, message: 'TypeError: x is undefined' })], next_offset: null }
          : { groups: [errorGroup()], next_offset: 50 },
    });
    renderApp({ route: '/operator/errors', api: server.handler });
    const row = await screen.findByTestId('error-group-row');
    expect(within(row).getByText('Uncaught Error: boom').getAttribute('href')).toBe('/operator/errors/7');
    expect(within(row).getByText('window.onerror')).toBeTruthy();
    const cells = within(row).getAllByRole('cell');
    expect(cells.slice(1, 4).map((c) => c.textContent)).toEqual(['12', '5', '3']);

    fireEvent.click(screen.getByTestId('error-groups-more'));
    await waitFor(() => expect(screen.getAllByTestId('error-group-row')).toHaveLength(2));
    expect(server.find('GET', '/api/operator/observe/errors').map((c) => c.path)).toEqual([
      '/api/operator/observe/errors?limit=50',
      '/api/operator/observe/errors?limit=50&offset=50',
    ]);
  });

  it('show a group’s stack trace and occurrences, each opening its session at the moment', async () => {
    const { location } = renderApp({
      route: '/operator/errors/7',
      api: marketApi({
        'GET /api/me': () => OPERATOR,
        'GET /api/operator/observe/errors/7': () => ERROR_DETAIL,
        'GET /api/operator/observe/sessions/sess-1': () => jsonResponse({}, { status: 500 }),
        'GET /api/operator/observe/sessions/sess-1/replay': () => ({ secure_id: 'sess-1', events: [] }),
      }).handler,
    });
    const stack = await screen.findByTestId('error-stack');
    expect(stack.textContent).toContain('render');
    expect(stack.textContent).toContain('/assets/index.js:1:20');
    expect(stack.textContent).toContain('/assets/react.js:9');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Uncaught Error: boom');

    const occurrence = screen.getByTestId('error-occurrence');
    const link = within(occurrence).getByTestId('occurrence-replay-link');
    expect(link.getAttribute('href')).toBe('/operator/sessions/sess-1?t=12345');
    fireEvent.click(link);
    await waitFor(() => expect(location().pathname + location().search).toBe('/operator/sessions/sess-1?t=12345'));
  });

  it('say when the group is gone', async () => {
    renderApp({
      route: '/operator/errors/99',
      api: marketApi({
        'GET /api/me': () => OPERATOR,
        'GET /api/operator/observe/errors/99': () =>
          jsonResponse({ code: 'not_found', message: 'no', request_id: 'r' }, { status: 404 }),
      }).handler,
    });
    expect((await screen.findByTestId('observe-not-found')).textContent).toContain('이 오류 그룹은 없거나');
  });
});
