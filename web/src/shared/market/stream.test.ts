import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket, quote } from '@/test/market';
import { marketKeys } from './keys';
import { subscribeQuote } from './live-quote';
import {
  defaultStreamUrl,
  reconnectDelayMs,
  RECONNECT_INITIAL_MS,
  RECONNECT_MAX_MS,
  STREAM_IDLE_CLOSE_MS,
  STREAM_MAX_TOPICS,
  TopicStream,
} from './stream';

const streams: TopicStream[] = [];

function makeStream() {
  const stream = new TopicStream({
    url: () => 'ws://moat.test/api/stream',
    createSocket: (url) => new FakeWebSocket(url),
    random: () => 0,
  });
  streams.push(stream);
  return stream;
}

const socket = () => {
  const s = FakeWebSocket.latest;
  if (!s) throw new Error('no socket was opened');
  return s;
};

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.reset();
});

afterEach(() => {
  streams.splice(0).forEach((s) => s.dispose());
  vi.useRealTimers();
});

describe('stream client', () => {
  it('builds ws:// or wss:// from the page address', () => {
    expect(defaultStreamUrl()).toBe(`ws://${window.location.host}/api/stream`);
  });

  it('opens no socket until the first subscription, then one socket for every topic', () => {
    const stream = makeStream();
    expect(FakeWebSocket.instances).toHaveLength(0);
    const offA = stream.subscribe('quote:KRX:005930', () => {});
    const offB = stream.subscribe('quote:NASDAQ:AAPL', () => {});
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(socket().url).toBe('ws://moat.test/api/stream');
    socket().open();
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930', 'quote:NASDAQ:AAPL']]);
    const offC = stream.subscribe('quote:INDEX:KOSPI', () => {});
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930', 'quote:NASDAQ:AAPL'], ['quote:INDEX:KOSPI']]);
    expect(FakeWebSocket.instances).toHaveLength(1);
    offA();
    offB();
    offC();
  });

  it('counts subscribers per topic: subscribes once and unsubscribes when the last one leaves', () => {
    const stream = makeStream();
    const off1 = stream.subscribe('quote:KRX:005930', () => {});
    socket().open();
    const off2 = stream.subscribe('quote:KRX:005930', () => {});
    expect(stream.listenerCount('quote:KRX:005930')).toBe(2);
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930']]);

    off1();
    off1(); // twice is harmless
    expect(socket().frames('unsubscribe')).toEqual([]);
    off2();
    expect(socket().frames('unsubscribe')).toEqual([['quote:KRX:005930']]);
    expect(stream.listenerCount('quote:KRX:005930')).toBe(0);
  });

  it('delivers pushed messages to the topic’s listeners only, and ignores junk', () => {
    const stream = makeStream();
    const samsung = vi.fn();
    const apple = vi.fn();
    stream.subscribe('quote:KRX:005930', samsung);
    stream.subscribe('quote:NASDAQ:AAPL', apple);
    socket().open();
    const data = quote();
    socket().push({ op: 'quote', topic: 'quote:KRX:005930', data });
    socket().onmessage?.(new MessageEvent('message', { data: 'not json' }));
    socket().push({ op: 'pong' });
    socket().push({ op: 'subscribed', topics: ['quote:KRX:005930'] });
    expect(samsung).toHaveBeenCalledTimes(1);
    expect(samsung).toHaveBeenCalledWith(data);
    expect(apple).not.toHaveBeenCalled();
  });

  it('reconnects with exponential back-off and subscribes to every topic again', () => {
    const stream = makeStream();
    stream.subscribe('quote:KRX:005930', () => {});
    stream.subscribe('quote:NASDAQ:AAPL', () => {});
    socket().open();
    expect(stream.status).toBe('open');

    socket().drop();
    expect(stream.status).toBe('reconnecting');
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(RECONNECT_INITIAL_MS - 1);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(2);

    // The second attempt fails too: the next wait doubles.
    socket().drop();
    vi.advanceTimersByTime(2 * RECONNECT_INITIAL_MS - 1);
    expect(FakeWebSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(3);

    socket().open();
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930', 'quote:NASDAQ:AAPL']]);
    expect(stream.status).toBe('open');

    // Success resets the back-off.
    socket().drop();
    vi.advanceTimersByTime(RECONNECT_INITIAL_MS);
    expect(FakeWebSocket.instances).toHaveLength(4);
  });

  it('caps the back-off', () => {
    expect(reconnectDelayMs(0)).toBe(RECONNECT_INITIAL_MS);
    expect(reconnectDelayMs(1)).toBe(2 * RECONNECT_INITIAL_MS);
    expect(reconnectDelayMs(30)).toBe(RECONNECT_MAX_MS);
  });

  it('reconnects at once when the browser comes back online', () => {
    const stream = makeStream();
    stream.subscribe('quote:KRX:005930', () => {});
    socket().open();
    for (let i = 0; i < 5; i++) {
      socket().drop();
      vi.advanceTimersByTime(RECONNECT_MAX_MS);
    }
    socket().drop();
    const before = FakeWebSocket.instances.length;
    window.dispatchEvent(new Event('online'));
    expect(FakeWebSocket.instances).toHaveLength(before + 1);
  });

  it('closes the socket once nothing is subscribed for a while, and opens a new one when needed', () => {
    const stream = makeStream();
    const off = stream.subscribe('quote:KRX:005930', () => {});
    socket().open();
    off();
    vi.advanceTimersByTime(STREAM_IDLE_CLOSE_MS - 1);
    expect(socket().closedByClient).toBe(false);
    // Coming back within the idle time reuses the socket.
    const again = stream.subscribe('quote:KRX:005930', () => {});
    vi.advanceTimersByTime(STREAM_IDLE_CLOSE_MS);
    expect(socket().closedByClient).toBe(false);
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930'], ['quote:KRX:005930']]);
    again();
    vi.advanceTimersByTime(STREAM_IDLE_CLOSE_MS);
    expect(socket().closedByClient).toBe(true);
    expect(stream.status).toBe('idle');
    // A closed-by-us socket does not reconnect.
    vi.advanceTimersByTime(RECONNECT_MAX_MS);
    expect(FakeWebSocket.instances).toHaveLength(1);

    stream.subscribe('quote:KRX:005930', () => {});
    expect(FakeWebSocket.instances).toHaveLength(2);
  });

  it('holds at most the server’s topic cap; others wait for a free slot', () => {
    const stream = makeStream();
    const offs = Array.from({ length: STREAM_MAX_TOPICS + 2 }, (_, i) => stream.subscribe(`quote:KRX:${String(i).padStart(6, '0')}`, () => {}));
    socket().open();
    const subscribed = () => socket().frames('subscribe').flat();
    expect(subscribed()).toHaveLength(STREAM_MAX_TOPICS);
    offs[0]!();
    expect(socket().frames('unsubscribe')).toEqual([['quote:KRX:000000']]);
    expect(subscribed()).toHaveLength(STREAM_MAX_TOPICS + 1);
    expect(subscribed().at(-1)).toBe(`quote:KRX:${String(STREAM_MAX_TOPICS).padStart(6, '0')}`);
  });

  it('writes pushed quotes into the query cache (one write per client), never over a newer quote', () => {
    const stream = makeStream();
    const client = new QueryClient();
    const set = vi.spyOn(client, 'setQueryData');
    const off1 = subscribeQuote(client, 'KRX:005930', stream);
    const off2 = subscribeQuote(client, 'KRX:005930', stream);
    socket().open();
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930']]);

    const first = quote({ price: '71300', as_of: '2025-01-02T06:30:01Z' });
    socket().push({ op: 'quote', topic: 'quote:KRX:005930', data: first });
    expect(client.getQueryData(marketKeys.quote('KRX:005930'))).toEqual(first);
    expect(set).toHaveBeenCalledTimes(1);

    // An older quote arriving late does not replace it.
    socket().push({ op: 'quote', topic: 'quote:KRX:005930', data: quote({ price: '70000', as_of: '2025-01-02T06:29:00Z' }) });
    expect(client.getQueryData(marketKeys.quote('KRX:005930'))).toEqual(first);

    // Something that is not a quote of this instrument is ignored.
    socket().push({ op: 'quote', topic: 'quote:KRX:005930', data: { price: 1 } });
    socket().push({ op: 'quote', topic: 'quote:KRX:005930', data: quote({ instrument_id: 'NASDAQ:AAPL', as_of: '2025-01-02T07:00:00Z' }) });
    expect(client.getQueryData(marketKeys.quote('KRX:005930'))).toEqual(first);

    off1();
    off2();
    expect(socket().frames('unsubscribe')).toEqual([['quote:KRX:005930']]);
  });

  it('keeps working when the socket cannot even be created', () => {
    let fail = true;
    const stream = new TopicStream({
      url: () => 'ws://moat.test/api/stream',
      createSocket: (url) => {
        if (fail) throw new Error('blocked');
        return new FakeWebSocket(url);
      },
      random: () => 0,
    });
    streams.push(stream);
    stream.subscribe('quote:KRX:005930', () => {});
    expect(stream.status).toBe('reconnecting');
    fail = false;
    vi.advanceTimersByTime(RECONNECT_INITIAL_MS);
    socket().open();
    expect(socket().frames('subscribe')).toEqual([['quote:KRX:005930']]);
  });
});
