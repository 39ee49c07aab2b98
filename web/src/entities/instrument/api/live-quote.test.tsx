import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket, quote } from '@/test/market';
import { jsonResponse, mockFetch } from '@/test/fetch';
import { useLiveQuote } from './live-quote';
import { resetLiveStream, STREAM_IDLE_CLOSE_MS } from '@/shared/stream/stream';

function Price({ id, testId }: { id: string; testId: string }) {
  const q = useLiveQuote(id);
  return <span data-testid={testId}>{q.data?.price ?? '…'}</span>;
}

beforeEach(() => {
  FakeWebSocket.reset();
  vi.stubGlobal('WebSocket', FakeWebSocket);
  mockFetch((url) => jsonResponse(quote({ instrument_id: decodeURIComponent(url.pathname.split('/')[3]!) })));
});

afterEach(() => resetLiveStream());

describe('useLiveQuote', () => {
  it('shares one subscription among components, updates them all, and unsubscribes after the last unmounts', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const ALL = { p0: 'KRX:005930', p1: 'KRX:005930', p2: 'NASDAQ:AAPL' } as const;
    const view = (keys: (keyof typeof ALL)[]) => (
      <QueryClientProvider client={client}>
        {keys.map((k) => (
          <Price key={k} id={ALL[k]} testId={k} />
        ))}
      </QueryClientProvider>
    );
    const { rerender, unmount } = render(view(['p0', 'p1', 'p2']));
    await waitFor(() => expect(screen.getByTestId('p0').textContent).toBe('71200'));
    expect(FakeWebSocket.instances).toHaveLength(1);
    const socket = FakeWebSocket.latest!;
    act(() => socket.open());
    expect(socket.frames('subscribe')).toEqual([['quote:KRX:005930', 'quote:NASDAQ:AAPL']]);

    act(() => socket.push({ op: 'quote', topic: 'quote:KRX:005930', data: quote({ price: '72000', as_of: '2025-01-02T06:35:00Z' }) }));
    await waitFor(() => expect(screen.getByTestId('p0').textContent).toBe('72000'));
    expect(screen.getByTestId('p1').textContent).toBe('72000');
    expect(screen.getByTestId('p2').textContent).toBe('71200');

    // One of the two Samsung components leaves: still subscribed.
    rerender(view(['p0', 'p2']));
    expect(socket.frames('unsubscribe')).toEqual([]);
    rerender(view(['p2']));
    expect(socket.frames('unsubscribe')).toEqual([['quote:KRX:005930']]);

    vi.useFakeTimers();
    unmount();
    expect(socket.frames('unsubscribe')).toEqual([['quote:KRX:005930'], ['quote:NASDAQ:AAPL']]);
    vi.advanceTimersByTime(STREAM_IDLE_CLOSE_MS);
    expect(socket.closedByClient).toBe(true);
  });
});
